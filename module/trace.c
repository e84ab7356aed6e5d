// SPDX-License-Identifier: GPL-2.0
/*
 * Instantiates the smartwake trace events declared in trace.h. Kbuild adds
 * this directory to trace.o's include path for define_trace.h.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"

/*
 * smartwake_wakeup copies struct sw_wake_trace whole into its entry,
 * from the entry's pid on: each field must sit where the entry has it.
 */
#define SW_ENTRY		struct trace_event_raw_smartwake_wakeup
#define SW_AT(f)		(offsetof(SW_ENTRY, f) - offsetof(SW_ENTRY, pid))
#define SW_REC(f)		offsetof(struct sw_wake_trace, f)
static_assert(SW_AT(waker) == SW_REC(waker));
static_assert(SW_AT(prev) == SW_REC(prev));
static_assert(SW_AT(result) == SW_REC(result));
static_assert(SW_AT(waker_flips) == SW_REC(waker_flips));
static_assert(SW_AT(wakee_flips) == SW_REC(wakee_flips));
static_assert(SW_AT(factor) == SW_REC(factor));
static_assert(SW_AT(scanned) == SW_REC(scanned));
static_assert(SW_AT(target) == SW_REC(target));
static_assert(SW_AT(idle) == SW_REC(idle));
static_assert(SW_AT(recent) == SW_REC(recent));
static_assert(SW_AT(mode) == SW_REC(mode));
static_assert(SW_AT(wide) == SW_REC(wide));
static_assert(SW_AT(how) == SW_REC(how));
static_assert(SW_AT(sample) == SW_REC(sample));
static_assert(sizeof(SW_ENTRY) - offsetof(SW_ENTRY, pid) ==
	      sizeof(struct sw_wake_trace));
