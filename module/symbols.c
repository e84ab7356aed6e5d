// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol resolution. kallsyms_lookup_name() is not exported, so a kprobe on
 * it yields its address once; every symbol the module needs is then looked
 * up at load time, and a missing one fails insmod before anything is hooked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>
#include "sw.h"

unsigned long sw_sym_select_task_rq_fair;

static const struct sw_symbol sw_symbols[] = {
	{ "select_task_rq_fair", &sw_sym_select_task_rq_fair },
};

/*
 * Test hook: pretend this symbol does not exist, to exercise the error path
 * (the reliability tests load the module with it set).
 */
static char *test_missing_symbol;
module_param(test_missing_symbol, charp, 0400);
MODULE_PARM_DESC(test_missing_symbol,
		 "test only: treat this symbol as unresolvable");

typedef unsigned long (*sw_lookup_fn)(const char *name);

static sw_lookup_fn sw_find_lookup(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	sw_lookup_fn fn;
	int ret;

	ret = register_kprobe(&kp);
	if (ret < 0) {
		pr_err("cannot resolve kallsyms_lookup_name (kprobe: %d)\n", ret);
		return NULL;
	}
	fn = (sw_lookup_fn)kp.addr;
	unregister_kprobe(&kp);
	return fn;
}

/**
 * sw_symbols_resolve() - resolve every symbol in the table
 *
 * Return: 0, or -ENOENT naming the first symbol that is missing.
 */
int sw_symbols_resolve(void)
{
	sw_lookup_fn lookup = sw_find_lookup();
	size_t i;

	if (!lookup)
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(sw_symbols); i++) {
		const struct sw_symbol *s = &sw_symbols[i];
		unsigned long a = 0;

		if (!test_missing_symbol || strcmp(test_missing_symbol, s->name))
			a = lookup(s->name);
		if (!a) {
			pr_err("required kernel symbol %s not found; nothing hooked\n",
			       s->name);
			return -ENOENT;
		}
		*s->addr = a;
	}
	return 0;
}
