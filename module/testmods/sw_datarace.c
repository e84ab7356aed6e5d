// SPDX-License-Identifier: GPL-2.0
/*
 * sw_datarace: a test-only module whose load makes one deliberate data
 * race: two kthreads on two CPUs increment one plain int for a while.
 * Built only against a kernel with KCSAN (the debug kernel's kcsan
 * variant), where guest/kcsan.sh checks that KCSAN reports it under TCG,
 * whose single thread runs one vCPU at a time, and that the tests'
 * kernel-log check fails on a report naming a module frame: the proof
 * that a race in smartwake would not go unseen. The load then fails on
 * purpose, so nothing stays loaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>

/*
 * No "kcsan_" in these names nor in the module's: KCSAN's report skips
 * every frame whose "%ps" ("function [module]") contains it
 * (get_stack_skipnr(), kernel/kcsan/report.c), so sw_kcsan_writer() of
 * sw_kcsan_race.ko was reported as "data-race in kthread / kthread".
 */
static int sw_race_racy;	/* plain on purpose: the race */
static unsigned long sw_race_until;

static int sw_race_writer(void *unused)
{
	while (time_before(jiffies, READ_ONCE(sw_race_until))) {
		sw_race_racy++;
		cpu_relax();
	}
	while (!kthread_should_stop())
		msleep(20);
	return 0;
}

static int __init sw_datarace_init(void)
{
	struct task_struct *t[2];
	int i, cpu = 0;

	if (num_online_cpus() < 2)
		return -ENODEV;
	WRITE_ONCE(sw_race_until, jiffies + 3 * HZ);
	for (i = 0; i < 2; i++) {
		cpu = cpumask_next(i ? cpu : -1, cpu_online_mask);
		t[i] = kthread_run_on_cpu(sw_race_writer, NULL, cpu, "sw_race/%u");
		if (IS_ERR(t[i])) {
			if (i)
				kthread_stop(t[0]);
			return PTR_ERR(t[i]);
		}
	}
	msleep(3500);
	kthread_stop(t[0]);
	kthread_stop(t[1]);
	pr_info("two CPUs incremented a plain int: %d\n", sw_race_racy);
	return -EAGAIN;
}

module_init(sw_datarace_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("smartwake test only: one deliberate data race for KCSAN");
