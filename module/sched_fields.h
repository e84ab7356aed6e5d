/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the accessors of the scheduler fields listed in fields.h,
 * the only way module code reads or writes them.
 *
 * The module is compiled against the layouts of the kernel/sched/sched.h
 * and <linux/sched.h> it was built with (and their CONFIG_ options);
 * layout.c compares each listed field's offset with the running kernel's
 * BTF at load. For each listed (struct, member) this header defines
 * sw_field_STRUCT__MEMBER(), returning the member's address typed after
 * the member; code uses it as an lvalue through sw_field(STRUCT, ptr,
 * MEMBER) or the short forms below, e.g. READ_ONCE(sw_rq(rq, nr_running)).
 * A member that is not listed has no accessor: using one is an implicit
 * declaration, a build error naming the field.
 *
 * Files include <linux/mmu_context.h> and the kernel's private "sched.h"
 * before this header (sched_access.h does).
 *
 * Reads inside the kernel's own inline helpers (cpu_of(),
 * is_per_cpu_kthread(), sched_domain_span(), sched_group_span(),
 * ftrace_test_recursion_unlock()) do not go through these accessors and
 * are listed all the same. scripts/check-fields.sh (make check, step
 * shipped) compiles every module file with kbuild's own command and
 * checks, from GCC's dump of the function bodies, that the fields read by
 * the module's functions and by every kernel helper they call are
 * exactly fields.h, and that the module's own functions read them only
 * through these accessors.
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
