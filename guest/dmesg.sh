# shellcheck shell=sh
# dmesg_verdict: reads a kernel log on stdin, prints the lines that make
# it unclean (a warning, bug, oops, call trace, general protection fault
# or kmemleak report) and fails when there is one. Sourced by guest/lib.sh
# (busybox and Debian's mawk) and by scripts/dmesg-test.sh on the host.
#
# One exception: a soft lockup whose report (up to its </TASK>) names no
# frame of smartwake is an emulation stall, not a bug: TCG on a 2-CPU host
# running two guests side by side can starve a vCPU for longer than the
# 20 s threshold (seen in make check: 23 s in (udev-worker) at 36 s of
# uptime, before any smartwake code ran). It is printed as a KTAP comment
# and does not fail. A lockup with a [smartwake] frame (the hook spinning),
# a report without its </TASK> within 200 lines, and any other warning
# inside the report still fail.
#
# Likewise a KCSAN report (the debug kernel's kcsan variant, issue 59):
# one naming no frame of this project's modules ([smartwake],
# [smartwake_pull], the test modules [sw_*]) up to its closing "===" line
# is a race of the kernel's own, printed as a KTAP comment, not failed;
# one naming such a frame, or cut off after 200 lines, fails.
dmesg_verdict() {
	awk '
	function kflush() {
		if (kown || kn > 200) {
			print kblk
			bad = 1
		} else {
			print "# KCSAN report without a smartwake frame: " ktitle
		}
		kin = 0
		kown = 0
	}
	kin {
		kn++
		kblk = kblk "\n" $0
		if ($0 ~ /\[(smartwake|smartwake_pull|sw_[a-z0-9_]+)\]/)
			kown = 1
		if ($0 ~ /=================$/ || kn > 200)
			kflush()
		next
	}
	/BUG: KCSAN: / {
		kin = 1
		kn = 0
		kblk = $0
		ktitle = $0
		sub(/^.*BUG: KCSAN: /, "", ktitle)
		if ($0 ~ /\[(smartwake|smartwake_pull|sw_[a-z0-9_]+)\]/)
			kown = 1
		next
	}
	function flush() {
		if (own || n > 200) {
			print blk
			bad = 1
		} else {
			stalls++
			print "# emulation stall, no smartwake frame: " first
		}
		inl = 0
		own = 0
	}
	/soft lockup - CPU#/ {
		if (inl)
			flush()
		inl = 1
		n = 0
		blk = $0
		first = $0
		next
	}
	/WARNING:|BUG:|Oops|general protection fault|kmemleak: .* new suspected/ {
		print
		bad = 1
		next
	}
	inl {
		n++
		blk = blk "\n" $0
		if ($0 ~ /\[smartwake\]/ && $0 !~ /Modules linked in/)
			own = 1
		if ($0 ~ /<\/TASK>/ || n > 200)
			flush()
		next
	}
	/Call Trace/ {
		print
		bad = 1
	}
	END {
		if (kin) {
			kn = 201
			kflush()
		}
		if (inl) {
			n = 201
			flush()
		}
		exit bad
	}'
}
