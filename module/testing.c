// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module parameters, built only with SW_TESTING=1 (make
 * testing). The guest tests load that build to inject faults; the module
 * built by a plain make has none of this (see testing.h).
 */
#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include "testing.h"

/* A read-only load-time parameter test_NAME for the variable VAR. */
#define SW_TEST_PARAM(name, var, type, desc)				\
	module_param_named(test_##name, var, type, 0400);		\
	MODULE_PARM_DESC(test_##name, "test only: " desc)

char *sw_test_missing_symbol;
SW_TEST_PARAM(missing_symbol, sw_test_missing_symbol, charp,
	      "treat this symbol as unresolvable");

char *sw_test_release;
SW_TEST_PARAM(release, sw_test_release, charp,
	      "compare the build's release with this one, not the running kernel's");

unsigned int sw_test_layout_skew;
SW_TEST_PARAM(layout_skew, sw_test_layout_skew, uint,
	      "N > 0 expects field N of the layout table 8 bytes further");

unsigned int sw_test_bad_answer;
SW_TEST_PARAM(bad_answer, sw_test_bad_answer, uint,
	      "1 answers an inactive CPU of the task's mask (if one is offline), 2 a CPU outside the mask (if there is one)");

unsigned int sw_test_old_lookup;
SW_TEST_PARAM(old_lookup, sw_test_old_lookup, uint,
	      "offer kallsyms_lookup_name to the call guard, which must refuse it on a stock kernel: 1 by a kprobe's address, as before IBT safety (not its start), 2 by its start (sealed: not ENDBR64)");

unsigned int sw_test_init_delay_ms;
SW_TEST_PARAM(init_delay_ms, sw_test_init_delay_ms, uint,
	      "sleep this long at load, debugfs present, before installing hooks");

unsigned int sw_test_unregister_fail;
SW_TEST_PARAM(unregister_fail, sw_test_unregister_fail, uint,
	      "1 reports the next removal of an on-demand hook as failed, once");

bool sw_test_hook_at_load;
SW_TEST_PARAM(hook_at_load, sw_test_hook_at_load, bool,
	      "hook select_task_rq_fair at load (a conflict then fails the load)");

bool sw_test_no_redirect;
SW_TEST_PARAM(no_redirect, sw_test_no_redirect, bool,
	      "the select hook decides as usual but never redirects (measures the trampoline and callback alone)");

unsigned int sw_test_shadow_leak;
SW_TEST_PARAM(shadow_leak, sw_test_shadow_leak, uint,
	      "1 lets policy=shadow's evaluation leave its writes for the kernel");

unsigned int sw_test_pull_fault;
SW_TEST_PARAM(pull_fault, sw_test_pull_fault, uint,
	      "the companion's registration (sib_pull) fails: 1 its struct migration_arg layout (dest_cpu expected 8 bytes further), 2 its rq_lock entry (read one byte on: not ENDBR64)");

bool sw_test_latency_empty;
SW_TEST_PARAM(latency_empty, sw_test_latency_empty, bool,
	      "1: latency=1's probes return at once (the floor of attaching them: scripts/overhead.sh --testing)");

unsigned int sw_test_latency_fail;
SW_TEST_PARAM(latency_fail, sw_test_latency_fail, uint,
	      "N (1..3): latency=1 fails to register its Nth tracepoint probe (-ENOMEM)");

bool sw_test_no_permanent;
SW_TEST_PARAM(no_permanent, sw_test_no_permanent, bool,
	      "register the redirect hooks without FTRACE_OPS_FL_PERMANENT, so that sysctl kernel.ftrace_enabled=0 bypasses them");

static atomic_t sw_unregister_failed = ATOMIC_INIT(0);

bool sw_testing_unregister_fails(void)
{
	return sw_test_unregister_fail &&
	       atomic_cmpxchg(&sw_unregister_failed, 0, 1) == 0;
}

/*
 * The hint probe: shadow evaluations whose idle-core search failed on a
 * has_idle_cores hint they read as set, and those after which the hint
 * reads clear. Only another CPU may clear it meanwhile (a rare race), so
 * a high share of the second means the evaluation cleared it. Read-only
 * counts (atomic_t's int), compared before and after a load.
 */
static DEFINE_PER_CPU(bool, sw_test_core_missed);
static atomic_t sw_test_hint_missed = ATOMIC_INIT(0);
static atomic_t sw_test_hint_lost = ATOMIC_INIT(0);
module_param_named(test_hint_missed, sw_test_hint_missed.counter, int, 0444);
MODULE_PARM_DESC(test_hint_missed,
		 "test only (read): shadow evaluations whose idle-core search failed on a set has_idle_cores hint");
module_param_named(test_hint_lost, sw_test_hint_lost.counter, int, 0444);
MODULE_PARM_DESC(test_hint_lost,
		 "test only (read): ...after which the hint read clear");

void sw_testing_core_miss(void)
{
	this_cpu_write(sw_test_core_missed, true);
}

void sw_testing_hint_begin(void)
{
	this_cpu_write(sw_test_core_missed, false);
}

bool sw_testing_core_missed(void)
{
	return this_cpu_read(sw_test_core_missed);
}

void sw_testing_hint_count(bool lost)
{
	atomic_inc(&sw_test_hint_missed);
	if (lost)
		atomic_inc(&sw_test_hint_lost);
}
