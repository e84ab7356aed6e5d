/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the accessors of the scheduler fields listed in fields.h,
 * the only way module code reads or writes them.
 *
 * More: Documentation/design.md, "The files in detail", sched_fields.h.
 */
#ifndef _SMARTWAKE_SCHED_FIELDS_H
#define _SMARTWAKE_SCHED_FIELDS_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/stddef.h>

#ifndef _KERNEL_SCHED_SCHED_H
#error "include the kernel's private sched.h before sched_fields.h"
#endif

/* The accessor of one listed member (const in, like container_of()). */
#define SW_SCHED_FIELD(s, m)						\
static __always_inline typeof(((struct s *)NULL)->m) *			\
sw_field_##s##__##m(const struct s *p)					\
{									\
	return (void *)&p->m;						\
}

#include "fields.h"
#undef SW_SCHED_FIELD

/* Member @m of the struct @s that @p points to, as an lvalue. */
#define sw_field(s, p, m)	(*sw_field_##s##__##m(p))

#define sw_rq(p, m)		sw_field(rq, p, m)
#define sw_cfs_rq(p, m)		sw_field(cfs_rq, p, m)
#define sw_rd(p, m)		sw_field(root_domain, p, m)
#define sw_sd(p, m)		sw_field(sched_domain, p, m)
#define sw_sds(p, m)		sw_field(sched_domain_shared, p, m)
#define sw_sg(p, m)		sw_field(sched_group, p, m)
#define sw_se(p, m)		sw_field(sched_entity, p, m)
#define sw_sa(p, m)		sw_field(sched_avg, p, m)
#define sw_task(p, m)		sw_field(task_struct, p, m)

#endif /* _SMARTWAKE_SCHED_FIELDS_H */
