/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake's counters, one line each: the enum in stats.h and the names in
 * "stats" are both generated from this list (no include guard: it is
 * included with different SW_COUNTER() definitions). Names are plain
 * event counts, no units.
 */
SW_COUNTER(select_calls)		/* select_task_rq_fair entries seen */
SW_COUNTER(passthrough)			/* handed to the original by design */
SW_COUNTER(wakeups)			/* WF_TTWU calls seen in smartwake or shadow mode */
SW_COUNTER(out_of_scope)		/* ...not counted there: the task is outside knob scope */
SW_COUNTER(fair_wakeups)		/* sched_waking: fair wakeups due in select_task_rq_fair */
SW_COUNTER(fair_wakeups_reached)	/* ...and the select hook saw them (reach.c) */
SW_COUNTER(wide_waker_master)		/* wake_wide: wide, waker has the flips */
SW_COUNTER(wide_wakee_master)		/* wake_wide: wide, wakee has the flips */
SW_COUNTER(affine_attempts)		/* wake_affine() evaluated */
SW_COUNTER(affine_pulls)		/* ...and it chose the waking CPU */
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
SW_COUNTER(fallback_original)		/* a wakeup the module left to the kernel */
SW_COUNTER(fallback_sis_prop)		/* ...of them because SIS_PROP is on (not modelled) */
SW_COUNTER(self_ns_sampled)		/* ns in the replacement, 1 call in 64 (local_clock) */
SW_COUNTER(self_calls_sampled)		/* the calls those ns were measured on */
SW_COUNTER(invariant_violations)	/* module answer outside p->cpus_ptr: a bug */
SW_COUNTER(inactive_answers)		/* answer's CPU went inactive meanwhile */
SW_COUNTER(reverts)			/* revert_on: policy set back to stock by a violation */
SW_COUNTER(discarded_decisions)		/* decision counts of refused answers, taken back */
SW_COUNTER(ttwu_wakelist_calls)		/* ttwu_queue_wakelist() calls (kretprobe) */
SW_COUNTER(ttwu_queued_same_llc)	/* ...queued by IPI, waker and target share the LLC */
SW_COUNTER(ttwu_queued_cross_llc)	/* ...queued by IPI, different LLCs */
SW_COUNTER(ttwu_not_queued)		/* ...not queued: remote-lock (or local) path */
SW_COUNTER(ttwu_forced_lock)		/* ttwu_queue=lock answered "do not queue" */
SW_COUNTER(numa_migrate_seen)		/* task_numa_migrate() calls (numa_retry != off) */
SW_COUNTER(numa_retry_deferred)		/* ...skipped: migration retry deferred by numa_retry */
SW_COUNTER(numa_retry_allowed)		/* ...let through */
SW_COUNTER(numa_retry_due)		/* ...of the calls: no live 2018 backoff (a due retry) */
SW_COUNTER(numa_retry_due_deferred)	/* ...of which skipped (as-merged: all, corrected: none) */
SW_COUNTER(numa_backoff_evicted)	/* backoffs lost to a full table bucket */
SW_COUNTER(sib_checks)			/* sib_count: periodic balances of a sched-idle CPU */
SW_COUNTER(sib_opportunities)		/* ...with an overloaded CPU in its LLC */
SW_COUNTER(sib_newidle_checks)		/* sib_count: newly-idle balances */
SW_COUNTER(sib_newidle_overloaded)	/* ...with an overloaded CPU in its LLC */
/*
 * policy=shadow (wake.c): the module's answer against the kernel's. A
 * disagreement is counted once, as raced, raced_aba or disagree; a
 * disagree is also counted under the stage that decided it (see
 * sw_shadow_stage()).
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
 * Wakeup latency (latency.c, knob latency): the histogram itself is
 * debugfs latency_hist, its percentiles the derived latency_p*_ns lines.
 */
SW_COUNTER(latency_slot_taken)		/* a pending wakeup lost to another task's in its slot */
/*
 * Placement locality (locality.c), in the order of enum sw_loc: every
 * answer of the module's path, relative to the wakee's prev CPU and to the
 * waking CPU; then, under policy=shadow, the kernel's answers. Each
 * family of five adds up to the answers counted (see locality.c).
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
