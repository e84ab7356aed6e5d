// SPDX-License-Identifier: GPL-2.0
/*
 * The knob table: every concern's knobs (knob_table.h's rows, with each
 * owner's variable and change callbacks), their module parameters and
 * modinfo descriptions, registered with the knob core (knobs.c).
 */
#include <linux/moduleparam.h>
#include "cost.h"
#include "knobs.h"
#include "latency.h"
#include "lean.h"
#include "locality.h"
#include "numa.h"
#include "overload.h"
#include "path.h"
#include "pull.h"
#include "scope.h"
#include "sib.h"
#include "stats.h"
#include "ttwu.h"
#include "watchdog.h"

#define SW_KNOB(_name, _help, ...)	{ .name = _name, .help = _help, __VA_ARGS__ },
static const struct sw_knob sw_knobs[] = {
#include "knob_table.h"
};

#undef SW_KNOB

/*
 * What module_param_cb() makes, one per row: a struct kernel_param in the
 * module's __param section (the loader parses the load's arguments with
 * them and sysfs lists them), and its modinfo description. Each one's
 * arg is the table: the load's parameters come before the init
 * registers it.
 */
#define SW_KNOB(_name, ...)						\
	{ .name = MODULE_PARAM_PREFIX _name, .mod = THIS_MODULE, .ops = &sw_knob_param_ops,	\
	  .arg = (void *)&sw_knob_table, .perm = 0644, .level = -1 },
static const struct kernel_param sw_knob_params[] __used __section("__param")
	__aligned(__alignof__(struct kernel_param)) = {
#include "knob_table.h"
};

#undef SW_KNOB
#define SW_KNOB(_name, _help, ...)	__MODULE_INFO_PREFIX "parm=" _name ":" _help "\0"
static const char sw_knob_param_info[] __used __section(".modinfo")
	__aligned(1) =
#include "knob_table.h"
	;
#undef SW_KNOB

static_assert(ARRAY_SIZE(sw_knob_params) == ARRAY_SIZE(sw_knobs));

static struct sw_knob_pending sw_pending[ARRAY_SIZE(sw_knobs)];

/* "reset": the counters, the latency and per-call histograms */
static void sw_knobs_reset(void)
{
	sw_counters_reset();
	sw_latency_reset();
	sw_cost_reset();
}

const struct sw_knob_table sw_knob_table = {
	.knobs = sw_knobs,
	.params = sw_knob_params,
	.pending = sw_pending,
	.nr = ARRAY_SIZE(sw_knobs),
	/* the lean copy of the path while its decision knobs are mainline's */
	.changed = sw_lean_update,
	.reset = sw_knobs_reset,
};
