// SPDX-License-Identifier: GPL-2.0
/*
 * The one guard for every call the module makes into the kernel through a
 * pointer.
 *
 * More: Documentation/design.md, "The files in detail", ibt.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "path.h"
#include "symbols.h"
#include "testing.h"

/* ENDBR64 as a little-endian u32: f3 0f 1e fa */
#define SW_ENDBR64	0xfa1e0ff3U
/* arm64's "bti c" (hint 34) as a little-endian u32: 5f 24 03 d5 */
#define SW_BTI_C	0xd503245fU

struct sw_call {
	const char *name;
	unsigned long *addr;	/* resolved by symbols.c */
	u32 insn;		/* first four bytes, read at check time */
	bool read;		/* insn holds them */
	bool bti;		/* must begin with "bti c", BTI kernel or not */
};

static unsigned long sw_old_lookup_addr;
#if defined(SW_HAVE_DIRECT) && defined(CONFIG_ARM64)
static unsigned long sw_tramp_addr;
#endif

static struct sw_call sw_calls[] = {
	/* path/select.c sw_orig_select(): fair_sched_class takes its address */
	{ "select_task_rq_fair", &sw_sym_select_task_rq_fair },
	/* testing builds, test_old_lookup=1 or 2 only: must be refused */
	{ "kallsyms_lookup_name", &sw_old_lookup_addr },
#if defined(SW_HAVE_DIRECT) && defined(CONFIG_ARM64)
	/* the kernel's ftrace_caller enters it by "br x17" (path/select.c) */
	{ "sw_select_tramp", &sw_tramp_addr, .bti = true },
#endif
};

static int sw_call_check(struct sw_call *c)
{
	unsigned long a = *c->addr;

	if (!sw_symbol_is_start(c->name, a)) {
		pr_err("refusing to call %s through a pointer: %pS is not its start\n",
		       c->name, (void *)a);
		return -ENOEXEC;
	}
	if (get_kernel_nofault(c->insn, (u32 *)a)) {
		pr_err("refusing to call %s through a pointer: cannot read its code\n",
		       c->name);
		return -ENOEXEC;
	}
	c->read = true;
	if (c->bti && c->insn != SW_BTI_C) {
		pr_err("refusing to load: %s begins %*ph, not bti c (a BTI kernel would fault)\n",
		       c->name, 4, &c->insn);
		return -ENOEXEC;
	}
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) && c->insn != SW_ENDBR64) {
		pr_err("refusing to call %s through a pointer: it begins %*ph, not ENDBR64 (an IBT CPU would fault)\n",
		       c->name, 4, &c->insn);
		return -ENOEXEC;
	}
	return 0;
}

/**
 * sw_endbr_check() - may the module call @fn, another module's function,
 * through a pointer
 * @what: its name, for the log
 * @fn:   its address
 *
 * A module's functions whose address it takes keep ENDBR64; this says so
 * for the functions another module hands over (pull.c's companion).
 *
 * Return: 0, or -ENOEXEC (logged) when an IBT CPU would fault.
 */
int sw_endbr_check(const char *what, const void *fn)
{
	u32 insn;

	if (!fn || get_kernel_nofault(insn, (const u32 *)fn)) {
		pr_err("refusing to call %s through a pointer: cannot read its code\n",
		       what);
		return -ENOEXEC;
	}
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) && insn != SW_ENDBR64) {
		pr_err("refusing to call %s through a pointer: it begins %*ph, not ENDBR64 (an IBT CPU would fault)\n",
		       what, 4, &insn);
		return -ENOEXEC;
	}
	return 0;
}

/**
 * sw_calls_check() - check every indirect call target before first use
 *
 * Return: 0, or -ENOEXEC for the first target an IBT CPU would refuse
 * (the message names it); on arm64 also the module's direct trampoline
 * without its "bti c".
 */
int sw_calls_check(void)
{
	size_t i;
	int ret;

	/* testing builds: 1 fails the start check, 2 the ENDBR64 check */
	if (sw_testing_old_lookup() == 1)
		sw_old_lookup_addr = sw_symbols_old_lookup();
	else if (sw_testing_old_lookup() == 2)
		sw_old_lookup_addr = sw_sym_kallsyms_lookup_name;
#if defined(SW_HAVE_DIRECT) && defined(CONFIG_ARM64)
	sw_tramp_addr = (unsigned long)sw_select_tramp;
#endif
	for (i = 0; i < ARRAY_SIZE(sw_calls); i++) {
		if (!*sw_calls[i].addr)
			continue;	/* not used by this build */
		ret = sw_call_check(&sw_calls[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* debugfs "calls": name, address, first four bytes, verdict */
int sw_calls_show(struct seq_file *m)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sw_calls); i++) {
		const struct sw_call *c = &sw_calls[i];

		if (!c->read)
			continue;
		seq_printf(m, "%s 0x%lx %*ph %s\n", c->name, *c->addr, 4,
			   &c->insn, c->bti ? "bti-c" :
			   c->insn == SW_ENDBR64 ? "endbr64" :
			   IS_ENABLED(CONFIG_X86_KERNEL_IBT) ? "refused" :
			   "no-ibt-kernel");
	}
	return 0;
}
