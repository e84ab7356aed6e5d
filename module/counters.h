/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake's counters, one line each: the enum in stats.h and the names in
 * "stats" are both generated from this list (no include guard: it is
 * included with different SW_COUNTER() definitions). Names are plain
 * event counts, no units.
 */
/*
 * select_calls: while select_task_rq_fair is hooked (`policy` not stock,
 * `enabled=1`). passthrough: hooked calls handed to the kernel by design
 * (fork/exec balancing; a knob changed meanwhile). wakeups: the module's
 * path (policy=smartwake, or its evaluation under policy=shadow); with a
 * `scope`, only the scope's tasks. out_of_scope: wakeups (WF_TTWU, policy
 * smartwake or shadow) of tasks outside knob `scope`'s cgroup, handed to
 * the kernel untouched before anything else is looked at. `select_calls =
 * passthrough + out_of_scope + wakeups`.
 */
SW_COUNTER(select_calls)		/* select_task_rq_fair entries seen */
SW_COUNTER(passthrough)			/* handed to the original by design */
SW_COUNTER(wakeups)			/* WF_TTWU calls seen in smartwake or shadow mode */
SW_COUNTER(out_of_scope)		/* ...not counted there: the task is outside knob scope */

/*
 * reach.c, while the select hook is installed (`enabled=1`, `policy` not
 * stock): fair-class wakeups that must reach `select_task_rq_fair`, counted
 * by a probe on the `sched_waking` tracepoint (a static key: it counts
 * whether or not ftrace runs). From `try_to_wake_up()`: the task's class is
 * `fair_sched_class`, it is neither on a runqueue nor on a CPU (those are
 * finished by `ttwu_runnable()` or queued on their CPU's wake list without
 * placement), it may use more than one CPU and migration is not disabled
 * (else `select_task_rq()` does not ask the class). The probe marks the
 * task in a per-CPU slot: the placement follows on that CPU under the same
 * `p->pi_lock`, interrupts off. fair_wakeups_reached: the ones the select
 * hook (either `select_hook`) saw: the first thing it does is compare its
 * task with the slot. Scope does not matter (an out-of-scope wakeup is
 * reached too). Derived `reached_pct`: `fair_wakeups_reached /
 * fair_wakeups`, printed once a fair wakeup was counted. 100.00 measured
 * under `policy=smartwake` and `shadow`, both `select_hook` ways, pipe and
 * messaging loads (`guest/control.sh`: 3000 to 41000 wakeups per run); 0.00
 * when the hook is bypassed (the testing build's `test_no_permanent=1`,
 * then `ftrace_enabled=0`). Below 90 over 1000 or more fair wakeups,
 * `smartwake stats`/`status` say `its hook is bypassed
 * (kernel.ftrace_enabled=0?)` and `smartwake ab` refuses the side. A knob
 * flip in the middle of a count (the probe comes just before the hook and
 * goes just after it) costs a few wakeups.
 */
SW_COUNTER(fair_wakeups)		/* sched_waking: fair wakeups due in select_task_rq_fair */
SW_COUNTER(fair_wakeups_reached)	/* ...and the select hook saw them (reach.c) */

SW_COUNTER(wide_waker_master)		/* wake_wide: wide, waker has the flips */
SW_COUNTER(wide_wakee_master)		/* wake_wide: wide, wakee has the flips */
SW_COUNTER(affine_attempts)		/* wake_affine() evaluated */
SW_COUNTER(affine_pulls)		/* ...and it chose the waking CPU */

/*
 * select_idle_sibling() (path/sis.c). sis_scan_no_budget: domain scans that
 * SIS_UTIL's budget (`nr_idle_scan`) stopped before any CPU: the kernel's
 * "LLC overloaded, do not scan". sis_overloaded_skipped: "overloaded" is
 * the seed's definition: more than one pullable non-idle fair task
 * (`cfs.h_nr_runnable - cfs.idle_h_nr_running > 1`; other classes and
 * delayed-dequeue entities do not count). sis_overloaded_stale: the masks'
 * staleness, checked against the runqueues. Derived, Mel Gorman's SIS
 * schedstats as in the 2022 thread: `sis_search_efficiency_pct`,
 * `sis_domain_search_efficiency_pct`, `sis_fast_success_pct`,
 * `sis_success_pct` (search efficiency, domain search efficiency, fast
 * success rate, success rate). Read them for `NO_SIS_UTIL` comparisons:
 * they predate SIS_UTIL, and a domain scan that examines no CPU (stopped by
 * the budget, or every candidate filtered out) still counts as a search, so
 * the efficiencies exceed 100 % when many scans examine nothing. Derived
 * `sis_idle_per_examined_pct`: idle CPUs found per CPU a domain scan
 * examined (`sis_idle_found / sis_cpus_scanned`); meaningful under SIS_UTIL
 * (the default) and without. Derived `sis_budget_stopped_pct`: share of
 * domain scans SIS_UTIL's budget stopped before any CPU
 * (`sis_scan_no_budget / sis_domain_scans`); 0 under `NO_SIS_UTIL`.
 */
SW_COUNTER(sis_calls)			/* select_idle_sibling() runs */
SW_COUNTER(sis_fast_target)		/* answered by an idle target */
SW_COUNTER(sis_fast_prev)		/* answered by prev (idle or kthread) */
SW_COUNTER(sis_fast_recent)		/* answered by recent_used_cpu */
SW_COUNTER(sis_domain_scans)		/* fell through to the LLC scan */
SW_COUNTER(sis_cpus_scanned)		/* CPUs examined by those scans */
SW_COUNTER(sis_scan_no_budget)		/* scans SIS_UTIL stopped before any CPU */
SW_COUNTER(sis_idle_found)		/* scans that found a CPU */
SW_COUNTER(sis_scan_failed)		/* calls that found no idle CPU */
SW_COUNTER(sis_overloaded_skipped)	/* CPUs the 2022 filter removed */
SW_COUNTER(sis_overloaded_stale)	/* ...of which not overloaded at scan time */

SW_COUNTER(numa_backoff_set)		/* 2018 backoff set after an affine cross-node pull */

/*
 * Not modelled: see the deliberate differences in design.md.
 */
SW_COUNTER(fallback_original)		/* a wakeup the module left to the kernel */
SW_COUNTER(fallback_sis_prop)		/* ...of them because SIS_PROP is on (not modelled) */

/*
 * Time in the module's replacement, measured with `local_clock()` on 1 call
 * in 64 per CPU; derived `self_ns_per_call` (the mean), `self_ns_p50` and
 * `self_ns_p99` (indicative under emulation, where the clock is not
 * cycles).
 */
SW_COUNTER(self_ns_sampled)		/* ns in the replacement, 1 call in 64 (local_clock) */
SW_COUNTER(self_calls_sampled)		/* the calls those ns were measured on */

/*
 * policy=shadow, on the same sampled calls (1 in 64 per CPU): the module's
 * evaluation (its bookkeeping saved and put back, its answer checked) and
 * the kernel's `select_task_rq_fair()` on the same wakeup (entered through
 * the hook, which lets the module's own call through), each timed with
 * `local_clock()`. Derived `module_ns_per_call`, `kernel_ns_per_call`
 * (means) and `module_kernel_mean_ratio`; `module_ns_p50`, `kernel_ns_p50`
 * and `module_kernel_ratio`, the ratio of the medians (three decimals),
 * from the per-call histograms (debugfs cost_hist), which a sample
 * stretched by a switched-out vCPU cannot move; `*_ns_p99`: their tails.
 * The path's cost against the kernel's own; under `-icount` a ns is about
 * one instruction.
 */
SW_COUNTER(shadow_module_ns_sampled)	/* ns in the module's evaluation, sampled calls */
SW_COUNTER(shadow_kernel_ns_sampled)	/* ns in the kernel's function, the same calls */
SW_COUNTER(shadow_calls_sampled)	/* the calls both were measured on */

/*
 * invariant_violations: `p->cpus_ptr` cannot change under the `pi_lock` the
 * path holds; the kernel's answer is used instead. Stays 0 in every test.
 * inactive_answers: the CPU was deactivated by CPU hotplug while the module
 * chose it (every CPU the path names is checked active when it is looked
 * at, but `sched_cpu_deactivate()` can clear the bit at any moment): the
 * kernel's answer is used instead. Only during CPU offlining; the kernel's
 * own answers have the same race, which `select_task_rq()` repairs.
 * reverts: by the watchdog (`revert_on=violation`) after an invariant
 * violation. discarded_decisions: decision counts (`wide_*`, `affine_*`,
 * `sis_*`, `numa_backoff_set`) of answers the module refused (an
 * `invariant_violations` or `inactive_answers` case) or abandoned for the
 * kernel's slow path: taken back from those counters, so they describe
 * answers that were used, and summed here. The module's trace events for
 * such a wakeup were already emitted; the state it changed (wakee flips,
 * `recent_used_cpu`, the NUMA backoff, the LLC's `has_idle_cores` hint) is
 * put back before the kernel decides.
 */
SW_COUNTER(invariant_violations)	/* module answer outside p->cpus_ptr: a bug */
SW_COUNTER(inactive_answers)		/* answer's CPU went inactive meanwhile */
SW_COUNTER(reverts)			/* revert_on: policy set back to stock by a violation */
SW_COUNTER(discarded_decisions)		/* decision counts of refused answers, taken back */

/*
 * Knob ttwu_count (ttwu.c). Queued: on the target's wake list, and an IPI
 * sent. Not queued: the waker activates the task under the remote rq lock
 * (or locally).
 */
SW_COUNTER(ttwu_wakelist_calls)		/* ttwu_queue_wakelist() calls */
SW_COUNTER(ttwu_queued_same_llc)	/* ...queued by IPI, waker and target share the LLC */
SW_COUNTER(ttwu_queued_cross_llc)	/* ...queued by IPI, different LLCs */
SW_COUNTER(ttwu_not_queued)		/* ...not queued: remote-lock (or local) path */
SW_COUNTER(ttwu_forced_lock)		/* ttwu_queue=lock answered "do not queue" */

/*
 * Knob numa_retry (numa.c). numa_retry_due: the kernel's own gate opened.
 * numa_backoff_evicted: see design.md.
 */
SW_COUNTER(numa_migrate_seen)		/* task_numa_migrate() calls (numa_retry != off) */
SW_COUNTER(numa_retry_deferred)		/* ...skipped: migration retry deferred by numa_retry */
SW_COUNTER(numa_retry_allowed)		/* ...let through */
SW_COUNTER(numa_retry_due)		/* ...of the calls: no live 2018 backoff (a due retry) */
SW_COUNTER(numa_retry_due_deferred)	/* ...of which skipped (as-merged: all, corrected: none) */
SW_COUNTER(numa_backoff_evicted)	/* backoffs lost to a full table bucket */

/*
 * Knob sib_count (sib.c). sib_opportunities: a task the 2022 sched-idle
 * balance would have pulled at once; 0 without SCHED_IDLE tasks.
 * sib_newidle_overloaded: where the patch made the newly-idle balance try
 * harder; the kernel pulls there already.
 */
SW_COUNTER(sib_checks)			/* sib_count: periodic balances of a sched-idle CPU */
SW_COUNTER(sib_opportunities)		/* ...with an overloaded CPU in its LLC */
SW_COUNTER(sib_newidle_checks)		/* sib_count: newly-idle balances */
SW_COUNTER(sib_newidle_overloaded)	/* ...with an overloaded CPU in its LLC */
/*
 * Knob sib_pull (pull.c), the 2022 patch 2/2's pull. A kick is sent when a
 * CPU becomes sched-idle with an overloaded CPU in its LLC, or a CPU
 * becomes overloaded with a sched-idle CPU in its LLC; the sched-idle CPU
 * then looks for a task (an attempt), as it does at each of its ticks
 * while its LLC has an overloaded CPU. Each task passed over counts under
 * its veto (sw_pull_veto(), in this order). A task found is handed to the
 * kernel's migration stopper on its CPU: sib_pulls when it is on the
 * sched-idle CPU afterwards, sib_pull_lost when it ran, slept or moved
 * first. `sib_pull_attempts = sib_pull_not_sched_idle +
 * sib_pull_no_overloaded + sib_pull_none + sib_pull_queued` and
 * `sib_pull_queued = sib_pulls + sib_pull_lost + sib_pull_queue_failed`
 * once every stopper has run.
 */
SW_COUNTER(sib_pull_kicks)		/* sib_pull: kicks sent to a sched-idle CPU */
SW_COUNTER(sib_pull_ticks)		/* sib_pull: ticks of a sched-idle CPU, LLC overloaded */
SW_COUNTER(sib_pull_attempts)		/* ...kicks and such ticks run on it */
SW_COUNTER(sib_pull_not_sched_idle)	/* ...it was no longer sched-idle */
SW_COUNTER(sib_pull_no_overloaded)	/* ...no overloaded CPU in its LLC any more */
SW_COUNTER(sib_pull_none)		/* ...every task looked at was vetoed */
SW_COUNTER(sib_pull_queued)		/* ...a task handed to the migration stopper */
SW_COUNTER(sib_pulls)			/* ...which moved it to the sched-idle CPU */
SW_COUNTER(sib_pull_lost)		/* ...which found it run, asleep or moved */
SW_COUNTER(sib_pull_queue_failed)	/* ...stopper refused the work (CPU going down) */
SW_COUNTER(sib_pull_veto_idle)		/* tasks passed over: SCHED_IDLE or idle group */
SW_COUNTER(sib_pull_veto_delayed)	/* ...delayed dequeue */
SW_COUNTER(sib_pull_veto_migration_disabled) /* ...migrate_disable() */
SW_COUNTER(sib_pull_veto_affinity)	/* ...not allowed on the sched-idle CPU */
SW_COUNTER(sib_pull_veto_running)	/* ...running */
/*
 * policy=shadow (path/shadow.c): the module's answer against the kernel's. A
 * disagreement is counted once, as raced, raced_aba or disagree; a disagree
 * is also counted under the stage that decided it (see sw_shadow_stage()).
 * shadow_raced is the shadow window race; shadow_raced_aba its ABA form: a
 * runqueue of the two LLCs changed `nr_running` during the window.
 * shadow_diff_wide: recomputed from the flips the kernel's record_wakee
 * left; shadow_diff_affine: the kernel answered outside the LLC of the
 * module's wake_affine target; shadow_diff_idle: otherwise (an affine
 * difference inside one LLC counts here). Derived `shadow_agree_pct`: agree
 * / compared; printed only once something was compared.
 */
SW_COUNTER(shadow_compared)		/* wakeups answered by both */
SW_COUNTER(shadow_agree)		/* ...the same CPU */
SW_COUNTER(shadow_disagree)		/* ...different CPUs, module stable on re-evaluation */
SW_COUNTER(shadow_raced)		/* ...different, and the module's re-evaluation changed */
SW_COUNTER(shadow_raced_aba)		/* ...different, re-evaluation stable, a runqueue moved */
SW_COUNTER(shadow_diff_wide)		/* disagree: wake_wide differed from the kernel's */
SW_COUNTER(shadow_diff_affine)		/* disagree: wake_affine picked another LLC */
SW_COUNTER(shadow_diff_idle)		/* disagree: select_idle_sibling differed */
/*
 * Wakeup latency (latency.c, knob latency): the histogram itself is debugfs
 * latency_hist, its percentiles the derived latency_p*_ns lines.
 * latency_slot_taken: a few per thousand samples with thousands of runnable
 * tasks. Derived `latency_samples`, `latency_p50_ns`, `latency_p90_ns`,
 * `latency_p99_ns`: latency_hist's number of samples and three percentiles
 * of the wakeup latency in ns (interpolated inside the log2 bucket),
 * printed only once there is a sample.
 */
SW_COUNTER(latency_slot_taken)		/* a pending wakeup lost to another task's in its slot */
/*
 * Placement locality (locality.c), in the order of enum sw_loc, counted
 * only while knob `locality` is 1 (a static key; at 0 they stand still):
 * every answer of the module's path, relative to the wakee's prev CPU and
 * to the waking CPU; then, under policy=shadow, the kernel's answers. Each
 * family of five adds up to the answers counted (see locality.c). The
 * module's answers are used under `policy=smartwake` and compared under
 * `policy=shadow`; the first class that applies counts. Over an interval
 * in which `locality` stayed 1, the five loc_prev_* add up to `wakeups -
 * fallback_original - invariant_violations - inactive_answers` under
 * `policy=smartwake`, to `shadow_compared` under `policy=shadow`; so do
 * the loc_waker_*; each kernel_loc_* family adds up to `shadow_compared`.
 */
SW_COUNTER(loc_prev_same_cpu)		/* module answer: prev itself */
SW_COUNTER(loc_prev_smt)		/* ...an SMT sibling of prev */
SW_COUNTER(loc_prev_llc)		/* ...another core of prev's LLC */
SW_COUNTER(loc_prev_node)		/* ...another LLC of prev's node */
SW_COUNTER(loc_prev_remote)		/* ...another node */
SW_COUNTER(loc_waker_same_cpu)		/* module answer: the waking CPU itself */
SW_COUNTER(loc_waker_smt)		/* ...an SMT sibling of the waking CPU */
SW_COUNTER(loc_waker_llc)		/* ...another core of its LLC */
SW_COUNTER(loc_waker_node)		/* ...another LLC of its node */
SW_COUNTER(loc_waker_remote)		/* ...another node */
SW_COUNTER(kernel_loc_prev_same_cpu)	/* policy=shadow, kernel's answer: prev itself */
SW_COUNTER(kernel_loc_prev_smt)		/* ...an SMT sibling of prev */
SW_COUNTER(kernel_loc_prev_llc)		/* ...another core of prev's LLC */
SW_COUNTER(kernel_loc_prev_node)	/* ...another LLC of prev's node */
SW_COUNTER(kernel_loc_prev_remote)	/* ...another node */
SW_COUNTER(kernel_loc_waker_same_cpu)	/* policy=shadow, kernel's answer: the waking CPU */
SW_COUNTER(kernel_loc_waker_smt)	/* ...an SMT sibling of the waking CPU */
SW_COUNTER(kernel_loc_waker_llc)	/* ...another core of its LLC */
SW_COUNTER(kernel_loc_waker_node)	/* ...another LLC of its node */
SW_COUNTER(kernel_loc_waker_remote)	/* ...another node */

/*
 * policy=bpf (bpf.c): the attached program's select_cpu. bpf_calls =
 * bpf_answers + bpf_declined (declined: the module's path decided).
 * bpf_refused: answers outside p->cpus_ptr or not active, discarded (the
 * kernel decides; revert_on=violation reverts). bpf_none: wakeups under
 * policy=bpf found no program (detached meanwhile), handed to the kernel.
 * Derived `bpf_ns_per_call`: the program's time, 1 call in 64 (local_clock,
 * indicative under emulation). bpf_wide_*: the wake_wide callback, in the
 * module's path (policy=bpf after select_cpu declined or is absent; the
 * module's side of policy=shadow with a program attached): bpf_wide_differ
 * counts the answers whose wide/affine verdict differs from the one knob
 * wake_wide computed on the same inputs, so a program and a knob that
 * agree on every wakeup show bpf_wide_calls > 0 and bpf_wide_differ 0.
 * bpf_default_calls: wakeups whose program asked for the module's own
 * answer (kfunc smartwake_default_cpu(), once per wakeup; the path's
 * decision counters count that evaluation). bpf_affine_*, bpf_idle_*:
 * the wake_affine and select_idle callbacks, in the module's path. A
 * wake_affine target or a select_idle answer outside p->cpus_ptr or not
 * active is refused (bpf_refused, revert_on) and the knobs decide that
 * step; affine_attempts and sis_calls count only the module's own
 * evaluations. Refusals per callback: `bpf_refused = bpf_select_refused +
 * bpf_affine_refused + bpf_idle_refused` (a wake_wide verdict cannot be
 * invalid). Each callback is timed apart, 1 call in 64 per CPU: derived
 * `bpf_wide_ns_per_call`, `bpf_affine_ns_per_call`, `bpf_idle_ns_per_call`
 * beside select_cpu's `bpf_ns_per_call` (means), and each one's `_p50`
 * and `_p99` in place of `_per_call` (`bpf_ns_p50`, ...: cost_hist).
 */
SW_COUNTER(bpf_calls)			/* select_cpu programs run */
SW_COUNTER(bpf_answers)			/* ...that answered a CPU */
SW_COUNTER(bpf_declined)		/* ...that left it to the module's path */
SW_COUNTER(bpf_refused)			/* program answers discarded (invalid CPU) */
SW_COUNTER(bpf_none)			/* policy=bpf with no program: the kernel decided */
SW_COUNTER(bpf_ns_sampled)		/* ns in the program, 1 call in 64 */
SW_COUNTER(bpf_calls_sampled)		/* the calls those ns were measured on */
SW_COUNTER(bpf_wide_calls)		/* wake_wide programs run (module's path) */
SW_COUNTER(bpf_wide_yes)		/* ...that said wide */
SW_COUNTER(bpf_wide_declined)		/* ...that left it to knob wake_wide */
SW_COUNTER(bpf_wide_differ)		/* ...whose wide/affine differs from the knob's */
SW_COUNTER(bpf_default_calls)		/* the module's answer, computed for a program */
SW_COUNTER(bpf_affine_calls)		/* wake_affine programs run (module's path) */
SW_COUNTER(bpf_affine_pulls)		/* ...that chose the waking CPU */
SW_COUNTER(bpf_affine_declined)		/* ...that left it to the knobs */
SW_COUNTER(bpf_idle_calls)		/* select_idle programs run (module's path) */
SW_COUNTER(bpf_idle_declined)		/* ...that left it to the module's scan */
SW_COUNTER(bpf_select_refused)		/* select_cpu answers refused (in bpf_refused) */
SW_COUNTER(bpf_affine_refused)		/* wake_affine targets refused (in bpf_refused) */
SW_COUNTER(bpf_idle_refused)		/* select_idle answers refused (in bpf_refused) */
SW_COUNTER(bpf_wide_ns_sampled)		/* ns in wake_wide programs, 1 call in 64 */
SW_COUNTER(bpf_wide_calls_sampled)	/* the calls those ns were measured on */
SW_COUNTER(bpf_affine_ns_sampled)	/* ns in wake_affine programs, 1 call in 64 */
SW_COUNTER(bpf_affine_calls_sampled)	/* the calls those ns were measured on */
SW_COUNTER(bpf_idle_ns_sampled)		/* ns in select_idle programs, 1 call in 64 */
SW_COUNTER(bpf_idle_calls_sampled)	/* the calls those ns were measured on */
