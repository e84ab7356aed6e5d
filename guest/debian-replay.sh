# make replay's guest part on the Debian system image (scripts/replay.sh,
# booted by scripts/debian-run.sh): smartwake-replay run as a user runs it
# on a Debian test box, then its files printed to the console between
# REPLAY-FILE NAME and REPLAY-FILE-END for the host to collect.
# Usage: debian-replay.sh deb|ko CLOCK RUNS SECS
#   deb  apt install of both packages (DKMS builds the module here), then
#        modprobe smartwake: the user's path
#   ko   dpkg -i of the CLI package only and insmod of the lab's build of
#        the same tree (/lab/ko): the second boot of a replay, which needs
#        no second DKMS build
#   CLOCK wall or icount (what the guest's clock counts: the host booted
#        it with -icount or not), RUNS and SECS: smartwake-replay's
. ./lib.sh
mode=${1:-deb} clock=${2:-wall} runs=${3:-3} secs=${4:-2}
out=/tmp/replay

mkdir -p /tmp/deb
cp /lab/deb/*.deb /tmp/deb/
if [ "$mode" = deb ]; then
	apt-get install -y --no-install-recommends /tmp/deb/smartwake-dkms_*.deb \
		/tmp/deb/smartwake_*.deb >/tmp/apt.log 2>&1
	rc=$?
	tail -n 5 /tmp/apt.log | sed 's/^/  | /'
	check "apt install ./smartwake-dkms_*.deb ./smartwake_*.deb" eq "$rc" 0
else
	dpkg -i /tmp/deb/smartwake_*.deb >/tmp/apt.log 2>&1
	check "dpkg -i ./smartwake_*.deb (the CLI and smartwake-replay)" eq "$?" 0
fi
check "smartwake-replay is the package's" eq "$(command -v smartwake-replay)" /usr/sbin/smartwake-replay
# before the module is loaded: the command refuses and runs nothing
msg=$(smartwake-replay --out /tmp/none 2>&1)
rc=$?
echo "  before the module: exit $rc: $msg"
check "smartwake-replay without the module: exit 2, 'not loaded', nothing run" \
	eval '[ $rc -eq 2 ] && grep -q "not loaded on this machine" <<<"$msg" && [ ! -e /tmp/none ]'
if [ "$mode" = deb ]; then
	check "modprobe smartwake (the DKMS build)" modprobe smartwake
else
	check "insmod the lab's build" insmod /lab/ko/smartwake.ko
fi

t0=$(uptime_s)
smartwake-replay --runs "$runs" --secs "$secs" --clock "$clock" --out "$out"
rc=$?
echo "  smartwake-replay: exit $rc after $(($(uptime_s) - t0)) s"
check "smartwake-replay --clock $clock: exit 0 (every comparison ran)" eq "$rc" 0
check "smartwake-replay wrote its report and summary" test -s $out/report.md -a -s $out/summary.md
# the report says which module ran: modinfo's version, the package's
ver=$(cat /sys/module/smartwake/version 2>/dev/null)
grep '^module:' $out/machine.txt
check "machine.txt names the loaded module's version ($ver)" \
	eval '[ -n "$ver" ] && grep -q "^module: smartwake $ver (" $out/machine.txt'
if [ "$mode" = deb ]; then
	pv=$(dpkg-query -W -f '${Version}' smartwake-dkms)
	check "the module's version is the package's ($ver, $pv)" eq "$ver" "${pv%%-*}"
fi
for f in "$out"/*.log "$out"/machine.txt "$out"/summary.md; do
	[ -f "$f" ] || continue
	echo "REPLAY-FILE ${f##*/}"
	cat "$f"
	echo "REPLAY-FILE-END"
done
check "rmmod smartwake" rmmod smartwake
check "kernel log has no WARNING/BUG/Oops/Call Trace" dmesg_clean
summary
