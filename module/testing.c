// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module parameters, built only with SW_TESTING=1 (make
 * testing). The guest tests load that build to inject faults; the module
 * built by a plain make has none of this (see testing.h).
 */
#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include "testing.h"

char *sw_test_missing_symbol;
module_param_named(test_missing_symbol, sw_test_missing_symbol, charp, 0400);
MODULE_PARM_DESC(test_missing_symbol,
		 "test only: treat this symbol as unresolvable");

char *sw_test_release;
module_param_named(test_release, sw_test_release, charp, 0400);
MODULE_PARM_DESC(test_release,
		 "test only: compare the build's release with this one, not the running kernel's");

unsigned int sw_test_layout_skew;
module_param_named(test_layout_skew, sw_test_layout_skew, uint, 0400);
MODULE_PARM_DESC(test_layout_skew,
		 "test only: N > 0 expects field N of the layout table 8 bytes further");

unsigned int sw_test_bad_answer;
module_param_named(test_bad_answer, sw_test_bad_answer, uint, 0400);
MODULE_PARM_DESC(test_bad_answer,
		 "test only: 1 answers an inactive CPU of the task's mask (if one is offline), 2 a CPU outside the mask (if there is one)");

bool sw_test_old_lookup;
module_param_named(test_old_lookup, sw_test_old_lookup, bool, 0400);
MODULE_PARM_DESC(test_old_lookup,
		 "test only: also resolve kallsyms_lookup_name by a kprobe's address, as before IBT safety, and offer it to the call guard (which must refuse it)");

unsigned int sw_test_init_delay_ms;
module_param_named(test_init_delay_ms, sw_test_init_delay_ms, uint, 0400);
MODULE_PARM_DESC(test_init_delay_ms,
		 "test only: sleep this long at load, debugfs present, before installing hooks");

unsigned int sw_test_unregister_fail;
module_param_named(test_unregister_fail, sw_test_unregister_fail, uint, 0400);
MODULE_PARM_DESC(test_unregister_fail,
		 "test only: 1 reports the next removal of an on-demand hook as failed, once");

bool sw_test_hook_at_load;
module_param_named(test_hook_at_load, sw_test_hook_at_load, bool, 0400);
MODULE_PARM_DESC(test_hook_at_load,
		 "test only: hook select_task_rq_fair at load (a conflict then fails the load)");

bool sw_test_no_redirect;
module_param_named(test_no_redirect, sw_test_no_redirect, bool, 0400);
MODULE_PARM_DESC(test_no_redirect,
		 "test only: the select hook decides as usual but never redirects (measures the trampoline and callback alone)");

unsigned int sw_test_shadow_leak;
module_param_named(test_shadow_leak, sw_test_shadow_leak, uint, 0400);
MODULE_PARM_DESC(test_shadow_leak,
		 "test only: 1 lets policy=shadow's evaluation leave its writes for the kernel");

static atomic_t sw_unregister_failed = ATOMIC_INIT(0);

bool sw_testing_unregister_fails(void)
{
	return sw_test_unregister_fail &&
	       atomic_cmpxchg(&sw_unregister_failed, 0, 1) == 0;
}
