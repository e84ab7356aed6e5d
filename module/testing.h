/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection for the guest tests. Only a testing build (make
 * testing, i.e. SW_TESTING=1) has these module parameters (testing.c);
 * in the module users load each accessor is a constant, so the compiler
 * drops the injection code and modinfo lists no test_ parameter.
 */
#ifndef _SMARTWAKE_TESTING_H
#define _SMARTWAKE_TESTING_H

#include <linux/types.h>

#ifdef SW_TESTING
extern char *sw_test_missing_symbol;
extern char *sw_test_release;
extern unsigned int sw_test_layout_skew;
extern unsigned int sw_test_bad_answer;
extern unsigned int sw_test_old_lookup;
extern unsigned int sw_test_init_delay_ms;
extern unsigned int sw_test_unregister_fail;
extern bool sw_test_hook_at_load;
extern bool sw_test_no_redirect;
extern unsigned int sw_test_shadow_leak;
extern unsigned int sw_test_latency_fail;
extern bool sw_test_latency_empty;
extern unsigned int sw_test_pull_fault;
extern bool sw_test_no_permanent;

/* 1: the migration_arg layout check fails; 2: the ENDBR64 check (pull.c) */
static inline unsigned int sw_testing_pull_fault(void)
{
	return sw_test_pull_fault;
}

/* The redirects are registered without FTRACE_OPS_FL_PERMANENT (hooks.c). */
static inline bool sw_testing_no_permanent(void)
{
	return sw_test_no_permanent;
}

/* N > 0: latency=1's Nth probe registration fails (latency.c). */
static inline unsigned int sw_testing_latency_fail(void)
{
	return sw_test_latency_fail;
}

/* latency=1's probes return at once: what attaching them costs. */
static inline bool sw_testing_latency_empty(void)
{
	return sw_test_latency_empty;
}

/* policy=shadow leaves its first evaluation's writes for the kernel. */
static inline unsigned int sw_testing_shadow_leak(void)
{
	return sw_test_shadow_leak;
}

/* The select callback runs in full but never redirects (cost split). */
static inline bool sw_testing_no_redirect(void)
{
	return sw_test_no_redirect;
}

/* Hook select_task_rq_fair at load, as before on-demand hooks. */
static inline bool sw_testing_hook_at_load(void)
{
	return sw_test_hook_at_load;
}

/* Symbol name the resolver pretends not to find, or NULL. */
static inline const char *sw_testing_missing_symbol(void)
{
	return sw_test_missing_symbol;
}

/* Release to compare the build's with, or NULL for the running one. */
static inline const char *sw_testing_release(void)
{
	return sw_test_release;
}

/* N > 0: field N of the layout table is expected 8 bytes further. */
static inline unsigned int sw_testing_layout_skew(void)
{
	return sw_test_layout_skew;
}

/* 1: answer an inactive CPU of the mask; 2: a CPU outside the mask. */
static inline unsigned int sw_testing_bad_answer(void)
{
	return sw_test_bad_answer;
}

/*
 * Offer kallsyms_lookup_name to the call guard (must be refused): 1 the
 * pre-IBT way (a kprobe's address), 2 its start (sealed on stock kernels).
 */
static inline unsigned int sw_testing_old_lookup(void)
{
	return sw_test_old_lookup;
}

/* Milliseconds to sleep before the hooks are installed at load. */
static inline unsigned int sw_testing_init_delay_ms(void)
{
	return sw_test_init_delay_ms;
}

/*
 * True once for the next on-demand hook removal when the parameter is
 * set: that unregister_ftrace_function() is reported as failed.
 */
bool sw_testing_unregister_fails(void);

/*
 * policy=shadow's hint probe (guest/shadow.sh): a shadow evaluation's
 * failed idle-core search, then whether the has_idle_cores hint it read
 * as set is still set after the evaluation (the evaluation must not
 * clear it; only another CPU may).
 */
void sw_testing_core_miss(void);
void sw_testing_hint_begin(void);
bool sw_testing_core_missed(void);
void sw_testing_hint_count(bool lost);
/* a macro: sw_sds() is the caller's (sched_access.h, not included here) */
#define sw_testing_hint_end(sds, seen)					\
	do {								\
		typeof(sds) __sds = (sds);				\
									\
		if (sw_testing_core_missed() && __sds && (seen))	\
			sw_testing_hint_count(!READ_ONCE(sw_sds(__sds,	\
							has_idle_cores))); \
	} while (0)
#else
#define sw_testing_missing_symbol()	((const char *)NULL)
#define sw_testing_release()		((const char *)NULL)
#define sw_testing_layout_skew()	0U
#define sw_testing_bad_answer()		0U
#define sw_testing_old_lookup()		0U
#define sw_testing_init_delay_ms()	0U
#define sw_testing_unregister_fails()	false
#define sw_testing_hook_at_load()	false
#define sw_testing_no_redirect()	false
#define sw_testing_shadow_leak()	0U
#define sw_testing_latency_fail()	0U
#define sw_testing_latency_empty()	false
#define sw_testing_pull_fault()		0U
#define sw_testing_no_permanent()	false
#define sw_testing_core_miss()		do { } while (0)
#define sw_testing_hint_begin()		do { } while (0)
/* plain reads of the wakeup context, which the compiler drops */
#define sw_testing_hint_end(sds, seen)	do { (void)(sds); (void)(seen); } while (0)
#endif

#endif /* _SMARTWAKE_TESTING_H */
