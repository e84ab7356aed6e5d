// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake: refuse to load on a kernel the module was not built for.
 *
 * More: Documentation/design.md, "The files in detail", layout.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/mmu_context.h>
#include <linux/sched.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include <generated/utsrelease.h>
#include "ksched.h"
#include "btf.h"
#include "layout.h"
#include "symbols.h"
#include "sched_fields.h"
#include "testing.h"

#define SW_BTF_PATH	"/sys/kernel/btf/vmlinux"
#define SW_BTF_MAX	(64U << 20)	/* 6.12 x86_64 vmlinux BTF: ~6 MiB */

/*
 * Every field of a scheduler structure that the module reads: the list of
 * fields.h, which also makes the only accessors module code reads them
 * with (sched_fields.h); scripts/check-fields.sh checks that the list and
 * the reads match. Nested reads are checked level by level: rq.cfs,
 * cfs_rq.avg, sched_avg.load_avg.
 */
#define SW_SCHED_FIELD(s, m)	{ #s, #m, offsetof(struct s, m) },
static const struct sw_layout_field sw_fields[] = {
#include "fields.h"
};

#undef SW_SCHED_FIELD

static int sw_check_release(void)
{
	const char *running = sw_testing_release() ?: init_utsname()->release;

	if (!strcmp(running, UTS_RELEASE))
		return 0;
	pr_err("built for kernel %s, running %s: refusing to load\n",
	       UTS_RELEASE, running);
	return -ENOEXEC;
}

/* Compare every field of @fields with the BTF; 0 when all match. */
static int sw_check_fields(const void *btf, size_t len,
			   const struct sw_layout_field *fields, unsigned int n)
{
	struct sw_btf b;
	unsigned int i, bad = 0;
	int ret;

	/* validated once: the 5 MB blob costs ~1 s per pass under TCG */
	ret = sw_btf_open(btf, len, &b);
	if (ret) {
		pr_err("layout: %s is malformed (%d)\n", SW_BTF_PATH, ret);
		return ret;
	}
	for (i = 0; i < n; i++) {
		const struct sw_layout_field *f = &fields[i];
		size_t want = f->off;
		u32 bits;

		if (fields == sw_fields && sw_testing_layout_skew() == i + 1)
			want += 8;
		ret = sw_btf_find(&b, f->sname, f->member, &bits);
		if (ret == -ENOENT) {
			pr_err("layout: %s.%s not found in the running kernel's BTF\n",
			       f->sname, f->member);
			bad++;
			continue;
		}
		if (ret) {
			pr_err("layout: %s is malformed (%d)\n", SW_BTF_PATH, ret);
			return ret;
		}
		if (bits == want * BITS_PER_BYTE)
			continue;
		if (bits % BITS_PER_BYTE)
			pr_err("layout: %s.%s at byte %zu in this build, at bit %u in the running kernel\n",
			       f->sname, f->member, want, bits);
		else
			pr_err("layout: %s.%s at byte %zu in this build, at byte %u in the running kernel\n",
			       f->sname, f->member, want, bits / BITS_PER_BYTE);
		bad++;
	}
	if (bad) {
		pr_err("layout of %u of %u fields differs from the running kernel's BTF: refusing to load\n",
		       bad, n);
		return -ENOEXEC;
	}
	pr_info("layout of %u fields matches the running kernel's BTF\n", n);
	return 0;
}

/*
 * Read the whole of @path into a vmalloc()ed buffer; its length in @len.
 * -ENOENT if there is no such file.
 */
static int sw_read_file(const char *path, void **buf, size_t *len)
{
	struct file *f;
	loff_t size, pos = 0;
	ssize_t n;
	void *b;
	int ret = 0;

	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	size = i_size_read(file_inode(f));
	if (size <= 0 || size > SW_BTF_MAX) {
		ret = -EFBIG;
		goto out;
	}
	b = vmalloc(size);
	if (!b) {
		ret = -ENOMEM;
		goto out;
	}
	while (pos < size) {
		n = kernel_read(f, b + pos, size - pos, &pos);
		if (n <= 0) {
			ret = n ? n : -EIO;
			vfree(b);
			goto out;
		}
	}
	*buf = b;
	*len = size;
out:
	filp_close(f, NULL);
	return ret;
}

/**
 * sw_layout_check_percpu() - do the per-CPU offsets name the runqueues
 *
 * symbols.c cannot ask sprint_symbol() about a per-CPU offset; a wrong
 * one would show here, as runqueues whose cpu field is not their CPU.
 *
 * Return: 0, or -ENOEXEC naming the first CPU whose runqueue is wrong.
 */
int sw_layout_check_percpu(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rq *rq = per_cpu_ptr((struct rq __percpu __force *)
					    sw_sym_runqueues, cpu);

		if (READ_ONCE(sw_rq(rq, cpu)) != cpu) {
			pr_err("runqueues of CPU %d reads cpu %d: per-CPU symbols are wrong, refusing to load\n",
			       cpu, READ_ONCE(sw_rq(rq, cpu)));
			return -ENOEXEC;
		}
	}
	return 0;
}

/**
 * sw_layout_check() - refuse a kernel the module was not built for
 *
 * Return: 0 when the release matches and the layout of the fields the
 * module reads matches the running kernel's BTF (or the kernel has no BTF);
 * -ENOEXEC on a mismatch; another error if the BTF cannot be read.
 */
int sw_layout_check(void)
{
	void *btf;
	size_t len;
	int ret;

	ret = sw_check_release();
	if (ret)
		return ret;

	ret = sw_read_file(SW_BTF_PATH, &btf, &len);
	if (ret == -ENOENT) {
		pr_info("no %s (kernel without BTF): layout check skipped\n",
			SW_BTF_PATH);
		return 0;
	}
	if (ret) {
		pr_err("cannot read %s (%d): refusing to load\n", SW_BTF_PATH, ret);
		return ret;
	}
	ret = sw_check_fields(btf, len, sw_fields, ARRAY_SIZE(sw_fields));
	vfree(btf);
	return ret;
}

/**
 * sw_layout_check_fields() - check more fields against the running kernel
 * @fields: structures the module copies from a kernel .c file
 *          (pull.c: core.c's struct migration_arg)
 * @n:      entries of @fields
 *
 * Return: 0 when every field lies where the BTF says (or the kernel has
 * no BTF, said in the log); -ENOEXEC on a mismatch; another error if the
 * BTF cannot be read.
 */
int sw_layout_check_fields(const struct sw_layout_field *fields, unsigned int n)
{
	void *btf;
	size_t len;
	int ret;

	ret = sw_read_file(SW_BTF_PATH, &btf, &len);
	if (ret == -ENOENT) {
		pr_info("no %s (kernel without BTF): layout check of %s skipped\n",
			SW_BTF_PATH, fields[0].sname);
		return 0;
	}
	if (ret) {
		pr_err("cannot read %s (%d)\n", SW_BTF_PATH, ret);
		return ret;
	}
	ret = sw_check_fields(btf, len, fields, n);
	vfree(btf);
	return ret;
}
