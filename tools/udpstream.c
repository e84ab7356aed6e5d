// SPDX-License-Identifier: GPL-2.0
/*
 * udpstream - netperf UDP_STREAM-like load over loopback.
 *
 * A receiver process bound to 127.0.0.1 and a sender process blasting
 * datagrams at it, each optionally pinned.  This is the load of the 2012
 * "UDP_STREAM regression due to not sending IPIs in ttwu_queue()" thread,
 * where the two ends sat on CPUs 0 and 1 of one LLC and receiver-side
 * throughput was the figure that moved.  Prints one line:
 *   udpstream: send_msgs=.. recv_msgs=.. recv_mbps=.. recv_msgs_per_sec=..
 * recv_mbps is in 10^6 bits/s of payload, as netperf reports it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG		"udpstream"
#define EXIT_USAGE	2
#define MAX_UDP		65507	/* largest IPv4 UDP payload */
#define SETUP_TIMEOUT	30.0
#define EXIT_GRACE	2.0	/* seconds to let the children notice stop */

static struct {
	double secs;
	int size, port;
	int send_cpu, recv_cpu;		/* -1: not pinned */
} cfg = { .secs = 5.0, .size = 1024, .port = 0, .send_cpu = -1, .recv_cpu = -1 };

/* The sender's and the receiver's counters on separate cache lines. */
struct shared {
	int ready __attribute__((aligned(64)));
	int failed;
	int stop;
	unsigned long send_msgs __attribute__((aligned(64)));
	unsigned long recv_msgs __attribute__((aligned(64)));
	unsigned long recv_bytes;
};

static struct shared *sh;
static pid_t main_pid, pgid;
static pid_t kids[2];
static bool reaped[2];
static int gate[2] = { -1, -1 };

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [-t SECS] [-s SIZE] [--send-cpu N] [--recv-cpu M] [-p PORT]\n"
"\n"
"netperf UDP_STREAM-like load over loopback: a receiver bound to\n"
"127.0.0.1 and a sender blasting SIZE-byte datagrams at it for SECS.\n"
"Models the 2012 ttwu_queue()/IPI UDP_STREAM regression (receiver and\n"
"sender pinned to two CPUs sharing a cache). Prints one line:\n"
"  " PROG ": send_msgs=.. recv_msgs=.. recv_mbps=.. recv_msgs_per_sec=..\n"
"Receiver-side throughput is the figure to compare; datagrams the\n"
"receiver could not keep up with are dropped, as with netperf.\n"
"If lo is down (bare initramfs) it is brought up first (needs root).\n"
"\n"
"  -t, --time SECS      run time, fractional ok (default 5)\n"
"  -s, --size SIZE      datagram payload bytes, 1..%d (default 1024)\n"
"      --send-cpu N     pin the sender to CPU N\n"
"      --recv-cpu M     pin the receiver to CPU M\n"
"  -p, --port PORT      receiver UDP port (default: any free port)\n"
"  -h, --help           this text\n"
"\n"
"Exit: 0 done; 1 runtime failure; 2 bad arguments; 128+sig if stopped by\n"
"SIGINT/SIGTERM/SIGHUP (the line is still printed for the time run).\n",
		MAX_UDP);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n\n");
	usage(stderr);
	exit(EXIT_USAGE);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse_int(const char *opt, const char *s, int min, int max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		bad_usage("%s: expected an integer in [%d, %d], got '%s'",
			  opt, min, max, s);
	return (int)v;
}

static double parse_secs(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 1e6)
		bad_usage("-t: expected seconds > 0, got '%s'", s);
	return v;
}

static int parse_cpu(const char *opt, const char *s)
{
	int cpu = parse_int(opt, s, 0, CPU_SETSIZE - 1);
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0 &&
	    !CPU_ISSET(cpu, &allowed))
		bad_usage("%s: CPU %d is not online/allowed", opt, cpu);
	return cpu;
}

static void die(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * A bare busybox initramfs leaves lo down, and then connect() to
 * 127.0.0.1 fails with ENETUNREACH: bring it up (needs root) and say so.
 */
static void loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket");
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			fprintf(stderr, PROG ": lo is down and cannot be brought up: %s\n",
				strerror(errno));
		else
			fprintf(stderr, PROG ": note: brought lo up\n");
	}
	close(fd);
}

/* ---- children ----------------------------------------------------- */

static void __attribute__((noreturn)) child_fail(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	__atomic_store_n(&sh->failed, 1, __ATOMIC_RELAXED);
	kill(main_pid, SIGUSR1);
	_exit(1);
}

static void child_enter(int cpu)
{
	cpu_set_t set;
	char c;

	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			child_fail("sched_setaffinity");
	}
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_RELEASE);
	while (read(gate[0], &c, 1) < 0 && errno == EINTR)
		;
}

static inline bool stopped(void)
{
	return __atomic_load_n(&sh->stop, __ATOMIC_RELAXED);
}

static void receiver(int fd)
{
	static char buf[65536];
	/* wake up regularly to see the stop flag even if nothing arrives */
	struct timeval tv = { .tv_sec = 0, .tv_usec = 100 * 1000 };
	unsigned long msgs = 0, bytes = 0;
	ssize_t n;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		child_fail("SO_RCVTIMEO");
	child_enter(cfg.recv_cpu);
	while (!stopped()) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				continue;
			child_fail("recv");
		}
		msgs++;
		bytes += n;
		__atomic_store_n(&sh->recv_bytes, bytes, __ATOMIC_RELAXED);
		__atomic_store_n(&sh->recv_msgs, msgs, __ATOMIC_RELAXED);
	}
}

static void sender(int fd)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = 100 * 1000 };
	unsigned long msgs = 0;
	char *buf = calloc(1, cfg.size);

	if (!buf)
		child_fail("calloc");
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		child_fail("SO_SNDTIMEO");
	child_enter(cfg.send_cpu);
	while (!stopped()) {
		if (send(fd, buf, cfg.size, 0) < 0) {
			/* transient: full queues, or an ICMP error bounced back */
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == EINTR || errno == ENOBUFS ||
			    errno == ECONNREFUSED)
				continue;
			child_fail("send");
		}
		__atomic_store_n(&sh->send_msgs, ++msgs, __ATOMIC_RELAXED);
	}
	free(buf);
}

static void spawn(int i, void (*fn)(int), int fd, int other_fd)
{
	sigset_t none;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != main_pid)
			_exit(1);
		setpgid(0, pgid);
		close(gate[1]);
		close(other_fd);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		fn(fd);
		_exit(0);
	}
	if (!pgid)
		pgid = pid;
	setpgid(pid, pgid);
	kids[i] = pid;
}

/* ---- parent ------------------------------------------------------- */

static bool reap_nohang(void)
{
	bool any = false;
	pid_t pid;
	int i, st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (i = 0; i < 2; i++)
			if (kids[i] == pid)
				reaped[i] = true;
		any = true;
	}
	return any;
}

static void kill_all(void)
{
	int i;

	if (pgid)
		kill(-pgid, SIGKILL);
	for (i = 0; i < 2; i++) {
		if (kids[i] <= 0 || reaped[i])
			continue;
		kill(kids[i], SIGKILL);
		while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
			;
		reaped[i] = true;
	}
	pgid = 0;
}

static void __attribute__((noreturn)) finish(int code)
{
	kill_all();
	fflush(stdout);
	exit(code);
}

/* Sleep until @until or a signal; 0 timeout, >0 signal, -1 failure. */
static int wait_until(const sigset_t *set, double until, bool child_exit_ok)
{
	struct timespec ts;
	double left;
	int sig;

	for (;;) {
		left = until - now();
		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		sig = sigtimedwait(set, NULL, &ts);
		if (sig < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			die("sigtimedwait");
		}
		if (sig == SIGCHLD) {
			if (reap_nohang() && !child_exit_ok) {
				fprintf(stderr, PROG ": a child exited early\n");
				return -1;
			}
			if (reaped[0] && reaped[1])
				return 0;
		} else if (sig == SIGUSR1) {
			if (__atomic_load_n(&sh->failed, __ATOMIC_RELAXED))
				return -1;
		} else {
			return sig;
		}
	}
}

enum { O_SEND_CPU = 256, O_RECV_CPU };

static void parse_args(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "time", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ "port", required_argument, NULL, 'p' },
		{ "send-cpu", required_argument, NULL, O_SEND_CPU },
		{ "recv-cpu", required_argument, NULL, O_RECV_CPU },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:s:p:h", lopts, NULL)) != -1) {
		switch (c) {
		case 't':
			cfg.secs = parse_secs(optarg);
			break;
		case 's':
			cfg.size = parse_int("-s", optarg, 1, MAX_UDP);
			break;
		case 'p':
			cfg.port = parse_int("-p", optarg, 0, 65535);
			break;
		case O_SEND_CPU:
			cfg.send_cpu = parse_cpu("--send-cpu", optarg);
			break;
		case O_RECV_CPU:
			cfg.recv_cpu = parse_cpu("--recv-cpu", optarg);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			bad_usage("option %s needs an argument", argv[optind - 1]);
		default:
			if (optopt && optopt < 128)
				bad_usage("unknown option -%c", optopt);
			bad_usage("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument '%s'", argv[optind]);
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	unsigned long sent, rmsgs, rbytes;
	double t0, t1, setup_end;
	int rx, tx, r, sig;
	sigset_t set;

	parse_args(argc, argv);
	main_pid = getpid();

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");

	/* collect signals synchronously; children unblock them */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);

	loopback_up();
	/* bind before forking so the sender can never beat the receiver */
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0)
		die("socket");
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addr.sin_port = htons(cfg.port);
	if (bind(rx, (struct sockaddr *)&addr, sizeof(addr)))
		die("bind 127.0.0.1");
	if (getsockname(rx, (struct sockaddr *)&addr, &alen))
		die("getsockname");
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (tx < 0)
		die("socket");
	if (connect(tx, (struct sockaddr *)&addr, sizeof(addr)))
		die("connect");

	if (pipe(gate))
		die("pipe");
	spawn(0, receiver, rx, tx);
	spawn(1, sender, tx, rx);
	close(rx);
	close(tx);

	setup_end = now() + SETUP_TIMEOUT;
	while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) < 2) {
		if (now() > setup_end) {
			fprintf(stderr, PROG ": children did not start\n");
			finish(1);
		}
		r = wait_until(&set, now() + 0.002, false);
		if (r < 0)
			finish(1);
		if (r > 0)
			finish(128 + r);
	}

	t0 = now();
	close(gate[1]);
	sig = wait_until(&set, t0 + cfg.secs, false);
	if (sig < 0)
		finish(1);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	t1 = now();
	sent = __atomic_load_n(&sh->send_msgs, __ATOMIC_RELAXED);
	rmsgs = __atomic_load_n(&sh->recv_msgs, __ATOMIC_RELAXED);
	rbytes = __atomic_load_n(&sh->recv_bytes, __ATOMIC_RELAXED);

	/* both ends poll the stop flag at least every 100 ms */
	if (!sig)
		wait_until(&set, now() + EXIT_GRACE, true);
	kill_all();

	printf(PROG ": send_msgs=%lu recv_msgs=%lu recv_mbps=%.2f recv_msgs_per_sec=%.1f\n",
	       sent, rmsgs, rbytes * 8.0 / 1e6 / (t1 - t0), rmsgs / (t1 - t0));
	fflush(stdout);
	return sig ? 128 + sig : 0;
}
