// SPDX-License-Identifier: GPL-2.0
/*
 * The per-call cost as histograms (issue 61): every sampled call's time
 * (1 in 64 per CPU) lands in a bucket, so a sample stretched by a
 * switched-out vCPU, steal time or an NMI moves the tail, not the median.
 * The means stay in the counters (stats.c); this file prints the medians,
 * p99s and the module/kernel ratio of the medians.
 *
 * More: Documentation/design.md, "The files in detail", cost.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "cost.h"
#include "debugfs_file.h"

struct sw_cost_hist __percpu *sw_cost_hist;

/* per series: its name in cost_hist, the prefix of its stats lines */
static const struct {
	const char *name, *line;
} sw_cost_info[SW_NR_COST] = {
	[SW_COST_SELF]		= { "self",		"self_ns" },
	[SW_COST_MODULE]	= { "module",		"module_ns" },
	[SW_COST_KERNEL]	= { "kernel",		"kernel_ns" },
	[SW_COST_BPF_SELECT]	= { "bpf_select_cpu",	"bpf_ns" },
	[SW_COST_BPF_WIDE]	= { "bpf_wake_wide",	"bpf_wide_ns" },
	[SW_COST_BPF_AFFINE]	= { "bpf_wake_affine",	"bpf_affine_ns" },
	[SW_COST_BPF_IDLE]	= { "bpf_select_idle",	"bpf_idle_ns" },
};

int sw_cost_init(void)
{
	sw_cost_hist = alloc_percpu(struct sw_cost_hist);
	if (!sw_cost_hist) {
		pr_err("cannot allocate the per-call histograms (%zu bytes per CPU)\n",
		       sizeof(struct sw_cost_hist));
		return -ENOMEM;
	}
	return 0;
}

void sw_cost_exit(void)
{
	free_percpu(sw_cost_hist);
	sw_cost_hist = NULL;
}

/* Racy against running samples, like the counters' reset. */
void sw_cost_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(sw_cost_hist, cpu), 0,
		       sizeof(struct sw_cost_hist));
}

/* One series summed over CPUs into @sum; returns the number of samples. */
static u64 sw_cost_sum(enum sw_cost_series s, u64 *sum)
{
	u64 n = 0;
	int cpu, b;

	memset(sum, 0, SW_COST_BUCKETS * sizeof(*sum));
	for_each_possible_cpu(cpu)
		for (b = 0; b < SW_COST_BUCKETS; b++)
			sum[b] += READ_ONCE(per_cpu_ptr(sw_cost_hist, cpu)->b[s][b]);
	for (b = 0; b < SW_COST_BUCKETS; b++)
		n += sum[b];
	return n;
}

/*
 * cost_hist: "series lower-bound-ns count" for each bucket that holds a
 * sample, series by series.
 */
static int sw_cost_hist_show(struct seq_file *m, void *unused)
{
	u64 *sum;
	int s, b;

	sum = kmalloc_array(SW_COST_BUCKETS, sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	for (s = 0; s < SW_NR_COST; s++) {
		sw_cost_sum(s, sum);
		for (b = 0; b < SW_COST_BUCKETS; b++)
			if (sum[b])
				seq_printf(m, "%s %llu %llu\n",
					   sw_cost_info[s].name,
					   sw_cost_bucket_low(b), sum[b]);
	}
	kfree(sum);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_cost_hist);

void sw_cost_debugfs(struct dentry *dir)
{
	sw_debugfs_file("cost_hist", 0444, dir, NULL, &sw_cost_hist_fops);
}

/**
 * sw_cost_show_stats() - the robust per-call figures
 * @m: the stats file
 *
 * For each series with a sample: "<line>_p50" and "<line>_p99" (ns).
 * Under policy=shadow, module_kernel_ratio is the median of the module's
 * evaluation over the median of the kernel's function, both taken on the
 * same sampled wakeups (three decimals).
 */
void sw_cost_show_stats(struct seq_file *m)
{
	u64 p50[SW_NR_COST] = {}, *sum, r;
	int s;

	sum = kmalloc_array(SW_COST_BUCKETS, sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return;
	for (s = 0; s < SW_NR_COST; s++) {
		if (!sw_cost_sum(s, sum))
			continue;
		p50[s] = sw_cost_percentile(sum, 50);
		seq_printf(m, "%s_p50 %llu\n", sw_cost_info[s].line, p50[s]);
		seq_printf(m, "%s_p99 %llu\n", sw_cost_info[s].line,
			   sw_cost_percentile(sum, 99));
	}
	kfree(sum);
	if (!p50[SW_COST_KERNEL])
		return;
	r = div64_u64(p50[SW_COST_MODULE] * 1000 + p50[SW_COST_KERNEL] / 2,
		      p50[SW_COST_KERNEL]);
	seq_printf(m, "module_kernel_ratio %llu.%03llu\n", r / 1000, r % 1000);
}
