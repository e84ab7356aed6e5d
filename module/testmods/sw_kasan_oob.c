// SPDX-License-Identifier: GPL-2.0
/*
 * sw_kasan_oob: a test-only module that makes one deliberate one-byte
 * out-of-bounds read of a kmalloc() object when it loads. Built only
 * against a kernel with KASAN (the debug kernel), where the guest test
 * checks that KASAN reports it and that the tests' kernel-log check would
 * have failed on it: the proof that a KASAN report in smartwake would not
 * go unnoticed. The load then fails on purpose, so nothing stays loaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>

static int __init sw_kasan_oob_init(void)
{
	size_t size = 8;
	char *p;
	char c;

	p = kmalloc(size, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	/* hide the index from the compiler so the read is really made */
	OPTIMIZER_HIDE_VAR(size);
	c = READ_ONCE(p[size]);
	kfree(p);
	pr_info("read one byte past an %zu-byte object (%d)\n", size, c);
	return -EAGAIN;
}

module_init(sw_kasan_oob_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("smartwake test only: one deliberate KASAN out-of-bounds read");
