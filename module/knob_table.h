/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the knob table, one SW_KNOB(name, help, fields...) row per
 * knob. No include guard: knobs.c includes it once per thing it makes
 * from the rows, each time with its own SW_KNOB(): the rows of the table
 * (struct sw_knob), the module parameters (/sys/module/smartwake/parameters/,
 * one struct kernel_param each, in the same order) and their modinfo
 * descriptions. So the list of knobs exists once.
 */

/* A 0/1 knob; mainline's behaviour is the default of every one of them. */
#define SW_BOOL(_var)	.val = &(_var), .numeric = true, .min = 0, .max = 1

SW_KNOB("enabled",
	"0: the kernel decides, select_task_rq_fair unhooked; 1: as policy says",
	SW_BOOL(sw_enabled), .apply = sw_select_apply)
SW_KNOB("policy",
	"stock: kernel, unhooked; smartwake: module; shadow: both, kernel's answer",
	.val = &sw_policy,
	.names = sw_policy_names, .nr_names = SW_POLICY_NR,
	.apply = sw_select_apply)
SW_KNOB("select_hook",
	"how select_task_rq_fair is hooked: direct call (x86-64) or ftrace ops",
	.val = &sw_select_hook,
	.names = sw_select_hook_names, .nr_names = SW_SELECT_HOOK_NR,
	.apply = sw_select_hook_apply)
SW_KNOB("decay", "wakee flip decay (halve = mainline record_wakee)",
	.val = &sw_decay, .names = sw_decay_names, .nr_names = SW_DECAY_NR)
SW_KNOB("wake_wide",
	"wake_wide test: off, 2013 waker-only, mainline symmetric",
	.val = &sw_wide_mode,
	.names = sw_wide_mode_names, .nr_names = SW_WIDE_NR)
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
SW_KNOB("sis_filter",
	"2022 SIS filter: skip overloaded CPUs in the LLC scan (tracepoint probe)",
	SW_BOOL(sw_sis_filter), .apply = sw_overload_apply)
SW_KNOB("sis_mask_update",
	"sis_filter masks: updated on nr_running changes, or per tick (2022)",
	.val = &sw_sis_mask_update,
	.names = sw_mask_update_names, .nr_names = SW_MASK_NR,
	.apply = sw_mask_update_apply)
SW_KNOB("sib_count",
	"count sched-idle balance opportunities (2022 patch 2/2; two probes)",
	SW_BOOL(sw_sib_count), .apply = sw_sib_apply)
SW_KNOB("sis_sched_idle",
	"CPUs running only SCHED_IDLE tasks count as idle (mainline)",
	SW_BOOL(sw_sis_sched_idle))
SW_KNOB("ttwu_queue",
	"remote wakeups: stock (kernel decides) or lock (never queue by IPI)",
	.val = &sw_ttwu_queue,
	.names = sw_ttwu_mode_names, .nr_names = SW_TTWU_NR,
	.apply = sw_ttwu_apply)
SW_KNOB("ttwu_count",
	"count remote wakeups by outcome (1 installs a kretprobe)",
	SW_BOOL(sw_ttwu_count), .apply = sw_ttwu_count_apply)
SW_KNOB("revert_on",
	"violation: an answer outside a task's CPUs sets policy back to stock",
	.val = &sw_revert_on,
	.names = sw_revert_on_names, .nr_names = SW_REVERT_NR)
SW_KNOB("numa_retry",
	"2018 NUMA retry backoff after wake_affine: off, as-merged, corrected",
	.val = &sw_numa_retry,
	.names = sw_numa_retry_names, .nr_names = SW_NUMA_NR,
	.apply = sw_numa_apply)
SW_KNOB("latency",
	"wakeup latency histogram (3 tracepoint probes), debugfs latency_hist",
	SW_BOOL(sw_latency), .apply = sw_latency_apply)
SW_KNOB("scope",
	"policy only for tasks in this cgroup v2 directory and below",
	.write_str = sw_scope_write, .show_str = sw_scope_show,
	.accepted = "all|/PATH")

#undef SW_BOOL
