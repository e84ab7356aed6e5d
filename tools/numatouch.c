// SPDX-License-Identifier: GPL-2.0
/*
 * numatouch - memory-touching load that feeds automatic NUMA balancing.
 *
 * Each task (a process: its own mm and NUMA scanner) maps MB of anonymous
 * memory and writes one byte per page, pass after pass, until the
 * deadline; --bind-node, --alloc-cpus and --unpin keep the memory remote
 * from the task so the balancer sees remote accesses (usage() below says
 * how each does it). Prints one line:
 * numatouch: tasks=.. passes=.. secs=.. (passes summed over the tasks).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "swtool.h"

#ifndef MPOL_F_NUMA_BALANCING
#define MPOL_F_NUMA_BALANCING	(1 << 13)
#endif

#define PROG		"numatouch"
#define MAX_TASKS	1024
#define MAX_NODE	1022	/* the kernel reads maxnode - 1 bits */
#define SETUP_TIMEOUT	120.0	/* first touch of big areas under TCG is slow */
#define EXIT_GRACE	2.0
#define STOP_CHECK	256	/* pages between looks at the stop flag */

static struct {
	double secs;
	long mb;
	int tasks;
	int bind_node;			/* -1: no policy */
	bool have_cpus, have_alloc_cpus, unpin;
	const char *pid_file;
	cpu_set_t cpus, alloc_cpus, start_cpus;
} cfg = { .secs = 5.0, .mb = 64, .tasks = 1, .bind_node = -1 };

struct slot {
	unsigned long passes;
} __aligned(64);

struct shared {
	struct sw_head h;
	struct slot slot[MAX_TASKS];
};

static struct shared *sh;
static pid_t main_pid, pgid;
static pid_t kids[MAX_TASKS];
static bool reaped[MAX_TASKS];
static int nkids;
static int gate[2] = { -1, -1 };

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [-t SECS] [-m MB] [-n TASKS] [--cpus LIST] [--bind-node N]\n"
"                 [--alloc-cpus LIST] [--unpin] [--pid-file FILE]\n"
"\n"
"Memory-touching load for NUMA hinting faults: each of TASKS processes\n"
"maps MB of anonymous memory and writes one byte per page in a loop\n"
"until SECS have passed. Prints one line:\n"
"  " PROG ": tasks=.. passes=.. secs=..\n"
"\n"
"  -t, --time SECS         run time, fractional ok (default 5)\n"
"  -m, --mb MB             memory per task in MiB (default 64)\n"
"  -n, --tasks TASKS       number of processes (default 1)\n"
"      --cpus LIST         pin the tasks to LIST, e.g. 0-3 or 1,2\n"
"      --bind-node N       keep the memory on node N: mbind(MPOL_BIND |\n"
"                          MPOL_F_NUMA_BALANCING) so the NUMA scanner still\n"
"                          samples it (falls back to plain MPOL_BIND, which\n"
"                          it skips, with a warning on kernels before 5.12)\n"
"      --alloc-cpus LIST   first-touch the memory on LIST, then run on\n"
"                          --cpus (remote but migratable memory)\n"
"      --unpin             after one pass on --cpus, run on any CPU\n"
"      --pid-file FILE     write the tasks' PIDs to FILE, one a line\n"
"  -h, --help              this text\n"
"\n"
"Pick CPUs of another node than the memory's so the accesses are remote;\n"
"kernel.numa_balancing must be 1 for hinting faults to happen.\n"
"Exit: 0 done; 1 runtime failure; 2 bad arguments; 128+sig if stopped by\n"
"SIGINT/SIGTERM/SIGHUP (the line is still printed for the time run).\n");
}

/* ---- tasks -------------------------------------------------------- */

static void __noreturn task_fail(int idx, const char *what)
{
	fprintf(stderr, PROG ": task %d: %s: %s\n", idx, what, strerror(errno));
	sw_tell_failure(&sh->h, main_pid);
	_exit(1);
}

static void bind_area(int idx, void *p, size_t len)
{
	unsigned long mask[(MAX_NODE + 2) / (8 * sizeof(unsigned long))] = { 0 };
	unsigned long maxnode = sizeof(mask) * 8;
	int node = cfg.bind_node;

	mask[node / (8 * sizeof(long))] |= 1UL << (node % (8 * sizeof(long)));
	if (syscall(SYS_mbind, p, len, MPOL_BIND | MPOL_F_NUMA_BALANCING,
		    mask, maxnode, 0) == 0)
		return;
	if (errno != EINVAL)
		task_fail(idx, "mbind");
	/* pre-5.12, or node N not usable: tell which by trying plain BIND */
	if (syscall(SYS_mbind, p, len, MPOL_BIND, mask, maxnode, 0))
		task_fail(idx, "mbind(MPOL_BIND)");
	if (idx == 0)
		fprintf(stderr, PROG ": warning: MPOL_F_NUMA_BALANCING refused; "
			"the NUMA scanner will skip the bound memory\n");
}

static void task(int idx)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)cfg.mb << 20, npages = len / page, i;
	unsigned long passes = 0;
	volatile char *mem;

	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		task_fail(idx, "mmap");
	if (cfg.bind_node >= 0)
		bind_area(idx, (void *)mem, len);

	/* first touch decides where the pages live */
	if (cfg.have_alloc_cpus &&
	    sched_setaffinity(0, sizeof(cfg.alloc_cpus), &cfg.alloc_cpus))
		task_fail(idx, "sched_setaffinity(--alloc-cpus)");
	else if (!cfg.have_alloc_cpus && cfg.have_cpus &&
		 sched_setaffinity(0, sizeof(cfg.cpus), &cfg.cpus))
		task_fail(idx, "sched_setaffinity(--cpus)");
	for (i = 0; i < npages; i++)
		mem[i * page] = 1;
	/* then run where asked, or wherever we could run at start */
	if (cfg.have_alloc_cpus &&
	    sched_setaffinity(0, sizeof(cpu_set_t),
			      cfg.have_cpus ? &cfg.cpus : &cfg.start_cpus))
		task_fail(idx, "sched_setaffinity(--cpus)");

	sw_gate_wait(&sh->h, gate[0]);

	for (;;) {
		for (i = 0; i < npages; i++) {
			mem[i * page]++;
			if (!(i % STOP_CHECK) &&
			    __atomic_load_n(&sh->h.stop, __ATOMIC_RELAXED))
				return;
		}
		__atomic_store_n(&sh->slot[idx].passes, ++passes,
				 __ATOMIC_RELAXED);
		if (cfg.unpin && passes == 1 &&
		    sched_setaffinity(0, sizeof(cfg.start_cpus), &cfg.start_cpus))
			task_fail(idx, "sched_setaffinity(--unpin)");
	}
}

/* ---- parent ------------------------------------------------------- */

/* --pid-file: written whole under a temporary name, then renamed */
static void write_pids(void)
{
	char tmp[4096];
	FILE *f;
	int i;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", cfg.pid_file) >= (int)sizeof(tmp))
		sw_die("--pid-file: name too long");
	f = fopen(tmp, "w");
	if (!f)
		sw_die("--pid-file");
	for (i = 0; i < nkids; i++)
		fprintf(f, "%d\n", (int)kids[i]);
	if (fclose(f) || rename(tmp, cfg.pid_file))
		sw_die("--pid-file");
}

static void spawn(int idx)
{
	pid_t pid = fork();

	if (pid < 0)
		sw_die("fork");
	if (pid == 0) {
		sw_child_init(main_pid, pgid, gate[1]);
		task(idx);
		_exit(0);
	}
	sw_join_group(pid, &pgid);
	kids[nkids++] = pid;
}

static void __noreturn finish(int code)
{
	sw_kill_group(&pgid, kids, reaped, nkids);
	fflush(stdout);
	exit(code);
}

static bool child_exit_ok;	/* in the grace period after stop */

/* On SIGCHLD: an early exit is a failure; all gone ends a wait. */
static int on_child(void)
{
	if (sw_reap_nohang(kids, reaped, nkids) && !child_exit_ok) {
		fprintf(stderr, PROG ": a task exited early\n");
		return -1;
	}
	return sw_all_reaped(reaped, nkids) ? 0 : 1;
}

enum { O_CPUS = 256, O_BIND_NODE, O_ALLOC_CPUS, O_UNPIN, O_PID_FILE };

static void check_node(int node)
{
	char path[64];
	struct stat st;

	/* only judge when sysfs can tell; otherwise mbind will */
	if (stat("/sys/devices/system/node", &st))
		return;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", node);
	if (stat(path, &st))
		sw_bad_usage("--bind-node: node %d does not exist", node);
}

static void parse_args(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "time", required_argument, NULL, 't' },
		{ "mb", required_argument, NULL, 'm' },
		{ "tasks", required_argument, NULL, 'n' },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "bind-node", required_argument, NULL, O_BIND_NODE },
		{ "alloc-cpus", required_argument, NULL, O_ALLOC_CPUS },
		{ "unpin", no_argument, NULL, O_UNPIN },
		{ "pid-file", required_argument, NULL, O_PID_FILE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:m:n:h", lopts, NULL)) != -1) {
		switch (c) {
		case 't':
			cfg.secs = sw_parse_secs(optarg);
			break;
		case 'm':
			cfg.mb = sw_parse_long("-m", optarg, 1, 1L << 20);
			break;
		case 'n':
			cfg.tasks = sw_parse_long("-n", optarg, 1, MAX_TASKS);
			break;
		case O_CPUS:
			sw_parse_cpulist("--cpus", optarg, &cfg.cpus);
			cfg.have_cpus = true;
			break;
		case O_ALLOC_CPUS:
			sw_parse_cpulist("--alloc-cpus", optarg, &cfg.alloc_cpus);
			cfg.have_alloc_cpus = true;
			break;
		case O_PID_FILE:
			cfg.pid_file = optarg;
			break;
		case O_UNPIN:
			cfg.unpin = true;
			break;
		case O_BIND_NODE:
			cfg.bind_node = sw_parse_long("--bind-node", optarg, 0, MAX_NODE);
			check_node(cfg.bind_node);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			sw_bad_option(c, argv);
		}
	}
	if (optind < argc)
		sw_bad_usage("unexpected argument '%s'", argv[optind]);
}

int main(int argc, char **argv)
{
	struct sw_kids k = {
		.on_child = on_child, .finish = finish,
		.setup_timeout = SETUP_TIMEOUT, .setup_step = 0.005,
	};
	unsigned long passes = 0;
	double t0, t1;
	sigset_t set;
	int i, sig;

	sw_prog = PROG;
	sw_usage = usage;
	parse_args(argc, argv);
	main_pid = getpid();
	if (sched_getaffinity(0, sizeof(cfg.start_cpus), &cfg.start_cpus))
		sw_die("sched_getaffinity");

	sh = sw_map_shared(sizeof(*sh));
	/* collect signals synchronously; children unblock them */
	sw_kids_init(&k, &set, &sh->h);

	if (pipe(gate))
		sw_die("pipe");
	for (i = 0; i < cfg.tasks; i++)
		spawn(i);
	if (cfg.pid_file)
		write_pids();

	sig = sw_run_gate(&k, cfg.tasks, gate[1], cfg.secs, &t0);
	__atomic_store_n(&sh->h.stop, 1, __ATOMIC_RELAXED);
	t1 = sw_now();
	for (i = 0; i < cfg.tasks; i++)
		passes += __atomic_load_n(&sh->slot[i].passes, __ATOMIC_RELAXED);

	/* tasks look at the stop flag every STOP_CHECK pages */
	if (!sig) {
		child_exit_ok = true;
		sw_wait_until(&k, sw_now() + EXIT_GRACE);
	}
	sw_kill_group(&pgid, kids, reaped, nkids);

	printf(PROG ": tasks=%d passes=%lu secs=%.3f\n", cfg.tasks, passes,
	       t1 - t0);
	fflush(stdout);
	return sig ? 128 + sig : 0;
}
