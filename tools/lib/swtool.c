// SPDX-License-Identifier: GPL-2.0
/*
 * swtool - helpers shared by the smartwake tools (see swtool.h).
 */
#include "swtool.h"

#include <ctype.h>
#include <getopt.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *sw_prog = "swtool";
void (*sw_usage)(FILE *f);

/* ---- messages ------------------------------------------------------------ */

static void vmsg(const char *fmt, va_list ap, const char *end)
{
	fprintf(stderr, "%s: ", sw_prog);
	vfprintf(stderr, fmt, ap);
	fputs(end, stderr);
}

/* "PROG: message\n" on stderr. */
void sw_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, "\n");
	va_end(ap);
}

/* "PROG: @what: strerror(errno)", exit 1. */
void sw_die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", sw_prog, what, strerror(errno));
	exit(SW_EXIT_RUNTIME);
}

/* "PROG: message", a blank line and the usage text on stderr; exit 2. */
void sw_bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, "\n\n");
	va_end(ap);
	if (sw_usage)
		sw_usage(stderr);
	exit(SW_EXIT_USAGE);
}

/* ---- allocation ---------------------------------------------------------- */

static void *checked(void *p)
{
	if (!p) {
		sw_err("out of memory");
		exit(SW_EXIT_RUNTIME);
	}
	return p;
}

void *sw_xmalloc(size_t n)
{
	return checked(malloc(n ? n : 1));
}

void *sw_xcalloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size ? size : 1));
}

void *sw_xrealloc(void *p, size_t n)
{
	return checked(realloc(p, n ? n : 1));
}

char *sw_xstrdup(const char *s)
{
	return checked(strdup(s));
}

/* ---- arguments ----------------------------------------------------------- */

/* A decimal integer in [@min, @max], the whole of @s; @opt names it. */
long sw_parse_long(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		sw_bad_usage("%s: expected an integer in [%ld, %ld], got '%s'",
			     opt, min, max, s);
	return v;
}

/* The -t argument: seconds > 0, fractional ok. */
double sw_parse_secs(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 1e6)
		sw_bad_usage("-t: expected seconds > 0, got '%s'", s);
	return v;
}

/* "0-3,8,10-11" -> set; every CPU must be one we may run on now. */
void sw_parse_cpulist(const char *opt, const char *s, cpu_set_t *set)
{
	const char *p = s;
	cpu_set_t allowed;
	unsigned long a, b, c;
	char *end;

	CPU_ZERO(set);
	while (*p) {
		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtoul(p, &end, 10);
		}
		if (b < a || b >= CPU_SETSIZE)
			goto bad;
		for (c = a; c <= b; c++)
			CPU_SET(c, set);
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	if (!CPU_COUNT(set))
		goto bad;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, set) && !CPU_ISSET(c, &allowed))
				sw_bad_usage("%s: CPU %lu is not online/allowed",
					     opt, c);
	}
	return;
bad:
	sw_bad_usage("%s: bad CPU list '%s' (want e.g. 0-3 or 1,2)", opt, s);
}

/* One CPU we may run on now. */
int sw_parse_cpu(const char *opt, const char *s)
{
	int cpu = sw_parse_long(opt, s, 0, CPU_SETSIZE - 1);
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0 &&
	    !CPU_ISSET(cpu, &allowed))
		sw_bad_usage("%s: CPU %d is not online/allowed", opt, cpu);
	return cpu;
}

/*
 * getopt_long() (optstring starting with ':', opterr 0) returned @c, ':'
 * for a missing argument or '?' for an unknown option.
 */
void sw_bad_option(int c, char **argv)
{
	if (c == ':')
		sw_bad_usage("option %s needs an argument", argv[optind - 1]);
	if (optopt && optopt < 128)
		sw_bad_usage("unknown option -%c", optopt);
	sw_bad_usage("unknown option %s", argv[optind - 1]);
}

/* ---- strings ------------------------------------------------------------- */

/* The first @len bytes of @src, cut to fit @size, NUL-terminated. */
void sw_copy_str(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* ---- time ---------------------------------------------------------------- */

/* Monotonic seconds. */
double sw_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- workload processes -------------------------------------------------- */

/* Zeroed memory shared with the children forked after this. */
void *sw_map_shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		sw_die("mmap");
	return p;
}

/*
 * Block SIGINT, SIGTERM, SIGHUP, SIGCHLD and SIGUSR1 (a child's failure)
 * for good, to be collected with sw_wait_until(): no handlers, no races;
 * children inherit the mask and unblock in sw_child_init().
 */
void sw_block_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGUSR1);
	sigprocmask(SIG_BLOCK, set, NULL);
}

/* First thing in every forked child. */
void sw_child_init(pid_t main_pid, pid_t pgid, int gate_wr)
{
	sigset_t none;

	/* die with the parent even if it is SIGKILLed */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != main_pid)
		_exit(1);
	setpgid(0, pgid);
	/* keep only the gate's read end, or the gate would never open */
	close(gate_wr);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Parent side of a fork: the first child leads the group; both sides set it. */
void sw_join_group(pid_t pid, pid_t *pgid)
{
	if (!*pgid)
		*pgid = pid;
	setpgid(pid, *pgid);
}

/*
 * Count in as ready and park at the gate: the parent closes its write end
 * to start everyone at once.
 */
void sw_gate_wait(struct sw_head *h, int gate_rd)
{
	char c;

	__atomic_add_fetch(&h->ready, 1, __ATOMIC_RELEASE);
	while (read(gate_rd, &c, 1) < 0 && errno == EINTR)
		;
}

/* In a child: tell the parent (blocked in sw_wait_until()) it failed. */
void sw_tell_failure(struct sw_head *h, pid_t main_pid)
{
	__atomic_store_n(&h->failed, 1, __ATOMIC_RELAXED);
	kill(main_pid, SIGUSR1);
}

/* Reap the children that exited, marking them in @reaped; how many. */
int sw_reap_nohang(const pid_t *kids, bool *reaped, int n)
{
	int i, st, nr = 0;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (i = 0; i < n; i++)
			if (kids[i] == pid)
				reaped[i] = true;
		nr++;
	}
	return nr;
}

bool sw_all_reaped(const bool *reaped, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!reaped[i])
			return false;
	return true;
}

/* SIGKILL the group and each child not reaped yet, and reap them. */
void sw_kill_group(pid_t *pgid, const pid_t *kids, bool *reaped, int n)
{
	int i;

	if (*pgid)
		kill(-*pgid, SIGKILL);
	for (i = 0; i < n; i++) {
		if (kids[i] <= 0 || reaped[i])
			continue;
		kill(kids[i], SIGKILL);
		while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
			;
		reaped[i] = true;
	}
	*pgid = 0;	/* may be reused once the group is gone */
}

/*
 * Block the signals to wait for into @set (sw_block_signals()) and point
 * @k at them and at the head @h of the shared page.
 */
void sw_kids_init(struct sw_kids *k, sigset_t *set, const struct sw_head *h)
{
	sw_block_signals(set);
	k->set = set;
	k->h = h;
}

/*
 * Sleep until @until (monotonic) or a signal of @k->set. Returns 0 on
 * timeout (or when @k->on_child says every child is gone), the terminating
 * signal number, or -1 if a child failed (@k->h->failed set with SIGUSR1, or
 * @k->on_child says so on SIGCHLD).
 */
int sw_wait_until(const struct sw_kids *k, double until)
{
	struct timespec ts;
	double left;
	int sig, r;

	for (;;) {
		left = until - sw_now();
		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		sig = sigtimedwait(k->set, NULL, &ts);
		if (sig < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			sw_die("sigtimedwait");
		}
		if (sig == SIGCHLD) {
			r = k->on_child();
			if (r <= 0)
				return r;
		} else if (sig == SIGUSR1) {
			if (__atomic_load_n(&k->h->failed, __ATOMIC_RELAXED))
				return -1;
		} else {
			return sig;
		}
	}
}

/*
 * Wait until @n children are parked at the gate, looking every
 * @k->setup_step s. Returns 0, or the status to exit with: 1 if a child
 * failed or they took longer than @k->setup_timeout s (reported),
 * 128 + the signal that stopped us.
 */
int sw_wait_ready(const struct sw_kids *k, int n)
{
	double end = sw_now() + k->setup_timeout;
	int r;

	while (__atomic_load_n(&k->h->ready, __ATOMIC_ACQUIRE) < n) {
		if (sw_now() > end) {
			if (k->late)
				sw_err("%s", k->late);
			else
				sw_err("tasks did not start in %.0fs",
				       k->setup_timeout);
			return 1;
		}
		r = sw_wait_until(k, sw_now() + k->setup_step);
		if (r < 0)
			return 1;
		if (r > 0)
			return 128 + r;
	}
	return 0;
}

/*
 * The run is timed in slices of RUN_SLICE s. A slice that ends more than
 * RUN_JUMP s late means the clock jumped (a paused host, or a guest its
 * host did not run): that time is added to the run, so that a short load
 * still gets its seconds of work instead of ending at once with no events.
 */
#define RUN_SLICE	0.25
#define RUN_JUMP	0.5

/*
 * The run: wait for @n children at the gate, open it (close @gate_wr) at
 * *@t0 and wait @secs, plus any clock jump (told on stderr).
 * Returns 0 (time is up, or every child is gone) or the signal that cut the
 * run short; a failure or a signal before the start ends in @k->finish().
 */
int sw_run_gate(const struct sw_kids *k, int n, int gate_wr, double secs,
		double *t0)
{
	double end, slice_end, now, jumped = 0;
	int r;

	r = sw_wait_ready(k, n);
	if (r)
		k->finish(r);
	*t0 = sw_now();
	end = *t0 + secs;
	close(gate_wr);
	for (now = *t0; now < end;) {
		slice_end = now + RUN_SLICE < end ? now + RUN_SLICE : end;
		r = sw_wait_until(k, slice_end);
		if (r < 0)
			k->finish(1);
		now = sw_now();
		/* a signal, or 0 before the slice ended: the children are gone */
		if (r || now < slice_end)
			break;
		if (now - slice_end > RUN_JUMP) {
			jumped += now - slice_end;
			end += now - slice_end;
		}
	}
	if (jumped > 0)
		sw_err("the clock jumped %.1f s during the run (a paused or starved host): the run went on for that long more",
		       jumped);
	return r;
}
