/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the knob table, one SW_KNOB(name, help, fields...) row per
 * knob. No include guard: knob_table.c includes it once per thing it makes
 * from the rows, each time with its own SW_KNOB(): the rows of the table
 * (struct sw_knob), the module parameters (/sys/module/smartwake/parameters/,
 * one struct kernel_param each, in the same order) and their modinfo
 * descriptions. So the list of knobs exists once.
 *
 * Documentation/usage.md's knob table is generated from here
 * (scripts/gen-docs.sh): a row's help string, and the comment above it:
 * "seed:" the patches it comes from (by year), "default:" where the
 * variable's initialiser does not say it, then what the help string has
 * no room for.
 */

/* A 0/1 knob; mainline's behaviour is the default of every one of them. */
#define SW_BOOL(_var)	.val = &(_var), .numeric = true, .min = 0, .max = 1

SW_KNOB("enabled",
	"0: the kernel decides, select_task_rq_fair unhooked; 1: as policy says",
	SW_BOOL(sw_enabled), .apply = sw_select_apply)
/*
 * seed: all
 * `stock`: the kernel decides, nothing is hooked; `smartwake`: wakeups
 * (WF_TTWU) take the module's path, fork/exec and anything not modelled stay
 * with the kernel (the hook's callback hands them on); `shadow`: the module
 * and the kernel both decide, the kernel's answer is used (see "Differential
 * mode").
 */
SW_KNOB("policy",
	"stock: kernel, unhooked; smartwake: module; shadow: both, kernel's answer; bpf: the attached BPF program (smartwake bpf load)",
	.val = &sw_policy,
	.names = sw_policy_names, .nr_names = SW_POLICY_NR,
	.apply = sw_select_apply)
/*
 * default: direct (ftrace where the kernel has no direct calls)
 * How `select_task_rq_fair` is hooked while `policy` needs it: a direct
 * ftrace call to the module's trampoline (cheapest: no `ftrace_regs`, no
 * indirect call, a hand-back never re-enters the hook), or the ftrace-ops
 * redirect livepatch uses; a change while hooked re-installs the hook;
 * `direct` is refused (`-EOPNOTSUPP`) where the kernel has no direct calls.
 * Both decide the same; see design.md.
 */
SW_KNOB("select_hook",
	"how select_task_rq_fair is hooked: direct call (x86-64, arm64) or ftrace ops",
	.val = &sw_select_hook,
	.names = sw_select_hook_names, .nr_names = SW_SELECT_HOOK_NR,
	.apply = sw_select_hook_apply)
/*
 * seed: 2013
 * Wakee-flip decay: never; reset to 0 after HZ (2013 v1); halve once after
 * HZ (mainline); Peter Zijlstra's 2013 loop (shift once for each HZ by which
 * the gap exceeds one HZ, wipe past 32 HZ) in constant time; differences
 * from the seed's text: wrap-safe comparisons, 32-bit counter (KUnit checks
 * it against an oracle written from the seed).
 */
SW_KNOB("decay", "wakee flip decay (halve = mainline record_wakee)",
	.val = &sw_decay, .names = sw_decay_names, .nr_names = SW_DECAY_NR)
/*
 * seed: 2013, 2015
 * Never wide; wide when wakee > factor and waker > factor x wakee (2013);
 * symmetric master/slave test (2015).
 */
SW_KNOB("wake_wide",
	"wake_wide test: off, 2013 waker-only, mainline symmetric",
	.val = &sw_wide_mode,
	.names = sw_wide_mode_names, .nr_names = SW_WIDE_NR)
/*
 * seed: 2013
 * The wake_wide factor: CPUs of the LLC (mainline), of the node (2013 v3),
 * online CPUs (2013 v1), or a number.
 */
SW_KNOB("factor",
	"wake_wide factor: CPUs of the LLC (mainline), node, online, or N",
	.val = &sw_factor_src,
	.names = sw_factor_src_names, .nr_names = SW_FACTOR_NR,
	.numeric = true, .min = 1, .max = 1024,
	.fixed_idx = SW_FACTOR_FIXED, .num = &sw_factor_fixed)
SW_KNOB("wa_idle", "wake_affine idle test (sched_feat WA_IDLE)",
	SW_BOOL(sw_wa_idle))
SW_KNOB("wa_weight", "wake_affine load test (sched_feat WA_WEIGHT)",
	SW_BOOL(sw_wa_weight))
SW_KNOB("wa_bias", "imbalance_pct bias towards prev (sched_feat WA_BIAS)",
	SW_BOOL(sw_wa_bias))
SW_KNOB("sync", "honour WF_SYNC (the waker is about to sleep)",
	SW_BOOL(sw_sync))
/*
 * seed: 2022
 * Skip CPUs known to be overloaded (more than one runnable non-idle task;
 * per-LLC mask kept from the `sched_update_nr_running_tp` tracepoint, whose
 * probe exists only while this is 1) in the idle-sibling scan.
 */
SW_KNOB("sis_filter",
	"2022 SIS filter: skip overloaded CPUs in the LLC scan (tracepoint probe)",
	SW_BOOL(sw_sis_filter), .apply = sw_overload_apply)
/*
 * seed: 2022
 * Where `sis_filter`'s overloaded masks are kept current: on every
 * `nr_running` change (a tracepoint probe: current, paid by every enqueue
 * and dequeue), or once per tick per CPU (an ftrace pre-handler on
 * `sched_tick`, as the 2022 patch did "to regulate manipulation on shared
 * data": cheap, up to a tick stale). `sis_overloaded_stale` shows the
 * staleness, the overhead experiment the cost.
 */
SW_KNOB("sis_mask_update",
	"sis_filter masks: updated on nr_running changes, or per tick (2022)",
	.val = &sw_sis_mask_update,
	.names = sw_mask_update_names, .nr_names = SW_MASK_NR,
	.apply = sw_mask_update_apply)
/*
 * seed: 2022
 * The 2022 series' patch 2/2 (see "Sched-idle balance"): two ftrace
 * pre-handlers (`sched_balance_domains`, `sched_balance_newidle`) and the
 * nr_running probe for the overloaded masks, only while 1.
 */
SW_KNOB("sib_count",
	"count sched-idle balance opportunities (2022 patch 2/2; two probes)",
	SW_BOOL(sw_sib_count), .apply = sw_sib_apply)
/*
 * seed: 2022
 * The 2022 series' patch 2/2 itself (see "The sched-idle pull"): a CPU
 * running only SCHED_IDLE work pulls one waiting non-idle task from an
 * overloaded CPU of its LLC at once, through the kernel's migration
 * stopper. Needs the companion `smartwake_pull.ko` (a livepatch-format
 * module: the kernel taints K); refused (`-ENODEV`) without it. While 1:
 * the nr_running probe and a reference on the companion.
 */
SW_KNOB("sib_pull",
	"pull a waiting task to a sched-idle CPU at once (2022 patch 2/2; needs smartwake_pull.ko)",
	SW_BOOL(sw_sib_pull), .apply = sw_pull_apply)
/*
 * seed: 2022
 * 0: only truly idle CPUs count as idle.
 */
SW_KNOB("sis_sched_idle",
	"CPUs running only SCHED_IDLE tasks count as idle (mainline)",
	SW_BOOL(sw_sis_sched_idle))
/*
 * seed: 2012
 * `lock`: never queue by IPI, wake under the remote rq lock (as
 * `NO_TTWU_QUEUE`).
 */
SW_KNOB("ttwu_queue",
	"remote wakeups: stock (kernel decides) or lock (never queue by IPI)",
	.val = &sw_ttwu_queue,
	.names = sw_ttwu_mode_names, .nr_names = SW_TTWU_NR,
	.apply = sw_ttwu_apply)
/*
 * 1: count remote wakeup outcomes with a pre-handler on `ttwu_queue_wakelist`
 * and a `csd_queue_cpu` probe (6.1: a kretprobe; every remote wakeup pays
 * for it); 0: none, the `ttwu_*` counters stand still.
 */
SW_KNOB("ttwu_count",
	"count remote wakeups by outcome (1 installs probes on ttwu_queue_wakelist)",
	SW_BOOL(sw_ttwu_count), .apply = sw_ttwu_count_apply)
/*
 * The watchdog: an answer of the module outside the task's allowed CPUs
 * (`invariant_violations`, a bug of the module; the kernel's answer replaces
 * it either way) also sets `policy` back to stock: at once for later
 * wakeups, then the hook is removed from a work item and one line with the
 * counters goes to the kernel log (`reverts` counts them); `never`: only
 * count.
 */
SW_KNOB("revert_on",
	"violation: an answer outside a task's CPUs sets policy back to stock",
	.val = &sw_revert_on,
	.names = sw_revert_on_names, .nr_names = SW_REVERT_NR)
/*
 * seed: 2018
 * NUMA migration retry backoff after wake_affine (see "NUMA retry after
 * wake_affine"); not `off` needs `task_numa_migrate.isra.0`.
 */
SW_KNOB("numa_retry",
	"2018 NUMA retry backoff after wake_affine: off, as-merged, corrected",
	.val = &sw_numa_retry,
	.names = sw_numa_retry_names, .nr_names = SW_NUMA_NR,
	.apply = sw_numa_apply)
/*
 * 1: measure the wakeup latency of fair-class tasks into `latency_hist`
 * (probes on the `sched_wakeup`, `sched_wakeup_new` and `sched_switch`
 * tracepoints, only while 1; see "Wakeup latency and placement locality");
 * whatever `policy` says.
 */
SW_KNOB("latency",
	"wakeup latency histogram (3 tracepoint probes), debugfs latency_hist",
	SW_BOOL(sw_latency), .apply = sw_latency_apply)
/*
 * default: 1
 * `latency=1` times only 1 wakeup in N per CPU (the waking CPU's count of
 * fair-class wakeups that wait): the wakeup probe returns at once for the
 * others, so the histogram costs about 1/N of its work on top of the
 * probes' floor. While N > 1 the histogram says so: `latency_hist` and
 * `latency_hist_scope` end with a line `# sample 1 in N`, and `stats`
 * prints `latency_sample N` after `latency_samples`. The percentiles are
 * those of the sample; the counts are 1/N of the wakeups.
 */
SW_KNOB("latency_sample",
	"latency histogram: time 1 wakeup in N per CPU (1: every wakeup)",
	.val = &sw_latency_sample, .numeric = true, .min = 1, .max = 1000000)
/*
 * 1: count the placement locality of every answer (`loc_*`, and under
 * `policy=shadow` `kernel_loc_*`; see "Wakeup latency and placement
 * locality"); 0: a static key jumps over the counting and the counters
 * stand still. The sums of the families hold over an interval in which
 * the knob stayed 1 (reset after setting it).
 */
SW_KNOB("locality",
	"count placement locality of answers (loc_*, kernel_loc_*; static key)",
	SW_BOOL(sw_locality_knob), .apply = sw_locality_apply)
/*
 * default: 1
 * The `smartwake_wakeup` trace event (one record per wakeup the module's
 * path decides, wake_wide, wake_affine and the idle scan in one): only 1
 * decided wakeup in N per CPU is traced, and every record says N in its
 * `sample` field (a reader multiplies its counts by it). 1: every
 * decided wakeup. Costs nothing while the event is disabled.
 */
SW_KNOB("trace_sample",
	"trace 1 decided wakeup in N per CPU (smartwake_wakeup event; 1: all)",
	.val = &sw_trace_sample, .numeric = true, .min = 1, .max = 1000000)
/*
 * default: all
 * A cgroup v2 directory, by its absolute path as the writer sees it (e.g.
 * `/sys/fs/cgroup/test`): `policy=smartwake` and `shadow` then take only the
 * wakeups of tasks in that cgroup and below; every other wakeup goes to the
 * kernel, counted as `out_of_scope` (see "Scope"). The knob reads back the
 * path as written.
 */
SW_KNOB("scope",
	"policy only for tasks in this cgroup v2 directory and below",
	.write_str = sw_scope_write, .show_str = sw_scope_show,
	.accepted = "all|/PATH")

#undef SW_BOOL
