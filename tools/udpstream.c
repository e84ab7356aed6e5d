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
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "swtool.h"

#define PROG		"udpstream"
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
	struct sw_head h;
	unsigned long send_msgs __aligned(64);
	unsigned long recv_msgs __aligned(64);
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

/*
 * A bare busybox initramfs leaves lo down, and then connect() to
 * 127.0.0.1 fails with ENETUNREACH: bring it up (needs root) and say so.
 */
static void loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		sw_die("socket");
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

static void __noreturn child_fail(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	sw_tell_failure(&sh->h, main_pid);
	_exit(1);
}

static void child_enter(int cpu)
{
	cpu_set_t set;

	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			child_fail("sched_setaffinity");
	}
	sw_gate_wait(&sh->h, gate[0]);
}

static inline bool stopped(void)
{
	return __atomic_load_n(&sh->h.stop, __ATOMIC_RELAXED);
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
		child_fail("calloc");	/* a child reports to the parent */
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
	pid_t pid = fork();

	if (pid < 0)
		sw_die("fork");
	if (pid == 0) {
		sw_child_init(main_pid, pgid, gate[1]);
		close(other_fd);
		fn(fd);
		_exit(0);
	}
	sw_join_group(pid, &pgid);
	kids[i] = pid;
}

/* ---- parent ------------------------------------------------------- */

static void __noreturn finish(int code)
{
	sw_kill_group(&pgid, kids, reaped, 2);
	fflush(stdout);
	exit(code);
}

static bool child_exit_ok;	/* in the grace period after stop */

/* On SIGCHLD: an early exit is a failure; both gone ends a wait. */
static int on_child(void)
{
	if (sw_reap_nohang(kids, reaped, 2) && !child_exit_ok) {
		fprintf(stderr, PROG ": a child exited early\n");
		return -1;
	}
	return sw_all_reaped(reaped, 2) ? 0 : 1;
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
			cfg.secs = sw_parse_secs(optarg);
			break;
		case 's':
			cfg.size = sw_parse_long("-s", optarg, 1, MAX_UDP);
			break;
		case 'p':
			cfg.port = sw_parse_long("-p", optarg, 0, 65535);
			break;
		case O_SEND_CPU:
			cfg.send_cpu = sw_parse_cpu("--send-cpu", optarg);
			break;
		case O_RECV_CPU:
			cfg.recv_cpu = sw_parse_cpu("--recv-cpu", optarg);
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
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	unsigned long sent, rmsgs, rbytes;
	struct sw_kids k = {
		.on_child = on_child, .finish = finish,
		.setup_timeout = SETUP_TIMEOUT, .setup_step = 0.002,
		.late = "children did not start",
	};
	double t0, t1;
	int rx, tx, sig;
	sigset_t set;

	sw_prog = PROG;
	sw_usage = usage;
	parse_args(argc, argv);
	main_pid = getpid();

	sh = sw_map_shared(sizeof(*sh));
	/* collect signals synchronously; children unblock them */
	sw_kids_init(&k, &set, &sh->h);

	loopback_up();
	/* bind before forking so the sender can never beat the receiver */
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0)
		sw_die("socket");
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addr.sin_port = htons(cfg.port);
	if (bind(rx, (struct sockaddr *)&addr, sizeof(addr)))
		sw_die("bind 127.0.0.1");
	if (getsockname(rx, (struct sockaddr *)&addr, &alen))
		sw_die("getsockname");
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (tx < 0)
		sw_die("socket");
	if (connect(tx, (struct sockaddr *)&addr, sizeof(addr)))
		sw_die("connect");

	if (pipe(gate))
		sw_die("pipe");
	spawn(0, receiver, rx, tx);
	spawn(1, sender, tx, rx);
	close(rx);
	close(tx);

	sig = sw_run_gate(&k, 2, gate[1], cfg.secs, &t0);
	__atomic_store_n(&sh->h.stop, 1, __ATOMIC_RELAXED);
	t1 = sw_now();
	sent = __atomic_load_n(&sh->send_msgs, __ATOMIC_RELAXED);
	rmsgs = __atomic_load_n(&sh->recv_msgs, __ATOMIC_RELAXED);
	rbytes = __atomic_load_n(&sh->recv_bytes, __ATOMIC_RELAXED);

	/* both ends poll the stop flag at least every 100 ms */
	if (!sig) {
		child_exit_ok = true;
		sw_wait_until(&k, sw_now() + EXIT_GRACE);
	}
	sw_kill_group(&pgid, kids, reaped, 2);

	printf(PROG ": send_msgs=%lu recv_msgs=%lu recv_mbps=%.2f recv_msgs_per_sec=%.1f\n",
	       sent, rmsgs, rbytes * 8.0 / 1e6 / (t1 - t0), rmsgs / (t1 - t0));
	fflush(stdout);
	return sig ? 128 + sig : 0;
}
