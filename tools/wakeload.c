// SPDX-License-Identifier: GPL-2.0
/*
 * wakeload - wakeup-heavy loads for exercising fair-class wakeup placement.
 *
 * Modes (see usage() for the options):
 *   pipe  ping-pong pairs: the 1:1 waker/wakee case of wake_affine.
 *   msg   hackbench-like M:N messaging inside groups.
 *   disp  1 dispatcher : N workers (pgbench client / Facebook 1:N load),
 *         optionally with workers also waking peers (--switch).
 *
 * Every task owns one cache-line counter in a MAP_SHARED page, summed by
 * the parent at the deadline (children are SIGKILLed as one group). One
 * line on stdout: wakeload: mode=<mode> ops=<N> secs=<S> ops_per_sec=<R>
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "swtool.h"

#define PROG		"wakeload"
#define MAX_TASKS	4096
#define MAX_DEPTH	4096
#define SETUP_TIMEOUT	30.0	/* seconds for all tasks to come up */

enum mode { MODE_PIPE, MODE_MSG, MODE_DISP };
static const char *const mode_name[] = { "pipe", "msg", "disp" };

static struct {
	enum mode mode;
	double secs;
	int pairs;
	int groups, senders, receivers, msgsize;
	bool msg_pipes;
	int dispatchers, workers, depth, peers;
	bool sw;
	long work_us;
	bool threads, idle;
	bool have_cpus, have_hog_cpus;
	cpu_set_t cpus, hog_cpus;
	int hogs, hogs_idle, hogs_rt;
} cfg = {
	.secs = 5.0,
	.pairs = 1,
	.groups = 1, .senders = 4, .receivers = 4, .msgsize = 100,
	.dispatchers = 1, .workers = 4, .depth = 0, .peers = 2,
};

/* One counter per cache line so tasks never share a line with each other. */
struct slot {
	unsigned long ops;
} __aligned(64);

struct shared {
	struct sw_head h;
	struct slot slot[];
};

typedef void (*task_fn)(int idx, int arg);

struct task {
	task_fn fn;
	int idx, arg;
	pid_t pid;		/* process mode and hogs */
	bool reaped;
	pthread_t thr;		/* thread mode */
};

static struct shared *sh;
static struct task tasks[MAX_TASKS];
static int ntasks;		/* workload tasks, slots 0..ntasks-1 */
static struct task hogs[MAX_TASKS];
static int nhogs;
static pid_t main_pid, pgid;
static int gate[2] = { -1, -1 };

/* fd tables, indexed as described at each mode */
static int (*pp_ab)[2], (*pp_ba)[2];		/* pipe: per pair */
static int (*msg_fd)[2];			/* msg: per receiver [rd, wr] */
static int (*rep)[2];				/* disp: per dispatcher */
static int (*req)[2], (*side)[2];		/* disp: per worker */

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " MODE [options]\n"
"\n"
"Wakeup-heavy loads; runs for -t seconds, then prints one line:\n"
"  " PROG ": mode=<mode> ops=<N> secs=<S> ops_per_sec=<R>\n"
"\n"
"Modes:\n"
"  pipe [-p PAIRS]           ping-pong over two pipes per pair (default 1\n"
"                            pair); op = one round trip. Models the 1:1\n"
"                            waker/wakee case wake_affine favours.\n"
"  msg [-g GROUPS] [-s SENDERS] [-r RECEIVERS] [-l MSGSIZE] [--pipes]\n"
"                            hackbench-like M:N messaging (defaults 1 group,\n"
"                            4 senders, 4 receivers, 100 bytes): each sender\n"
"                            writes messages to every receiver of its group\n"
"                            over a socketpair (or pipe with --pipes); op =\n"
"                            one message delivered. Models many-to-many\n"
"                            wakeups (hackbench, the 2013 smart wake-affine\n"
"                            winner case).\n"
"  disp [-d DISPATCHERS] [-w WORKERS] [-q DEPTH] [-u USEC] [--switch [-k PEERS]]\n"
"                            1 dispatcher : N workers (defaults 1 and 4).\n"
"                            Each dispatcher keeps DEPTH requests (default\n"
"                            WORKERS) in flight, handing them to its workers\n"
"                            round-robin over pipes and refilling as replies\n"
"                            come back, so the dispatcher wakes many distinct\n"
"                            tasks (high wakee flips) while each worker only\n"
"                            wakes its dispatcher (low flips): the pgbench /\n"
"                            Facebook 1:N load of the 2015 wake_wide patch.\n"
"                            -u spins USEC per request as service time.\n"
"                            --switch: after each reply a worker also pokes\n"
"                            one of PEERS (default 2) other workers\n"
"                            round-robin via their side pipe, so workers\n"
"                            gather wakee flips too (wake_wide decisions\n"
"                            with the waker or the wakee as the master).\n"
"                            op = one request served.\n"
"\n"
"Common options:\n"
"  -t, --time SECS           run time, fractional ok (default 5)\n"
"      --threads             use threads instead of processes\n"
"      --cpus LIST           pin every task to LIST, e.g. 0-3 or 1,2\n"
"      --idle                run the load tasks as SCHED_IDLE\n"
"      --hog N               also run N SCHED_OTHER busy-loop processes\n"
"      --hog-idle N          also run N SCHED_IDLE busy-loop processes\n"
"      --hog-rt N            also run N SCHED_FIFO (priority 1) busy-loop\n"
"                            processes (RT throttling leaves others 5 %%)\n"
"      --hog-cpus LIST       pin the hogs to LIST (default: --cpus)\n"
"  -h, --help                this text\n"
"\n"
"Exit: 0 done; 1 runtime failure; 2 bad arguments; 128+sig if stopped by\n"
"SIGINT/SIGTERM/SIGHUP (the line is still printed for the time run).\n"
"All children (one process group) are killed and reaped before exit.\n");
}

/* ---- task side ---------------------------------------------------- */

/* Tell the parent something broke; it wakes from sigtimedwait on SIGUSR1. */
static void __noreturn task_fail(const char *what)
{
	fprintf(stderr, PROG ": task %d: %s: %s\n", (int)getpid(), what,
		strerror(errno));
	sw_tell_failure(&sh->h, main_pid);
	if (cfg.threads && getpid() == main_pid)
		pthread_exit(NULL);
	_exit(1);
}

/* policy: SCHED_OTHER (left as it is), SCHED_IDLE or SCHED_FIFO */
static void apply_sched(const cpu_set_t *cpus, int policy)
{
	struct sched_param sp = { .sched_priority = policy == SCHED_FIFO };

	/* pid 0 means the calling thread, so this works for --threads too */
	if (cpus && sched_setaffinity(0, sizeof(*cpus), cpus))
		task_fail("sched_setaffinity");
	if (policy != SCHED_OTHER && sched_setscheduler(0, policy, &sp))
		task_fail(policy == SCHED_IDLE ? "sched_setscheduler(SCHED_IDLE)" :
			  "sched_setscheduler(SCHED_FIFO)");
}

static void task_enter(void)
{
	apply_sched(cfg.have_cpus ? &cfg.cpus : NULL,
		    cfg.idle ? SCHED_IDLE : SCHED_OTHER);
	sw_gate_wait(&sh->h, gate[0]);
}

static inline void count(int idx, unsigned long ops)
{
	__atomic_store_n(&sh->slot[idx].ops, ops, __ATOMIC_RELAXED);
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			task_fail("write");
		}
		p += n;
		len -= n;
	}
}

static ssize_t read_some(int fd, void *buf, size_t len)
{
	ssize_t n;

	do {
		n = read(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		task_fail("read");
	if (n == 0) {
		errno = EPIPE;
		task_fail("read: peer closed");
	}
	return n;
}

static void spin_us(long us)
{
	double end;

	if (us <= 0)
		return;
	end = sw_now() + us / 1e6;
	while (sw_now() < end)
		;
}

/* pipe: the pinger counts round trips, the ponger echoes. */
static void pipe_ping(int idx, int pair)
{
	unsigned long ops = 0;
	char c = 'p';

	task_enter();
	for (;;) {
		write_all(pp_ab[pair][1], &c, 1);
		read_some(pp_ba[pair][0], &c, 1);
		count(idx, ++ops);
	}
}

static void pipe_pong(int idx, int pair)
{
	char c;

	(void)idx;
	task_enter();
	for (;;) {
		read_some(pp_ab[pair][0], &c, 1);
		write_all(pp_ba[pair][1], &c, 1);
	}
}

/* msg: senders fill every receiver of the group in turn, like hackbench. */
static void msg_sender(int idx, int group)
{
	int first = group * cfg.receivers, r;
	char *buf = calloc(1, cfg.msgsize);

	(void)idx;
	if (!buf)
		task_fail("calloc");
	task_enter();
	for (;;)
		for (r = 0; r < cfg.receivers; r++)
			write_all(msg_fd[first + r][1], buf, cfg.msgsize);
}

static void msg_receiver(int idx, int r)
{
	unsigned long bytes = 0;
	char buf[4096];

	task_enter();
	for (;;) {
		/* stream sockets may split or merge messages: count bytes */
		bytes += read_some(msg_fd[r][0], buf, sizeof(buf));
		count(idx, bytes / cfg.msgsize);
	}
}

/* disp: one byte is one request; the reply is one byte back. */
static void disp_dispatcher(int idx, int d)
{
	int base = d * cfg.workers, rr = 0, i, n;
	unsigned long ops = 0;
	char buf[MAX_DEPTH];

	task_enter();
	for (i = 0; i < cfg.depth; i++) {
		write_all(req[base + rr][1], "r", 1);
		rr = (rr + 1) % cfg.workers;
	}
	for (;;) {
		n = read_some(rep[d][0], buf, sizeof(buf));
		ops += n;
		count(idx, ops);
		/* refill round-robin: each refill wakes the next worker */
		for (i = 0; i < n; i++) {
			write_all(req[base + rr][1], "r", 1);
			rr = (rr + 1) % cfg.workers;
		}
	}
}

static void disp_worker(int idx, int w)
{
	int d = w / cfg.workers, total = cfg.dispatchers * cfg.workers;
	int npeers = cfg.peers < total - 1 ? cfg.peers : total - 1;
	struct pollfd pfd[2] = {
		{ .fd = req[w][0], .events = POLLIN },
		{ .fd = side[w][0], .events = POLLIN },
	};
	char buf[MAX_DEPTH];
	int k = 0, i, n;

	(void)idx;
	task_enter();
	for (;;) {
		if (cfg.sw) {
			/* sleep on both pipes so peers' pokes are real wakeups */
			if (poll(pfd, 2, -1) < 0) {
				if (errno == EINTR)
					continue;
				task_fail("poll");
			}
			if (pfd[1].revents & POLLIN)
				while (read(side[w][0], buf, sizeof(buf)) > 0)
					;
			if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
		}
		n = read_some(req[w][0], buf, sizeof(buf));
		for (i = 0; i < n; i++)
			spin_us(cfg.work_us);
		write_all(rep[d][1], buf, n);
		if (!cfg.sw)
			continue;
		for (i = 0; i < n; i++) {
			int peer = (w + 1 + k) % total;

			k = (k + 1) % npeers;
			/* non-blocking: a full side pipe already has a wakeup pending */
			if (write(side[peer][1], "s", 1) < 0 && errno != EAGAIN &&
			    errno != EINTR)
				task_fail("write side pipe");
		}
	}
}

/* A hog just burns CPU; it needs no gate and counts nothing. */
static void hog_run(int policy)
{
	volatile unsigned long spin = 0;

	if (cfg.have_hog_cpus)
		apply_sched(&cfg.hog_cpus, policy);
	else
		apply_sched(cfg.have_cpus ? &cfg.cpus : NULL, policy);
	__atomic_add_fetch(&sh->h.ready, 1, __ATOMIC_RELEASE);
	for (;;)
		spin++;
}

/* ---- parent side -------------------------------------------------- */

static void mkpipe(int fds[2], bool nonblock)
{
	if (pipe2(fds, O_CLOEXEC | (nonblock ? O_NONBLOCK : 0)))
		sw_die("pipe");
}

static void add_task(task_fn fn, int arg)
{
	if (ntasks >= MAX_TASKS)
		sw_bad_usage("too many tasks (max %d)", MAX_TASKS);
	tasks[ntasks].fn = fn;
	tasks[ntasks].idx = ntasks;
	tasks[ntasks].arg = arg;
	ntasks++;
}

static void build_load(void)
{
	int i, n;

	switch (cfg.mode) {
	case MODE_PIPE:
		pp_ab = sw_xcalloc(cfg.pairs, sizeof(*pp_ab));
		pp_ba = sw_xcalloc(cfg.pairs, sizeof(*pp_ba));
		for (i = 0; i < cfg.pairs; i++) {
			mkpipe(pp_ab[i], false);
			mkpipe(pp_ba[i], false);
			add_task(pipe_ping, i);
			add_task(pipe_pong, i);
		}
		break;
	case MODE_MSG:
		n = cfg.groups * cfg.receivers;
		msg_fd = sw_xcalloc(n, sizeof(*msg_fd));
		for (i = 0; i < n; i++) {
			if (cfg.msg_pipes)
				mkpipe(msg_fd[i], false);
			else if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC,
					    0, msg_fd[i]))
				sw_die("socketpair");
			add_task(msg_receiver, i);
		}
		for (i = 0; i < cfg.groups * cfg.senders; i++)
			add_task(msg_sender, i / cfg.senders);
		break;
	case MODE_DISP:
		n = cfg.dispatchers * cfg.workers;
		rep = sw_xcalloc(cfg.dispatchers, sizeof(*rep));
		req = sw_xcalloc(n, sizeof(*req));
		side = sw_xcalloc(n, sizeof(*side));
		for (i = 0; i < cfg.dispatchers; i++) {
			mkpipe(rep[i], false);
			add_task(disp_dispatcher, i);
		}
		for (i = 0; i < n; i++) {
			mkpipe(req[i], false);
			side[i][0] = side[i][1] = -1;
			if (cfg.sw)
				mkpipe(side[i], true);
			add_task(disp_worker, i);
		}
		break;
	}
}

static pid_t fork_child(void (*body)(struct task *), struct task *t)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		sw_child_init(main_pid, pgid, gate[1]);
		body(t);
		_exit(0);
	}
	sw_join_group(pid, &pgid);
	t->pid = pid;
	return pid;
}

static void run_task_body(struct task *t)
{
	t->fn(t->idx, t->arg);
}

static void run_hog_body(struct task *t)
{
	hog_run(t->arg);
}

static void *thread_main(void *p)
{
	run_task_body(p);
	return NULL;
}

static void reap(struct task *t)
{
	if (t->pid <= 0 || t->reaped)
		return;
	while (waitpid(t->pid, NULL, 0) < 0 && errno == EINTR)
		;
	t->reaped = true;
}

static void kill_all(void)
{
	int i;

	if (pgid)
		kill(-pgid, SIGKILL);
	/* belt and braces should a child not have made it into the group */
	for (i = 0; i < ntasks; i++)
		if (tasks[i].pid > 0 && !tasks[i].reaped)
			kill(tasks[i].pid, SIGKILL);
	for (i = 0; i < nhogs; i++)
		if (hogs[i].pid > 0 && !hogs[i].reaped)
			kill(hogs[i].pid, SIGKILL);
	for (i = 0; i < ntasks; i++)
		reap(&tasks[i]);
	for (i = 0; i < nhogs; i++)
		reap(&hogs[i]);
	pgid = 0;	/* may be reused once the group is gone */
}

static void __noreturn finish(int code)
{
	kill_all();
	fflush(stdout);
	fflush(stderr);
	/* _exit: in --threads mode the workers are still blocked in syscalls */
	_exit(code);
}

/* Reap whatever exited; any exit before teardown is a failure. */
static bool reap_early(void)
{
	bool died = false;
	int i, st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (i = 0; i < ntasks; i++)
			if (tasks[i].pid == pid)
				tasks[i].reaped = true;
		for (i = 0; i < nhogs; i++)
			if (hogs[i].pid == pid)
				hogs[i].reaped = true;
		fprintf(stderr, PROG ": child %d exited early (status 0x%x)\n",
			(int)pid, st);
		died = true;
	}
	return died;
}

/* On SIGCHLD: any exit before teardown is a failure. */
static int on_child(void)
{
	return reap_early() ? -1 : 1;
}

#define OPT_BIT(c)	(1ULL << ((c) - 'A'))

static void check_mode_opts(uint64_t seen)
{
	static const struct {
		char opt;
		const char *name;
		unsigned int modes;
	} owners[] = {
		{ 'p', "-p", 1u << MODE_PIPE },
		{ 'g', "-g", 1u << MODE_MSG },
		{ 's', "-s", 1u << MODE_MSG },
		{ 'r', "-r", 1u << MODE_MSG },
		{ 'l', "-l", 1u << MODE_MSG },
		{ 'P', "--pipes", 1u << MODE_MSG },
		{ 'd', "-d", 1u << MODE_DISP },
		{ 'w', "-w", 1u << MODE_DISP },
		{ 'q', "-q", 1u << MODE_DISP },
		{ 'u', "-u", 1u << MODE_DISP },
		{ 'S', "--switch", 1u << MODE_DISP },
		{ 'k', "-k", 1u << MODE_DISP },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(owners); i++)
		if ((seen & OPT_BIT(owners[i].opt)) &&
		    !(owners[i].modes & (1u << cfg.mode)))
			sw_bad_usage("%s does not apply to mode %s", owners[i].name,
				     mode_name[cfg.mode]);
}

enum { O_THREADS = 256, O_CPUS, O_IDLE, O_HOG, O_HOG_IDLE, O_HOG_RT, O_HOG_CPUS };

static void parse_args(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "time", required_argument, NULL, 't' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "groups", required_argument, NULL, 'g' },
		{ "senders", required_argument, NULL, 's' },
		{ "receivers", required_argument, NULL, 'r' },
		{ "msgsize", required_argument, NULL, 'l' },
		{ "pipes", no_argument, NULL, 'P' },
		{ "dispatchers", required_argument, NULL, 'd' },
		{ "workers", required_argument, NULL, 'w' },
		{ "depth", required_argument, NULL, 'q' },
		{ "work-us", required_argument, NULL, 'u' },
		{ "switch", no_argument, NULL, 'S' },
		{ "peers", required_argument, NULL, 'k' },
		{ "threads", no_argument, NULL, O_THREADS },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "idle", no_argument, NULL, O_IDLE },
		{ "hog", required_argument, NULL, O_HOG },
		{ "hog-idle", required_argument, NULL, O_HOG_IDLE },
		{ "hog-rt", required_argument, NULL, O_HOG_RT },
		{ "hog-cpus", required_argument, NULL, O_HOG_CPUS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t seen = 0;
	int c, m;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:p:g:s:r:l:d:w:q:u:k:h",
				lopts, NULL)) != -1) {
		if (c < 128 && isalpha(c))
			seen |= OPT_BIT(c);
		switch (c) {
		case 't':
			cfg.secs = sw_parse_secs(optarg);
			break;
		case 'p':
			cfg.pairs = sw_parse_long("-p", optarg, 1, MAX_TASKS / 2);
			break;
		case 'g':
			cfg.groups = sw_parse_long("-g", optarg, 1, MAX_TASKS);
			break;
		case 's':
			cfg.senders = sw_parse_long("-s", optarg, 1, MAX_TASKS);
			break;
		case 'r':
			cfg.receivers = sw_parse_long("-r", optarg, 1, MAX_TASKS);
			break;
		case 'l':
			cfg.msgsize = sw_parse_long("-l", optarg, 1, 65536);
			break;
		case 'P':
			cfg.msg_pipes = true;
			break;
		case 'd':
			cfg.dispatchers = sw_parse_long("-d", optarg, 1, MAX_TASKS);
			break;
		case 'w':
			cfg.workers = sw_parse_long("-w", optarg, 1, MAX_TASKS);
			break;
		case 'q':
			cfg.depth = sw_parse_long("-q", optarg, 1, MAX_DEPTH);
			break;
		case 'u':
			cfg.work_us = sw_parse_long("-u", optarg, 0, 1000000);
			break;
		case 'S':
			cfg.sw = true;
			break;
		case 'k':
			cfg.peers = sw_parse_long("-k", optarg, 1, MAX_TASKS);
			break;
		case O_THREADS:
			cfg.threads = true;
			break;
		case O_CPUS:
			sw_parse_cpulist("--cpus", optarg, &cfg.cpus);
			cfg.have_cpus = true;
			break;
		case O_IDLE:
			cfg.idle = true;
			break;
		case O_HOG:
			cfg.hogs = sw_parse_long("--hog", optarg, 0, MAX_TASKS);
			break;
		case O_HOG_IDLE:
			cfg.hogs_idle = sw_parse_long("--hog-idle", optarg, 0, MAX_TASKS);
			break;
		case O_HOG_RT:
			cfg.hogs_rt = sw_parse_long("--hog-rt", optarg, 0, MAX_TASKS);
			break;
		case O_HOG_CPUS:
			sw_parse_cpulist("--hog-cpus", optarg, &cfg.hog_cpus);
			cfg.have_hog_cpus = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			sw_bad_option(c, argv);
		}
	}
	if (optind != argc - 1)
		sw_bad_usage(optind >= argc ? "no MODE given" : "exactly one MODE expected");
	for (m = 0; m <= MODE_DISP; m++)
		if (!strcmp(argv[optind], mode_name[m]))
			break;
	if (m > MODE_DISP)
		sw_bad_usage("unknown mode '%s'", argv[optind]);
	cfg.mode = m;
	check_mode_opts(seen);

	if (cfg.mode == MODE_MSG &&
	    (long)cfg.groups * (cfg.senders + cfg.receivers) > MAX_TASKS)
		sw_bad_usage("too many tasks (max %d)", MAX_TASKS);
	if (cfg.mode == MODE_DISP) {
		if ((long)cfg.dispatchers * (cfg.workers + 1) > MAX_TASKS)
			sw_bad_usage("too many tasks (max %d)", MAX_TASKS);
		if (!cfg.depth)
			cfg.depth = cfg.workers;
		if (cfg.sw && cfg.dispatchers * cfg.workers < 2)
			sw_bad_usage("--switch needs at least 2 workers in total");
		if ((seen & OPT_BIT('k')) && !cfg.sw)
			sw_bad_usage("-k only makes sense with --switch");
	}
	if (cfg.have_hog_cpus && !(cfg.hogs + cfg.hogs_idle + cfg.hogs_rt))
		sw_bad_usage("--hog-cpus without --hog/--hog-idle");
	if (cfg.hogs + cfg.hogs_idle + cfg.hogs_rt > MAX_TASKS)
		sw_bad_usage("too many hogs (max %d)", MAX_TASKS);
}

int main(int argc, char **argv)
{
	struct sw_kids k = {
		.on_child = on_child, .finish = finish,
		.setup_timeout = SETUP_TIMEOUT, .setup_step = 0.002,
	};
	unsigned long ops = 0;
	pthread_attr_t attr;
	struct rlimit rl;
	sigset_t set;
	double t0, t1;
	int i, r, sig = 0;

	sw_prog = PROG;
	sw_usage = usage;
	parse_args(argc, argv);
	main_pid = getpid();

	/* many pipes for large configs; take what the hard limit allows */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}

	sh = sw_map_shared(sizeof(*sh) + MAX_TASKS * sizeof(struct slot));

	/*
	 * Block the signals we care about for good and collect them with
	 * sigtimedwait(): no handlers, no races, and threads and children
	 * inherit the mask (children unblock in sw_child_init()).
	 */
	sw_kids_init(&k, &set, &sh->h);
	signal(SIGPIPE, SIG_IGN);

	mkpipe(gate, false);
	build_load();

	for (i = 0; i < cfg.hogs + cfg.hogs_idle + cfg.hogs_rt; i++) {
		hogs[i].arg = i < cfg.hogs ? SCHED_OTHER :
			      i < cfg.hogs + cfg.hogs_idle ? SCHED_IDLE : SCHED_FIFO;
		nhogs++;
		if (fork_child(run_hog_body, &hogs[i]) < 0) {
			perror(PROG ": fork");
			finish(1);
		}
	}
	/* small stacks: thousands of default 8 MiB stacks add up */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (i = 0; i < ntasks; i++) {
		if (cfg.threads)
			r = pthread_create(&tasks[i].thr, &attr, thread_main, &tasks[i]);
		else
			r = fork_child(run_task_body, &tasks[i]) < 0 ? errno : 0;
		if (r) {
			fprintf(stderr, PROG ": cannot start task %d: %s\n", i,
				strerror(r));
			finish(1);
		}
	}

	/* wait until every task is parked at the gate, then open it */
	sig = sw_run_gate(&k, ntasks + nhogs, gate[1], cfg.secs, &t0);

	/* snapshot before teardown: counters stop mattering after this */
	t1 = sw_now();
	for (i = 0; i < ntasks; i++)
		ops += __atomic_load_n(&sh->slot[i].ops, __ATOMIC_RELAXED);

	kill_all();
	printf(PROG ": mode=%s ops=%lu secs=%.3f ops_per_sec=%.1f\n",
	       mode_name[cfg.mode], ops, t1 - t0, ops / (t1 - t0));
	finish(sig ? 128 + sig : 0);
}
