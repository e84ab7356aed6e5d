// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake bpf: BPF placement policies on the module's struct_ops
 * (struct smartwake_ops, kernels >= 6.9), through libbpf (linked
 * statically). This file holds the help, the subcommand table and the
 * small subcommands; bpf.h lists the others' files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpf.h"
#include "cmd.h"

#define DEF_CALLBACK	"select_cpu"
#define MAX_SETS	32

static const char help[] =
	"usage: smartwake bpf load [--set NAME=VALUE]... [--verbose] [--dry-run] FILE.bpf.o\n"
	"       smartwake bpf load [--callback NAME] [--verbose] [--dry-run] BUILTIN\n"
	"       smartwake bpf load --struct-ops TYPE --callback NAME BUILTIN\n"
	"       smartwake bpf unload\n"
	"       smartwake bpf status\n"
	"       smartwake bpf stats\n"
	"       smartwake bpf log [--count N] [--timeout SECS]\n"
	"       smartwake bpf vmlinux [-o FILE] [--btf FILE] [--module-btf FILE] [--no-module]\n"
	"       smartwake bpf list\n"
	"       smartwake bpf btf-id [--base VMLINUX] BTF-FILE TYPE [MEMBER]\n"
	"\n"
	"Attach a BPF placement policy to the module's struct_ops (struct\n"
	"smartwake_ops, kernels >= 6.9 with the module loaded), detach it, show it.\n"
	"Policies are written as sched_ext's schedulers are: vmlinux.h, libbpf's\n"
	"bpf_helpers.h, <smartwake/smartwake.bpf.h>, maps for state and statistics,\n"
	"CO-RE reads; the callbacks (each optional, a negative return: the knobs\n"
	"decide):\n"
	"  s32 select_cpu(struct task_struct *p, s32 prev_cpu, u64 wake_flags)\n"
	"  s32 wake_wide(struct task_struct *p, u32 waker_flips, u32 wakee_flips,\n"
	"                u32 factor)\n"
	"  s32 wake_affine(struct task_struct *p, s32 prev_cpu, s32 this_cpu, u32 sync)\n"
	"  s32 select_idle(struct task_struct *p, s32 prev_cpu, s32 target)\n"
	"An attached policy stays after this command exits, until \"smartwake bpf\n"
	"unload\"; one at a time. While one is attached the module cannot be removed.\n"
	"\n"
	"  load FILE.bpf.o    open the object (libbpf), set its variables, load it\n"
	"                     with CO-RE relocations for the running kernel, attach\n"
	"                     every struct_ops map and pin the links and maps under\n"
	"                     " PIN_DIR "/ (mounting " BPFFS " if needed); the last\n"
	"                     line is \"attached map_id=N prog=NAME,...\"\n"
	"  --set NAME=VALUE   an integer or bool global of the object's .rodata (a\n"
	"                     const volatile tunable), .data or .bss; repeatable\n"
	"  load BUILTIN       a built-in test program (\"smartwake bpf list\") as the\n"
	"                     --callback NAME member (default select_cpu)\n"
	"  --verbose          on a refusal, all of libbpf's and the verifier's lines\n"
	"                     (default: the last 60), then the fix where it is known\n"
	"  --dry-run          an object: its programs and maps; a built-in: its\n"
	"                     instructions (hex); no bpf(2) call\n"
	"  --struct-ops TYPE  testing: load a built-in for member --callback of\n"
	"                     vmlinux's struct_ops TYPE, never attached (the module's\n"
	"                     kfuncs are refused there)\n"
	"  unload             detach the attached policy, by any loader (a link by\n"
	"                     BPF_LINK_DETACH, a plain map by deleting its element),\n"
	"                     remove the pins, wait until the kernel freed it (exit 1\n"
	"                     if none)\n"
	"  status             the attached policy: its map and link ids, program ids\n"
	"                     and names, and \"set aside by revert_on=violation ...\"\n"
	"                     when an invalid answer made the module stop calling it\n"
	"                     (\"module state unknown: ...\" when the module's debugfs\n"
	"                     bpf file cannot be read); the last line is \"attached\n"
	"                     map_id=N prog=NAME\" or \"detached\"\n"
	"  stats              the attached programs' per-CPU array maps, each member\n"
	"                     of the value's struct by name, summed over CPUs, then\n"
	"                     the module's bpf_* counters\n"
	"  log                follow the programs' bpf_printk() lines (trace_pipe);\n"
	"                     --count N: stop after N lines, --timeout SECS: after\n"
	"                     SECS (exit 1 if no line came)\n"
	"  vmlinux            write vmlinux.h: the running kernel's types (--btf\n"
	"                     FILE: another BTF or vmlinux) and, when the module's\n"
	"                     BTF is there, its types (then SMARTWAKE_VMLINUX_HAS_OPS\n"
	"                     is defined); -o FILE, default standard output\n"
	"  list               the built-in programs\n"
	"  btf-id             debugging: the id, kind and size of TYPE in a BTF file\n"
	"                     (a module's BTF with --base VMLINUX), the index and\n"
	"                     byte offset of its MEMBER; loads nothing\n"
	"\n"
	"load, unload, status and stats need root (CAP_BPF and CAP_PERFMON to load,\n"
	"CAP_SYS_ADMIN to find the module's BTF and the attached map).\n";

static bool is_object(const char *arg)
{
	size_t n = strlen(arg);

	return strchr(arg, '/') || (n > 2 && !strcmp(arg + n - 2, ".o"));
}

static int do_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "callback", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "struct-ops", required_argument, NULL, 't' },
		{ "obj", required_argument, NULL, 'o' },
		{ "section", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	const char *callback = NULL, *foreign = NULL;
	char *sets[MAX_SETS];
	const struct builtin *b;
	unsigned int nsets = 0;
	bool verbose = false, dry = false;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			callback = optarg;
			break;
		case 's':
			if (nsets == MAX_SETS)
				return bad_usage("bpf", "load: at most %d --set", MAX_SETS);
			sets[nsets++] = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'n':
			dry = true;
			break;
		case 't':
			foreign = optarg;
			break;
		case 'o':
		case 'S':
			return bad_usage("bpf", "load: --obj and --section are gone: smartwake bpf load FILE.bpf.o (its struct_ops map names the callbacks)");
		default:
			return bad_usage("bpf", "load: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return bad_usage("bpf", "load: which program? (FILE.bpf.o, or a built-in: smartwake bpf list)");
	if (optind + 1 < argc)
		return bad_usage("bpf", "load: unexpected argument '%s'", argv[optind + 1]);
	if (is_object(argv[optind])) {
		if (callback || foreign)
			return bad_usage("bpf", "load: --callback and --struct-ops are for built-ins (an object's struct_ops map names its callbacks)");
		return load_object(argv[optind], sets, nsets, verbose, dry);
	}
	if (nsets)
		return bad_usage("bpf", "load: --set is for objects (FILE.bpf.o)");
	if (foreign && !callback)
		return bad_usage("bpf", "load: --struct-ops with --callback");
	b = find_builtin(argv[optind]);
	if (!b)
		return bad_usage("bpf", "load: no built-in program '%s' (smartwake bpf list; an object file: FILE.bpf.o)",
				 argv[optind]);
	return load_builtin(b, callback ? callback : DEF_CALLBACK, foreign, verbose, dry);
}

static int do_list(int argc, char **argv)
{
	unsigned int i;

	if (argc > 1)
		return bad_usage("bpf", "list: unexpected argument '%s'", argv[1]);
	for (i = 0; i < nr_builtins; i++)
		printf("%-10s %s\n", builtins[i].name, builtins[i].desc);
	return EXIT_OK;
}

/* the trace pipe, where bpf_printk() writes */
static int open_trace_pipe(void)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/trace_pipe", "/sys/kernel/debug/tracing/trace_pipe",
	};
	unsigned int i;
	int fd = -1;

	for (i = 0; i < ARRAY_SIZE(paths) && fd < 0; i++)
		fd = open(paths[i], O_RDONLY | O_NONBLOCK);
	return fd;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the lines bpf_printk() wrote, as they come */
static int do_log(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	char buf[4096], line[1024];
	unsigned long count = 0, seen = 0;
	double timeout = 0, end;
	size_t len = 0;
	int c, fd;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		char *e;

		switch (c) {
		case 'c':
			count = strtoul(optarg, &e, 10);
			if (*e || !count)
				return bad_usage("bpf", "log: --count takes a positive number");
			break;
		case 't':
			timeout = strtod(optarg, &e);
			if (*e || timeout <= 0)
				return bad_usage("bpf", "log: --timeout takes seconds > 0");
			break;
		default:
			return bad_usage("bpf", "log: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("bpf", "log: unexpected argument '%s'", argv[optind]);
	fd = open_trace_pipe();
	if (fd < 0) {
		sw_err("cannot open the trace pipe: %s (mount tracefs: mount -t tracefs none /sys/kernel/tracing; under lockdown=confidentiality tracefs is closed)",
		       strerror(errno));
		return EXIT_RUNTIME;
	}
	catch_signals();
	end = now_s() + timeout;
	while (!got_signal && (!count || seen < count)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = timeout ? end - now_s() : 1;
		ssize_t n;
		char *nl;

		if (left <= 0)
			break;
		if (poll(&p, 1, left > 1 ? 1000 : (int)(left * 1000) + 1) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			continue;
		for (ssize_t i = 0; i < n; i++) {
			if (len < sizeof(line) - 1)
				line[len++] = buf[i];
			if (buf[i] != '\n')
				continue;
			line[len] = '\0';
			len = 0;
			nl = strstr(line, "bpf_trace_printk: ");
			if (!nl)
				continue;
			fputs(line, stdout);
			fflush(stdout);
			if (count && ++seen >= count)
				break;
			if (!count)
				seen++;
		}
	}
	close(fd);
	if (!seen && timeout) {
		sw_err("no bpf_printk() line in %g s", timeout);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} subs[] = {
	{ "load", do_load },
	{ "unload", do_unload },
	{ "status", do_status },
	{ "stats", do_stats },
	{ "log", do_log },
	{ "vmlinux", do_vmlinux },
	{ "list", do_list },
	{ "btf-id", do_btf_id },
};

static int do_bpf(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2)
		return bad_usage("bpf", "which subcommand? (load, unload, status, stats, log, vmlinux, list)");
	if (is_help_opt(argv[1]) || (argc > 2 && is_help_opt(argv[2]))) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(subs); i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].run(argc - 1, argv + 1);
	return bad_usage("bpf", "unknown subcommand '%s'", argv[1]);
}

const struct cli_cmd cmd_bpf = {
	.name = "bpf",
	.args = "load|unload|status|stats|log|vmlinux|list",
	.summary = "a BPF placement policy on the module's struct_ops (6.9+, libbpf)",
	.help = help,
	.run = do_bpf,
};
