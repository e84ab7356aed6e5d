/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swtool - what the smartwake tools share: messages, checked allocation,
 * argument parsing (integers, seconds, CPU lists), monotonic time, and the
 * parent/child plumbing of the workload programs (wakeload, udpstream,
 * numatouch): blocked signals, the start gate, waiting with sigtimedwait.
 *
 * Each program sets sw_prog (the prefix of every message) and, if it uses
 * sw_bad_usage(), sw_usage before anything else.
 */
#ifndef SWTOOL_H
#define SWTOOL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define SW_EXIT_RUNTIME	1
#define SW_EXIT_USAGE	2

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noreturn	__attribute__((noreturn))
#define __aligned(x)	__attribute__((aligned(x)))

extern const char *sw_prog;
extern void (*sw_usage)(FILE *f);

/* ---- messages ---- */
void __printf(1, 2) sw_err(const char *fmt, ...);
void __noreturn sw_die(const char *what);
void __noreturn __printf(1, 2) sw_bad_usage(const char *fmt, ...);

/* ---- allocation: a failure is fatal ("PROG: out of memory", exit 1) ---- */
void *sw_xmalloc(size_t n);
void *sw_xcalloc(size_t n, size_t size);
void *sw_xrealloc(void *p, size_t n);
char *sw_xstrdup(const char *s);

/* ---- arguments: a bad one is a usage error (sw_bad_usage) ---- */
long sw_parse_long(const char *opt, const char *s, long min, long max);
double sw_parse_secs(const char *s);
void sw_parse_cpulist(const char *opt, const char *s, cpu_set_t *set);
int sw_parse_cpu(const char *opt, const char *s);
void __noreturn sw_bad_option(int c, char **argv);

/* ---- strings ---- */
void sw_copy_str(char *dst, size_t size, const char *src, size_t len);

/* ---- time ---- */
double sw_now(void);

/* ---- workload processes ---- */

/* The head of every workload's shared page (sw_map_shared()). */
struct sw_head {
	int ready __aligned(64);	/* children at the gate */
	int failed;			/* a child failed (sw_tell_failure()) */
	int stop;			/* the parent asks the children to stop */
};

void *sw_map_shared(size_t size);
void sw_block_signals(sigset_t *set);
void sw_child_init(pid_t main_pid, pid_t pgid, int gate_wr);
void sw_join_group(pid_t pid, pid_t *pgid);
void sw_gate_wait(struct sw_head *h, int gate_rd);

void sw_tell_failure(struct sw_head *h, pid_t main_pid);
int sw_reap_nohang(const pid_t *kids, bool *reaped, int n);
bool sw_all_reaped(const bool *reaped, int n);
void sw_kill_group(pid_t *pgid, const pid_t *kids, bool *reaped, int n);

/*
 * What a workload's SIGCHLD means to it: return -1 (a failure), 0 (stop
 * waiting: every child is gone) or 1 (wait on).
 */
typedef int (*sw_child_fn)(void);

/* The parent's view of its children, for the waits below. */
struct sw_kids {
	const sigset_t *set;		/* the signals of sw_block_signals() */
	const struct sw_head *h;	/* in the shared page */
	sw_child_fn on_child;		/* what a SIGCHLD means */
	void (*finish)(int code);	/* tear everything down, exit @code */
	double setup_timeout;		/* seconds the children may take to start */
	double setup_step;		/* how often to look meanwhile */
	const char *late;		/* message if they take longer (NULL:
					 * "tasks did not start in Ns") */
};

void sw_kids_init(struct sw_kids *k, sigset_t *set, const struct sw_head *h);
int sw_wait_until(const struct sw_kids *k, double until);
int sw_wait_ready(const struct sw_kids *k, int n);
int sw_run_gate(const struct sw_kids *k, int n, int gate_wr, double secs,
		double *t0);

#endif /* SWTOOL_H */
