/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake policy core: pure decision functions over plain inputs.
 *
 * Nothing here reads kernel state: time comes in as @now/@hz (jiffies and
 * ticks per second), CPU and task facts as numbers and flags, so the same
 * code runs in the wake path and in the KUnit suites. Each part names its
 * design sources (shared/seeds).
 *
 * Conventions: every enum has an _NR terminator and, where the value is a
 * user-visible knob, a name table indexed by it (usable with
 * sysfs_match_string()). Out-of-range enum values behave like the "off"
 * or neutral value documented on each function.
 */
#ifndef _SMARTWAKE_POLICY_H
#define _SMARTWAKE_POLICY_H

#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <smartwake/enums.h>

/* one header per part of the core, in the order of the wakeup path */
#include <smartwake/policy/wake.h>
#include <smartwake/policy/sis.h>
#include <smartwake/policy/numa.h>
#include <smartwake/policy/observe.h>

#endif /* _SMARTWAKE_POLICY_H */
