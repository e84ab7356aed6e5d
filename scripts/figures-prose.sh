# shellcheck shell=bash
# The text of the Documentation/figures.md sections that scripts/check.sh
# writes: one function per section, each printing the section's Markdown
# (heading, prose, table or quoted output) from the log of the run that
# measured it; check.sh pipes it to scripts/figures.sh. Sourced by
# check.sh after common.sh, from the top of the tree. The wording of a
# section is changed here, its measuring in check.sh or the guest script.

# log_block LOG NAME: the lines of guest log LOG between the markers
# NAME-BEGIN and NAME-END, as a Markdown code block (the real output a
# figures section quotes).
log_block() {
	echo '```'
	sed -n "/^$2-BEGIN/,/^$2-END/p" "$1" | sed '1d;$d' | tr -d '\r'
	echo '```'
}

# ab_block LOG MARK: an ab output of LOG as log_block prints it, less its
# per-run lines and its counter deltas (the runs' figures are in the
# side table; the counters are the step's log, a build artifact)
ab_block() {
	log_block "$1" "$2" | awk '
		/^run [0-9]+\/[0-9]+ / { next }
		/^counter deltas/ { skip = 1; next }
		skip && /^$/ { skip = 0; next }
		skip { next }
		{ print }'
}

# figtext_numa_retry LOG: section numa-retry, numa.sh's NUMA-FIG lines
figtext_numa_retry() {
	echo "## numa_retry: NUMA task and page migrations per mode (guest/numa.sh, numa2)"
	echo
	echo "Per mode, 8 s (numatouch 10 s): 2 numatouch tasks with memory first-touched on node 1, run on node 0 for a"
	echo "pass then free, 2 tasks with memory bound to node 1 starting on node 0, and a 1:6 wakeload."
	echo "move/swap/stick: sched_move_numa/sched_swap_numa/sched_stick_numa events; calls: a kprobe"
	echo "event on task_numa_migrate.isra.0 (reached, skipped or not); deferred/allowed: the module's"
	echo "counters; pages: /proc/vmstat numa_pages_migrated; tasks: the numatouch tasks with NUMA"
	echo "faults, from /proc/PID/sched (6.12 has no numa_task_migrated/numa_task_swapped)."
	echo
	echo "| mode | move | swap | stick | calls | deferred | allowed | pages migrated | tasks with a preferred node | on it | tasks' numa_pages_migrated |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	sed -n 's/^NUMA-FIG //p' "$1" | tr -d '\r'
}

# figtext_kcsan LOG: section kcsan, kcsan.sh's KCSAN-FIG lines
figtext_kcsan() {
	local f
	f=$(sed -n 's/^KCSAN-FIG //p' "$1" | tr -d '\r')
	echo "## KCSAN: data races of the module (guest/kcsan.sh, issue 59)"
	echo
	echo "make check step kcsan-debug (extra): the debug kernel's kcsan variant"
	echo "(scripts/debug-kernel-kcsan.config: KCSAN non-strict, no KASAN; lockdep, kmemleak), smp4 guest,"
	echo "TCG one thread. Every knob flipped through its values round after round under wakeload disp and"
	echo "msg, readers of the stats and hooks files beside them, policy smartwake and shadow."
	echo
	echo "Run: $(grep -m1 '^secs=' <<<"$f")"
	echo "Reports: $(grep -m1 '^reports=' <<<"$f") (smartwake: the reports naming a frame of the module)"
	echo
	echo "KCSAN's own counters after the run (/sys/kernel/debug/kcsan): $(sed -n 's/^stat //p' <<<"$f" | tr '\n' ';' | sed 's/;$//; s/;/, /g')"
	echo
	echo "The races reported in the run (count, title; a title naming no smartwake function is the kernel's own):"
	echo
	echo '```'
	sed -n 's/^title \([0-9]*\) \(.*\)/\1 \2/p' <<<"$f"
	echo '```'
	echo
	echo "The same run's deliberate race (module/testmods/sw_datarace.ko, two CPUs on a plain int) was"
	echo "reported and failed the log check: KCSAN sees races in this emulator, one vCPU at a time."
}

# fi_fig_table LOG COLUMN: the table of faultinject.sh's FI-FIG lines, one
# row per injection point; COLUMN names the count of failures tolerated
# (a load's "loaded", a write's "accepted")
fi_fig_table() {
	echo "| injection point | failures injected | refused | $2 | bad | kmemleak |"
	echo "|---|---|---|---|---|---|"
	sed -n 's/^FI-FIG //p' "$1" | tr -d '\r' | awk '{
		delete f; for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
		acc = ("loaded" in f) ? f["loaded"] : f["accepted"]
		printf "| %s | %s | %s | %s | %s | %s |\n", f["point"], f["injected"], f["refused"], acc, f["bad"], f["leaks"]
	}'
}

# figtext_faultinject LOG: section faultinject, faultinject.sh's FI-FIG lines
figtext_faultinject() {
	echo "## Fault injection: every allocation of the load and of the hook-installing knob writes (issue 59)"
	echo
	echo "make check step faultinject-kcsan (extra), guest/faultinject.sh: the debug kernel's kcsan variant"
	echo "(FAILSLAB, FAIL_PAGE_ALLOC, the stack-trace filter; lockdep, kmemleak), smp2 guest. The Nth"
	echo "allocation with a module frame on its stack fails (fail-nth), N = 1, 2, ... until the operation"
	echo "makes fewer: each row's allocations were each failed once, the module's own and those the kernel"
	echo "makes for it (ftrace hashes, tracepoint probe arrays, kretprobe instances, debugfs entries)."
	echo "refused: the load or write failed with an error, nothing listed, nothing hooked, and the same"
	echo "write without injection then worked; accepted/loaded: the failure was tolerated and the result"
	echo "complete. bad: any other outcome (half installed, a warning in the log, unload failed). leaks:"
	echo "kmemleak's new unreferenced objects after the row's series."
	echo
	fi_fig_table "$1" accepted
	echo
	echo "fail_function on the functions the module installs things with, as the guest's"
	echo "/sys/kernel/debug/fail_function/injectable lists them (not-injectable: no ALLOW_ERROR_INJECTION;"
	echo "their own allocations, and those of what they call, are failed in the rows above instead;"
	echo "absent: not in this kernel):"
	echo
	echo "| function | fail_function |"
	echo "|---|---|"
	sed -n 's/^FI-FF fn=\([^ ]*\) \([a-z-]*\).*/| \1 | \2 |/p' "$1" | tr -d '\r'
	echo
	sed -n 's/^FI-FF injectable-list \(.*\)/The list, without the system calls: \1/p' "$1" | tr -d '\r' |
		sed 's/ __do_sys_[a-z0-9_]*//g; s/ *$//'
	echo
	echo "The load rows: tools/finitload makes one finit_module() call with its own fail-nth armed (busybox"
	echo "insmod would retry a failed finit_module() with init_module(), which fail-nth no longer reaches);"
	echo "insmod(...) loads with parameters that install hooks at load, undone by the load's error path."
	echo "A refused load: its errno, a smartwake error line in the log (all levels, read with dmesg),"
	echo "then no module (/proc/modules, /sys/module), no debugfs, nothing in enabled_functions, the"
	echo "kprobes list as before, a clean log after the shell's next wakeups (a tracepoint probe left"
	echo "behind would run the freed module's code). The errors seen, with the first smartwake line of each:"
	echo
	echo "| load | refusals | errno | the log's first smartwake error |"
	echo "|---|---|---|---|"
	sed -n 's/^FI-ERR point=\([^ ]*\) count=\([0-9]*\) errno=\([^ ]*\) log=\(.*\)/| \1 | \2 | \3 | \4 |/p' "$1" | tr -d '\r'
	echo
	echo "A failed allocation in the removal of the kretprobe that observes kallsyms_lookup_name at load"
	echo "(module/symbols.c) makes the kernel's __disarm_kprobe_ftrace() WARN (once per boot) and"
	echo "unregister_kretprobe() keep it in the kprobe table, disarmed, its address cleared; the module"
	echo "then leaves it to the kernel (allocated, not in module memory) and says so, and only then are"
	echo "that WARN and the list's 0x0 line accepted. Times the kernel kept it, per load row:"
	sed -n 's/^FI-FIG point=\([^ ]*\) .*kernel_kept_kretprobe=\([0-9]*\).*/\1: \2;/p' "$1" | tr -d '\r' | tr '\n' ' ' | sed 's/; $/./'
	echo
	echo
	echo "Removal rows: a failed allocation of the filter removal in hooks.c's sw_hook_undo() leaves"
	echo "the entry in the unregistered ops (freed at unload) and says so with a pr_warn, below the"
	echo "serial console's level; the guest reads it in dmesg, and a row whose value installs ftrace"
	echo "hooks must show it at least once per hook:"
	echo
	echo "| removal | ftrace hooks | pr_warn seen |"
	echo "|---|---|---|"
	sed -n 's/^FI-FIG point=\([^ ]*(removal)\) .* warned=\([0-9]*\) ftrace_hooks=\([0-9]*\).*/| \1 | \3 | \2 |/p' "$1" | tr -d '\r'
	echo
	echo "Not run here: BPF attach and detach and the policy=bpf knob write (the kcsan kernel has no"
	echo "BTF, bpf(2) or JIT): see the next section (step faultinject-bpf, the faultbpf kernel). The"
	echo "sib_pull=1 knob write needs the companion module: not run."
}

# figtext_faultinject_bpf LOG: section faultinject-bpf, faultinject.sh's
# BPF rows (FI-FIG, FI-ERR)
figtext_faultinject_bpf() {
	echo "## Fault injection: BPF attach and detach, policy=bpf (issue 59)"
	echo
	echo "make check step faultinject-bpf (extra), guest/faultinject.sh's BPF rows: the debug kernel's"
	echo "faultbpf variant (the base's KASAN, lockdep and kmemleak, with FAILSLAB, FAIL_PAGE_ALLOC, the"
	echo "stack-trace filter, BTF, bpf(2) and the JIT), smp2 guest. bpf-load: smartwake bpf load (libbpf:"
	echo "BTF and maps, the verifier, the JIT and the struct_ops trampolines, the attach that calls the"
	echo "module's sw_bpf_reg(), the pins); bpf-unload: smartwake bpf unload with policy=bpf set"
	echo "(BPF_LINK_DETACH: sw_bpf_unreg(), which sets policy=stock and removes the hooks). The Nth"
	echo "allocation with the bpf(2) system call on its stack fails (fail-nth in the CLI's own task),"
	echo "N = 1, 2, ... until the command makes fewer. prev: a built-in program, one callback, a plain"
	echo "struct_ops map; wake_wide_v2013: tools/bpf's object with its maps and a .struct_ops.link map,"
	echo "whose load row fails only the allocations under bpf_struct_ops_link_create (the link's attach;"
	echo "the rest of its load is prev's path: about 800 checks against 300, an hour of this guest)."
	echo "refused: the command failed with a message,"
	echo "then the module says detached, no pin is left, the module's reference count is back, policy is"
	echo "stock, nothing is hooked, the log is clean, and the same load without injection attaches."
	echo "The other rows use the module-area filter, as in the section above: sib_pull=1 with the"
	echo "companion loaded, and policy=bpf with a program attached, each write and its removal. (The"
	echo "load row on this kernel, not in the step for time: see scripts/check.sh at faultinject-bpf.)"
	echo
	fi_fig_table "$1" "done"
	echo
	echo "The refusals: for the BPF rows the CLI's last line, for the load its errno and the log's"
	echo "first smartwake error:"
	echo
	echo "| row | refusals | errno | message |"
	echo "|---|---|---|---|"
	sed -n 's/^FI-ERR point=\([^ ]*\) count=\([0-9]*\) errno=\([^ ]*\) log=\(.*\)/| \1 | \2 | \3 | \4 |/p' "$1" | tr -d '\r'
}

# figtext_latency_ab LOG: section latency-ab, latency.sh's smartwake ab
# output (latency columns, locality lines)
figtext_latency_ab() {
	echo "## smartwake ab with wakeup latency and placement locality"
	echo
	echo "guest/latency.sh (make check step latency-smp4), stock kernel, smp4 guest under TCG:"
	echo "the kernel's placement (policy=shadow) against the module's without wake_wide."
	echo
	ab_block "$1" SMARTWAKE-AB
}

# figtext_bpf LOG STEP: sections bpf (step bpf-stock) and bpf-arm64,
# bpf.sh's BPF-FIG lines
figtext_bpf() {
	if [ "${2:-bpf-stock}" = bpf-stock ]; then
		echo "## BPF placement policies against the knobs and the kernel (guest/bpf.sh)"
		echo
		echo "make check step bpf-stock: stock kernel, smp2 guest (TCG). Each row compares a BPF"
	else
		echo "## BPF placement policies on arm64 (guest/bpf.sh, step $2)"
		echo
		echo "make check-extra step $2: 6.12.117+deb12-cloud-arm64, smp2 guest (qemu-system-aarch64"
		echo "-M virt -cpu max, TCG); the example programs built for arm64 (make -C tools bpf-arm64),"
		echo "attached on the trampolines of arm64's BPF JIT; the rows of section bpf (x86-64). Each row compares a BPF"
	fi
	echo "program's decisions, wakeup by wakeup, with a knob's on the same inputs (bpf_wide_differ)"
	echo "or, under policy=shadow, the module's answer with the program in it against the kernel's"
	echo "select_task_rq_fair() (shadow_disagree; races counted apart). Counts, not rates: the"
	echo "loads are short and their wakeup counts vary from run to run."
	echo
	echo "| program | compared with | load | decisions compared | differ |"
	echo "|---|---|---|---|---|"
	sed -n 's/^BPF-FIG //p' "$1" | tr -d '\r'
}

# figtext_cost LOG STEP: sections cost (step cost-stock) and cost-64,
# cost.sh's COST-FIG lines (and its limit)
figtext_cost() {
	if [ "$2" = cost-stock ]; then
		echo "## The path per call against the kernel's (guest/cost.sh, the cost guard)"
		echo
		echo "make check step cost-stock: stock kernel, smp2 guest under -icount shift=0,sleep=off (a ns"
		echo "is about one instruction; caches and pipelines are not modelled, nor the gain of more"
		echo "CPUs). policy=shadow at mainline knobs: on the sampled wakeups (1 in 64 per CPU) the"
		echo "module's evaluation and the kernel's select_task_rq_fair() are timed apart, on the same"
		echo "wakeup; 3 guest seconds per run. The step fails above its limit ($(sed -n 's/^LIMIT=\${1:-\([0-9]*\)}$/\1/p' guest/cost.sh) thousandths)."
	else
		echo "## The path per call at 64 CPUs (guest/cost.sh sized, make check step $2)"
		echo
		echo "$(sed -n 's/.*SMARTWAKE-GUEST-START \([^ ]*\) cpus=\([0-9]*\).*/\1, \2 vCPUs/p' "$1" | head -n 1) (2 sockets of 32 CPUs, an LLC each) under"
		echo "-icount shift=0,sleep=off, all vCPUs on one host thread: with every vCPU busy, a sample"
		echo "whose vCPU was switched out counts other vCPUs' instructions (as steal time does on a"
		echo "real VM). Loads sized to the machine; policy=shadow at mainline knobs, 0 disagreements,"
		echo "races below 1 %; the guard reads the ratio of the medians (limit as cost-stock)."
	fi
	echo
	echo "The guard reads module_kernel_ratio, the ratio of the two medians (module_ns_p50 over"
	echo "kernel_ns_p50, from the cost histograms: a sample stretched by a switched-out vCPU moves"
	echo "the tail and the mean, not the median); the means and their ratio are beside it."
	echo
	echo "| run | sampled calls | module_ns_p50 | kernel_ns_p50 | module_kernel_ratio | module_ns_p99 | kernel_ns_p99 | module_ns_per_call | kernel_ns_per_call | module_kernel_mean_ratio |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	sed -n 's/^COST-FIG //p' "$1" | tr -d '\r'
}

# figtext_shadow_size LOG STEP: section STEP, guest/shadow.sh sized (issue
# 61): the topology, each load's comparisons, the traced factor, the LLC
# balancing of 7.x
figtext_shadow_size() {
	echo "## policy=shadow at size (guest/shadow.sh sized, step $2)"
	echo
	echo "$(sed -n 's/.*SMARTWAKE-GUEST-START \([^ ]*\) cpus=\([0-9]*\).*/\1, \2 vCPUs/p' "$1" | head -n 1) under"
	echo "-icount shift=0,sleep=off; $(sed -n 's/^topology: \(.*\)/\1/p' "$1" | tr '\n' ';' | sed 's/;$//; s/;/; /g')."
	sed -n 's/^\(sched_cache: .*\)/\1/p' "$1" | sed 's/ *$//; s/^/- /'
	echo
	echo "policy=shadow at mainline knobs, loads sized to the machine (n CPUs: pipe pairs n/2 and n,"
	echo "msg groups n/4, a dispatcher with n-1 workers, SCHED_IDLE work, two cgroups of cpu.weight"
	echo "100 and 400), each load on its own after a counter reset; they must agree. The rows"
	echo "factor=2 and sis_filter=1 are the controls: knobs that differ from the kernel's"
	echo "code, which must disagree."
	echo
	echo "| load | compared | agree | disagree | raced | raced_aba |"
	echo "|---|---|---|---|---|---|"
	sed -n 's/^SHADOW-LOAD //p' "$1" | tr -d '\r'
	# (the total: its own SHADOW-LOAD line since 2026-12-06, else SHADOW-FIGURES)
	grep -q '^SHADOW-LOAD | all at' "$1" ||
		sed -n 's/^SHADOW-FIGURES compared=\([0-9]*\) agree=\([0-9]*\) disagree=\([0-9]*\) raced=\([0-9]*\) raced_aba=\([0-9]*\).*/| all at mainline knobs | \1 | \2 | \3 | \4 | \5 |/p' "$1" | head -n 1
	echo
	sed -n 's/^SHADOW-FACTOR llc_cpus=\([0-9]*\) traced=\([0-9]*\) other=\([0-9]*\).*/wake_wide factor=llc: \2 traced wakeups through wake_wide, \3 with a factor other than the LLC'"'"'s \1 CPUs./p' "$1"
}

# figtext_stress_size LOG STEP: section STEP, guest/stress-size.sh (issue
# 61): the counters after each phase
figtext_stress_size() {
	echo "## Reliability at size (guest/stress-size.sh, step $2)"
	echo
	echo "$(sed -n 's/.*SMARTWAKE-GUEST-START \([^ ]*\) cpus=\([0-9]*\).*/\1, \2 vCPUs/p' "$1" | head -n 1) under"
	echo "-icount shift=0,sleep=off; $(sed -n 's/^topology: \(.*\)/\1/p' "$1" | head -n 1)."
	echo "Loads of about one runnable task per CPU (pipe pairs n/8, msg groups n/16, a switching"
	echo "dispatcher with n/8 workers) in the background; every CPU of that LLC offline and back"
	echo "(each time in guest seconds below), policy and knob flips,"
	echo "insmod/rmmod cycles. The counters after each phase (the loads stopped), each identity"
	echo "checked: select_calls = passthrough + out_of_scope + wakeups, sis_calls = its outcomes,"
	echo "shadow_compared = agree + disagree + raced + raced_aba."
	echo
	echo "| phase | select_calls | wakeups | sis_calls | sis_overloaded_skipped | shadow_compared | shadow_disagree | raced | inactive_answers |"
	echo "|---|---|---|---|---|---|---|---|---|"
	sed -n 's/^STRESS-FIG //p' "$1" | tr -d '\r'
	echo
	sed -n 's/^  \(phase [a-z ]*: [0-9]* s\)$/- \1 (guest time)/p' "$1"
	sed -n 's/^  \[\([0-9]*s\)\] \(LLC [0-9,-]* o[a-z]* in [0-9]* s\)$/- at \1: \2 (guest time)/p' "$1"
}

# figtext_size DOC: section size of figures.md, one line per step at size
# (shadow-llc64, ..., stress-2s2l8c2t), from their own sections in DOC
# (Documentation/size.md, the long listing that check.sh writes them to)
figtext_size() {
	echo "## The steps at size, in short (issue 61; each step's section: [size.md](size.md))"
	echo
	echo "policy=shadow at size (guest/shadow.sh sized): at mainline knobs every load sized to the"
	echo "machine, each with no disagreement; factor=2 and sis_filter=1 are the controls, which must"
	echo "disagree. Stress at size (guest/stress-size.sh): an LLC offline and back, flips and cycles"
	echo "under load, the counter identities after each phase."
	echo
	python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
shadow, stress = [], []
for name, body in re.findall(r"<!-- BEGIN (\S+) -->\n(.*?)<!-- END \1 -->", text, re.S):
    when = re.search(r"^_commit (\S+), (\S+) ", body, re.M)
    when = f"{when.group(1)}, {when.group(2)}" if when else "?"
    m = re.search(r"^(\S+), (\d+) vCPUs under", body, re.M)
    kern, cpus = (m.group(1), m.group(2)) if m else ("?", "?")
    topo = re.search(r"\bnodes (\d+)", body)
    llc = re.search(r"shared by \S+ \((\d+) CPUs\)", body)
    smt = re.search(r"thread siblings (\S+?)[,;]", body)
    shape = ", ".join(x for x in (
        f"{topo.group(1)} node" + ("s" if topo.group(1) != "1" else "") if topo else "",
        f"LLC {llc.group(1)}" if llc else "",
        "SMT" if smt and "-" in smt.group(1) else "") if x)
    rows = {}
    for r in re.findall(r"^\| (.+?) \|$", body, re.M):
        f = [c.strip() for c in r.split("|")]
        rows[f[0]] = f[1:]
    if body.find("## Reliability at size") >= 0:
        ph = [v for k, v in rows.items() if k not in ("phase", "---")]
        wake = sum(int(v[1]) for v in ph if v[1].isdigit())
        cmp_ = max((int(v[4]) for v in ph if v[4].isdigit()), default=0)
        dis = sum(int(v[5]) for v in ph if v[5].isdigit())
        stress.append(f"| {name} | {kern}, {cpus} | {shape} | {len(ph)} | {wake:,} | {cmp_:,} / {dis} | {when} |")
        continue
    allr = rows.get("all at mainline knobs")
    if not allr:
        continue
    comp, dis = int(allr[0]), int(allr[2])
    raced = int(allr[3]) + int(allr[4])
    def ctl(prefix):
        c = [v for k, v in rows.items() if k.startswith(prefix)]
        return f"{sum(int(v[2]) for v in c):,} in {sum(int(v[0]) for v in c):,}" if c else "-"
    fl = re.search(r"factor=llc: (\d+) traced wakeups through wake_wide, (\d+) with", body)
    fl = f"{int(fl.group(1)):,}, {fl.group(2)}" if fl else "-"
    shadow.append(f"| {name} | {kern}, {cpus} | {shape} | {comp:,} | {dis} | {100.0 * raced / comp if comp else 0:.3f} % | "
                  f"{ctl('factor=2')} | {ctl('sis_filter=1')} | {fl} | {when} |")
print("| step | kernel, CPUs | shape | compared at mainline knobs | disagreements | raced (and ABA) | factor=2: disagreements | sis_filter=1: disagreements | factor=llc: traced, other factor | commit, date |")
print("|---|---|---|---|---|---|---|---|---|---|")
print("\n".join(shadow) if shadow else "| (none yet) |")
if stress:
    print()
    print("| step | kernel, CPUs | shape | phases | wakeups in all | shadow compared (largest phase) / disagreements | commit, date |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(stress))
PY
}

# figtext_debian LOG: section debian, the Debian image's install time, the
# shadow service's line and its DEBIAN-FIG oracle lines
figtext_debian() {
	echo "## The Debian 12 system image (guest/debian-install.sh)"
	echo
	echo "make check step debian-bookworm: Debian 12 (mmdebstrap, systemd) with its stock kernel"
	echo "$(sed -n 's/^SMARTWAKE-GUEST-START \([^ ]*\) cpus=\([0-9]*\).*/\1, \2 vCPUs under TCG (wall time is indicative only)/p' "$1" | head -n 1);"
	echo "the project's packages installed with apt, DKMS building the module in the guest."
	echo
	sed -n 's/^  apt install: \(exit [0-9]* after [0-9]* s\).*/- apt install (DKMS build included): \1/p' "$1"
	sed -n 's/^  \(shadow under systemd: .*\)/- \1/p' "$1"
	echo
	echo "policy=shadow (the kernel decides) with kernel.sched_schedstats=1: the kernel's"
	echo "/proc/schedstat ttwu_move_affine, summed over every domain, against the module's"
	echo "affine_pulls on the same run (two systemd services and a scope, unequal CPUWeight):"
	echo
	echo "| oracle | kernel | module counter | module |"
	echo "|---|---|---|---|"
	sed -n 's/^DEBIAN-FIG //p' "$1"
}

# figtext_concurrent_ab LOG: section concurrent-ab, scope.sh's two
# smartwake ab --concurrent outputs
figtext_concurrent_ab() {
	echo "## smartwake ab --concurrent"
	echo
	echo "guest/scope.sh (make check step scope-smp4), stock kernel, smp4 guest under TCG: both"
	echo "sides at once, one wakeload each in its own cgroup; A under the kernel, B under the"
	echo "module without wake_wide (knob scope: B's cgroup)."
	echo
	ab_block "$1" SMARTWAKE-AB-CONCURRENT
	echo
	echo "The same with B in policy=shadow (it places as the kernel does: an A/A run, so the"
	echo "difference between the sides is what sharing the machine does to two equal loads):"
	echo
	ab_block "$1" SMARTWAKE-AB-CONCURRENT-AA | grep -E '^(```|ab:|side|A  |B  |unit|ratio)'
}

# figtext_kfacts LOG: section kfacts-KERNEL, kfacts.sh's KFACT lines: what
# the kernel offers the module
figtext_kfacts() {
	tr -d '\r' <"$1" | awk -F'|' '
		/^KFACT release\|/ { sub(/^KFACT release\|/, ""); sub(/\|.*/, ""); rel = $0 }
		/^KFACT (hook|copy|other)\|/ {
			sub(/^KFACT /, "")
			if (!($1 in fn)) role[++n] = $1
			fn[$1] = fn[$1] (fn[$1] ? ", " : "") "`" $2 "` " $3 ($4 == "yes" ? " traced" : "")
		}
		/^KFACT endbr\|/ { endbr = "`" $2 "` begins `" $3 "` (" $4 ")" }
		/^KFACT hooked\|/ { h = h (h ? ", " : "") "`" $2 "` " $3 " " $4 }
		/^KFACT sched_ext\|/ { sx = $2 }
		END {
			print "## What " rel " offers the module (guest/kfacts.sh)"
			print ""
			print "Each function: its kallsyms type (t/T out of line, - inlined), and traced when ftrace"
			print "can hook it. hook: the module attaches there; copy: inlined, the module carries its own"
			print "copy; other: neither, listed for a port."
			print ""
			for (i = 1; i <= n; i++) print "- " role[i] ": " fn[role[i]] "."
			print "- Pointer-call target: " endbr "."
			print "- With every knob that installs one: " h "."
			print "- sched_ext: " sx "."
		}'
}

# figtext_repeat [N STEP REGEX PASSED SECONDS LOG]: section repeat of
# check.sh --repeat N --figures REGEX, one row a step: the verdict, and
# where the runs' lines matching REGEX are (LOG, a build artifact: "run
# I: LINE") with how many of them are KTAP results and how many of those
# failed. The rows of the other steps are kept from the section (and
# from the repeat-STEP sections it replaces) with their commit and date;
# without arguments, the section again from its rows.
figtext_repeat() {
	local row=
	if [ $# -eq 6 ]; then
		row="| $2 | $4 of $1 | $5 | $(wc -l <"$6") | $(grep -cE '^run [0-9]+: ok ' "$6" || true) / $(grep -cE '^run [0-9]+: not ok ' "$6" || true) | \`$(printf '%s' "$3" | sed 's/|/\\|/g')\` | $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u '+%Y-%m-%d %H:%M') |"
	fi
	python3 - "$SW_TOP/Documentation/figures.md" "${2:-}" "$row" <<'PY'
import re, sys
doc, step, new = sys.argv[1:]
text = open(doc).read()
rows = {}
# the repeat-STEP sections of before the table
for m in re.finditer(r"<!-- BEGIN repeat-(\S+) -->\n_commit (\S+), (.*?) UTC_\n(.*?)<!-- END", text, re.S):
    s, c, d, body = m.groups()
    v = re.search(r"(\d+) of (\d+) runs in a row passed \(seconds per run: ([^)]*)\)", body)
    f = re.search(r"The (\d+) lines matching `(.*)` \((\d+) `ok` results, (\d+) `not ok`\)", body)
    if v and f:
        rx = f[2].replace("|", "\\|")
        rows[s] = f"| {s} | {v[1]} of {v[2]} | {v[3]} | {f[1]} | {f[3]} / {f[4]} | `{rx}` | {c}, {d} |"
m = re.search(r"<!-- BEGIN repeat -->\n(.*?)<!-- END repeat -->", text, re.S)
for line in (m[1].splitlines() if m else []):
    c = line.split(" | ")
    if line.startswith("| ") and len(c) > 2 and c[0] != "| step" and not c[0].startswith("|--"):
        rows[c[0][2:]] = line
if step:
    rows[step] = new
print("## scripts/check.sh --repeat N STEP: runs in a row\n")
print("Each step repeated N times, one run at a time (scripts/check.sh --repeat N --figures REGEX STEP).")
print("lines: the runs' output lines matching REGEX, run by run in build/figures/repeat-STEP.log (a build artifact); ok / not ok: the KTAP results among them.\n")
print("| step | passed | seconds per run | lines | ok / not ok | REGEX | commit, date (UTC) |")
print("|---|---|---|---|---|---|---|")
for s in sorted(rows):
    print(rows[s])
PY
}

# repeat_drop_old: the repeat-STEP sections of before section repeat
# (its table holds their rows)
repeat_drop_old() {
	local old
	mapfile -t old < <(sed -n 's/^<!-- BEGIN \(repeat-[^ ]*\) -->$/\1/p' "$SW_TOP/Documentation/figures.md")
	[ ${#old[@]} -eq 0 ] || scripts/figures.sh --drop "${old[@]}"
}

# figtext_make_check SECTION EXTRA JOBS SECONDS PASSED FAILED SKIPPED TABLE:
# section make-check or make-check-cold, a full run's totals and its step
# table (EXTRA: the number of extra steps left out); make check's own
# start from the file $SMARTWAKE_MAKE_CHECK_START (Makefile, check-start).
# make-check-cold keeps the totals: its step table is TABLE, a file.
figtext_make_check() {
	local ms mk md
	[ "$1" = make-check ] && echo "## make check" ||
		echo "## make check from an empty cache"
	echo
	echo "scripts/check.sh, all steps but the $2 extra ones, $3 lane(s), $(nproc) host CPUs: $4 s in all;"
	echo "$5 passed, $6 failed, $7 skipped."
	# with the fetches and builds before check.sh, and what the cache held
	if [ -n "${SMARTWAKE_MAKE_CHECK_START:-}" ] &&
		read -r ms mk md 2>/dev/null <"$SW_TOP/$SMARTWAKE_MAKE_CHECK_START"; then
		echo
		echo "make check in all (fetches and builds included): $(($(date +%s) - ms)) s; at its start the cache held $mk fetched kernels and $md debug-kernel builds$([ "$mk$md" = 00 ] && echo ': an empty cache')."
		[ ! -f build/build-cache.log ] ||
			echo "Module builds of scripts/build-modules.sh: $(grep -c '^hit ' build/build-cache.log) from the build cache, $(grep -c '^miss ' build/build-cache.log) compiled."
	fi
	echo
	if [ "$1" = make-check ]; then
		echo "$8"
	else
		echo "Its step table is in $8 (a build artifact); the last warm run's is under \"make check\"."
	fi
}

# figtext_shadow DIR STEP...: section shadow, the SHADOW-FIGURES line of
# each shadow-* step's output DIR/STEP.out (policy=shadow at mainline
# knobs, per topology)
figtext_shadow() {
	local d=$1 s
	shift
	echo "## policy=shadow at mainline knobs (make check)"
	echo
	echo "All loads of guest/shadow.sh per step: wakeups the module and the kernel both decided."
	echo
	echo "| step | compared | agree | disagree | raced | raced_aba |"
	echo "|---|---|---|---|---|---|"
	for s; do
		case $s in shadow-*) ;; *) continue ;; esac
		sed -n 's/^SHADOW-FIGURES compared=\([0-9]*\) agree=\([0-9]*\) disagree=\([0-9]*\) raced=\([0-9]*\) raced_aba=\([0-9]*\).*/| '"$s"' | \1 | \2 | \3 | \4 | \5 |/p' \
			"$d/$s.out" | head -n 1
	done
}
