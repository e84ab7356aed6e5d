// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: the machine-state record (machine.h). Every
 * file is read the same way: absent (ENOENT) is an absent entry, any
 * other failure (EPERM under lockdown, EACCES without root) an
 * unreadable one naming the error; nothing here fails.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "json.h"
#include "machine.h"

/* larger files are no tunables (sched/debug is a dump): not recorded */
#define MAX_TUNABLE	1024

const char *sched_dir = DEF_SCHED_DEBUG;
const char *sysctl_dir = DEF_SYSCTL;
const char *cpu_dir = DEF_CPU_SYSFS;
static const char *node_dir = DEF_NODE_SYSFS;
static const char *cmdline_path = DEF_CMDLINE;
static const char *cpuinfo_path = DEF_CPUINFO;
static const char *stat_path = DEF_PROC_STAT;
static const char *thp_path = DEF_THP;
static const char *release_env;

static const struct {
	const char *env;
	const char **path;
} envs[] = {
	{ "SMARTWAKE_SCHED_DEBUG", &sched_dir },
	{ "SMARTWAKE_SYSCTL", &sysctl_dir },
	{ "SMARTWAKE_CPU_SYSFS", &cpu_dir },
	{ "SMARTWAKE_NODE_SYSFS", &node_dir },
	{ "SMARTWAKE_CMDLINE", &cmdline_path },
	{ "SMARTWAKE_CPUINFO", &cpuinfo_path },
	{ "SMARTWAKE_PROC_STAT", &stat_path },
	{ "SMARTWAKE_THP", &thp_path },
	{ "SMARTWAKE_RELEASE", &release_env },
};

/* The global options: the paths the environment moves. */
void machine_env(void)
{
	const char *v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(envs); i++) {
		v = getenv(envs[i].env);
		if (v && *v)
			*envs[i].path = v;
	}
}

const char *machine_env_help(void)
{
	return "SMARTWAKE_SCHED_DEBUG (default " DEF_SCHED_DEBUG "),\n"
	       "SMARTWAKE_SYSCTL (default " DEF_SYSCTL "), SMARTWAKE_CPU_SYSFS (default\n"
	       DEF_CPU_SYSFS "), SMARTWAKE_NODE_SYSFS (default " DEF_NODE_SYSFS "),\n"
	       "SMARTWAKE_CMDLINE, SMARTWAKE_CPUINFO, SMARTWAKE_PROC_STAT (/proc's),\n"
	       "SMARTWAKE_THP (default " DEF_THP "),\n"
	       "SMARTWAKE_RELEASE (the kernel release instead of uname's).\n";
}

/* ---- entries ------------------------------------------------------------- */

static void add(struct machine *m, const char *key, const char *val, int kind)
{
	struct mentry *x;

	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 256;
		m->e = sw_xrealloc(m->e, m->cap * sizeof(*m->e));
	}
	x = &m->e[m->n++];
	x->key = sw_xstrdup(key);
	x->val = sw_xstrdup(val);
	x->kind = kind;
	x->counter = false;
}

static void __printf(3, 4) addf(struct machine *m, const char *key,
				const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	add(m, key, buf, MS_VALUE);
}

/* A failed read of a file or directory: absent, or unreadable with why. */
static void add_err(struct machine *m, const char *key, int err)
{
	if (err == ENOENT || err == ENOTDIR)
		add(m, key, "", MS_ABSENT);
	else
		add(m, key, strerror(err), MS_UNREADABLE);
}

/* A file's text on one line: lines joined, trailing space gone. */
static void one_line(char *s)
{
	size_t n;
	char *p;

	for (p = s; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/*
 * A file's value as written back: one_line(), and of a list with the
 * chosen word marked ("[madvise]", "(full)") that word alone.
 */
void file_choice(char *s)
{
	char *p, *o, *c;

	one_line(s);
	if (!strchr(s, ' '))
		return;
	for (p = s; *p; p = *p ? p + 1 : p) {
		if (*p != '[' && *p != '(')
			continue;
		o = p + 1;
		c = strchr(o, *p == '[' ? ']' : ')');
		if (!c || memchr(o, ' ', c - o))
			continue;
		memmove(s, o, c - o);
		s[c - o] = '\0';
		return;
	}
}

/* The file at @path as entry @key (a small file; @choice: file_choice()). */
static void add_file(struct machine *m, const char *key, const char *path,
		     bool choice)
{
	size_t len;
	char *v = read_file_size(path, &len);

	if (!v) {
		add_err(m, key, errno);
		return;
	}
	if (len > MAX_TUNABLE) {
		char why[64];

		snprintf(why, sizeof(why), "not recorded: %zu bytes", len);
		add(m, key, why, MS_UNREADABLE);
	} else {
		if (choice)
			file_choice(v);
		else
			one_line(v);
		add(m, key, v, MS_VALUE);
	}
	free(v);
}

const struct mentry *machine_find(const struct machine *m, const char *key)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].key, key))
			return &m->e[i];
	return NULL;
}

bool mentry_same(const struct mentry *a, const struct mentry *b)
{
	return a && b && a->kind == b->kind && !strcmp(a->val, b->val);
}

/* An entry's value as the text record writes it. */
const char *mentry_text(const struct mentry *x, char *buf, size_t size)
{
	if (!x || x->kind == MS_ABSENT)
		snprintf(buf, size, "(absent)");
	else if (x->kind == MS_UNREADABLE)
		snprintf(buf, size, "(unreadable: %s)", x->val);
	else
		snprintf(buf, size, "%s", x->val);
	return buf;
}

void machine_free(struct machine *m)
{
	int i;

	for (i = 0; i < m->n; i++) {
		free(m->e[i].key);
		free(m->e[i].val);
	}
	free(m->e);
	memset(m, 0, sizeof(*m));
}

/* ---- the parts ----------------------------------------------------------- */

/* "debian 6.12.38+deb13-cloud-amd64" -> "cloud-amd64": the words after the version */
static void add_kernel(struct machine *m)
{
	char rel[sizeof(((struct utsname *)0)->release)], fl[sizeof(rel)] = "";
	struct utsname u;
	char *tok, *save = NULL;
	bool first = true;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	snprintf(rel, sizeof(rel), "%s", release_env ? release_env : u.release);
	add(m, "kernel.release", rel, MS_VALUE);
	for (tok = strtok_r(rel, "-", &save); tok; tok = strtok_r(NULL, "-", &save)) {
		if (first || all_digits(tok)) {	/* the version, an ABI number */
			first = false;
			continue;
		}
		if (*fl)
			strncat(fl, "-", sizeof(fl) - strlen(fl) - 1);
		strncat(fl, tok, sizeof(fl) - strlen(fl) - 1);
	}
	add(m, "kernel.flavour", *fl ? fl : "none", MS_VALUE);
	add(m, "kernel.version", u.version, MS_VALUE);
}

/* The parameter @name= of command line @cmd (its first), or NULL. */
static const char *cmdline_param(const char *cmd, const char *name, size_t *len)
{
	size_t n = strlen(name);
	const char *p = cmd;

	while (*p) {
		p += strspn(p, " ");
		if (!strncmp(p, name, n) && p[n] == '=') {
			*len = strcspn(p + n + 1, " ");
			return p + n + 1;
		}
		p += strcspn(p, " ");
	}
	return NULL;
}

static void add_cmdline(struct machine *m)
{
	static const char * const params[] = {
		"isolcpus", "nohz_full", "mitigations", "preempt",
	};
	char key[64], val[VALUE_LEN], *buf = read_file(cmdline_path);
	const char *v;
	size_t i, n;

	if (!buf) {
		add_err(m, "cmdline", errno);
		return;
	}
	one_line(buf);
	add(m, "cmdline", buf, MS_VALUE);
	for (i = 0; i < ARRAY_SIZE(params); i++) {
		snprintf(key, sizeof(key), "cmdline.%s", params[i]);
		v = cmdline_param(buf, params[i], &n);
		if (v) {
			sw_copy_str(val, sizeof(val), v, n);
			add(m, key, val, MS_VALUE);
		} else {
			add(m, key, "", MS_ABSENT);
		}
	}
	free(buf);
}

/* The number of CPUs (or nodes) in a list such as "0-3,8"; -1 if not one. */
static int list_count(const char *s)
{
	long a, b;
	char *end;
	int n = 0;

	while (*s) {
		errno = 0;
		a = strtol(s, &end, 10);
		if (end == s || errno || a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || errno || b < a)
				return -1;
		}
		n += b - a + 1;
		s = end;
		if (*s == ',')
			s++;
		else if (*s && !isspace((unsigned char)*s))
			return -1;
		else
			break;
	}
	return n;
}

/* "online" of @dir as PREFIX.online and PREFIX.count */
static void add_online(struct machine *m, const char *prefix, const char *dir)
{
	char path[PATH_MAX], key[64], *v;
	int n;

	snprintf(path, sizeof(path), "%s/online", dir);
	snprintf(key, sizeof(key), "%s.online", prefix);
	v = read_file(path);
	if (!v) {
		add_err(m, key, errno);
		return;
	}
	file_choice(v);
	add(m, key, v, MS_VALUE);
	n = list_count(v);
	snprintf(key, sizeof(key), "%s.count", prefix);
	if (n >= 0)
		addf(m, key, "%d", n);
	free(v);
}

static int cmp_num_suffix(const void *a, const void *b)
{
	const char *x = *(const char * const *)a, *y = *(const char * const *)b;
	size_t i = strcspn(x, "0123456789"), j = strcspn(y, "0123456789");
	long d;

	d = strncmp(x, y, i < j ? i : j);
	if (!d && i == j)
		d = atol(x + i) - atol(y + j);
	if (!d)
		d = strcmp(x, y);
	return d < 0 ? -1 : d > 0;
}

/*
 * The names in @dir starting with @prefix (then a number if @numbered),
 * sorted (numbers by value); NULL with errno if @dir cannot be read.
 */
static char **dir_names(const char *dir, const char *prefix, bool numbered,
			int *count)
{
	size_t n = 0, cap = 16, pl = strlen(prefix);
	struct dirent *d;
	char **names;
	DIR *dp;

	dp = opendir(dir);
	if (!dp)
		return NULL;
	names = sw_xmalloc(cap * sizeof(*names));
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.' || strncmp(d->d_name, prefix, pl))
			continue;
		if (numbered && !all_digits(d->d_name + pl))
			continue;
		if (n == cap)
			names = sw_xrealloc(names, (cap *= 2) * sizeof(*names));
		names[n++] = sw_xstrdup(d->d_name);
	}
	closedir(dp);
	qsort(names, n, sizeof(*names), cmp_num_suffix);
	*count = n;
	return names;
}

static void free_names(char **names, int n)
{
	while (n--)
		free(names[n]);
	free(names);
}

/* The LLCs: each distinct cache/index3/shared_cpu_list, and its size. */
static void add_llcs(struct machine *m)
{
	char path[PATH_MAX], key[64], **cpus, **seen = NULL;
	int i, j, n, nseen = 0;

	cpus = dir_names(cpu_dir, "cpu", true, &n);
	if (!cpus) {
		add_err(m, "cpu.llcs", errno);
		return;
	}
	seen = sw_xcalloc(n + 1, sizeof(*seen));
	for (i = 0; i < n; i++) {
		char *list, *size;

		snprintf(path, sizeof(path), "%s/%s/cache/index3/shared_cpu_list",
			 cpu_dir, cpus[i]);
		list = read_file(path);
		if (!list)
			continue;
		file_choice(list);
		for (j = 0; j < nseen && strcmp(seen[j], list); j++)
			;
		if (j < nseen) {
			free(list);
			continue;
		}
		seen[nseen++] = list;
		snprintf(key, sizeof(key), "cpu.llc%d.cpus", j);
		add(m, key, list, MS_VALUE);
		snprintf(path, sizeof(path), "%s/%s/cache/index3/size", cpu_dir,
			 cpus[i]);
		snprintf(key, sizeof(key), "cpu.llc%d.size", j);
		size = read_file(path);
		if (size) {
			file_choice(size);
			add(m, key, size, MS_VALUE);
			free(size);
		} else {
			add_err(m, key, errno);
		}
	}
	if (nseen)
		addf(m, "cpu.llcs", "%d", nseen);
	else
		add(m, "cpu.llcs", "", MS_ABSENT);
	free_names(seen, nseen);
	free_names(cpus, n);
}

static void add_topology(struct machine *m)
{
	char path[PATH_MAX], *v;

	add_online(m, "cpu", cpu_dir);
	snprintf(path, sizeof(path), "%s/smt/active", cpu_dir);
	v = read_file(path);
	if (v) {
		file_choice(v);
		add(m, "cpu.smt", !strcmp(v, "1") ? "on" : !strcmp(v, "0") ? "off" : v,
		    MS_VALUE);
		free(v);
	} else {
		add_err(m, "cpu.smt", errno);
	}
	add_llcs(m);
	add_online(m, "node", node_dir);
}

/* feature.NAME = 1 or 0, for every scheduler feature */
static void add_features(struct machine *m)
{
	char key[NAME_LEN + 16], *buf = read_file(features_path), *t, *save = NULL;

	if (!buf) {
		add_err(m, "feature", errno);
		return;
	}
	for (t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
		bool off = !strncmp(t, "NO_", 3);

		snprintf(key, sizeof(key), "feature.%s", off ? t + 3 : t);
		add(m, key, off ? "0" : "1", MS_VALUE);
	}
	free(buf);
}

/* Not tunables: a dump, the features (feature.*), the domains' tree. */
static bool sched_skip(const char *name)
{
	return !strcmp(name, "debug") || !strcmp(name, "features") ||
	       !strcmp(name, "domains");
}

/*
 * Every file of /sys/kernel/debug/sched/ and of its directories (one
 * level: llc_balancing/, numa_balancing/) as sched.PATH.
 */
static void add_sched(struct machine *m)
{
	char path[PATH_MAX], key[PATH_MAX + 8], **top, **sub;
	struct stat st;
	int i, j, n, ns;

	top = dir_names(sched_dir, "", false, &n);
	if (!top) {
		add_err(m, "sched", errno);
		return;
	}
	for (i = 0; i < n; i++) {
		if (sched_skip(top[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", sched_dir, top[i]);
		if (stat(path, &st))
			continue;
		if (S_ISREG(st.st_mode)) {
			snprintf(key, sizeof(key), "sched.%s", top[i]);
			add_file(m, key, path, true);
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		sub = dir_names(path, "", false, &ns);
		for (j = 0; sub && j < ns; j++) {
			char p2[PATH_MAX + NAME_MAX + 2];

			snprintf(p2, sizeof(p2), "%s/%s", path, sub[j]);
			/* per-CPU directories (fair_server/cpuN/) are not followed */
			if (stat(p2, &st) || !S_ISREG(st.st_mode))
				continue;
			snprintf(key, sizeof(key), "sched.%s/%s", top[i], sub[j]);
			add_file(m, key, p2, true);
		}
		if (sub)
			free_names(sub, ns);
	}
	free_names(top, n);
}

/* kernel.numa_balancing and every kernel.sched_* sysctl */
static void add_sysctls(struct machine *m)
{
	char dir[PATH_MAX], path[PATH_MAX + NAME_MAX + 2], key[NAME_MAX + 16], **names;
	struct stat st;
	int i, n;

	snprintf(dir, sizeof(dir), "%s/kernel", sysctl_dir);
	snprintf(path, sizeof(path), "%s/numa_balancing", dir);
	add_file(m, "sysctl.kernel.numa_balancing", path, false);
	names = dir_names(dir, "sched_", false, &n);
	if (!names) {
		add_err(m, "sysctl.kernel.sched_*", errno);
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;	/* sched_domain/ */
		snprintf(key, sizeof(key), "sysctl.kernel.%s", names[i]);
		add_file(m, key, path, false);
	}
	free_names(names, n);
}

/* The cpufreq files recorded per policy: key suffix, file */
static const char * const cpufreq_files[][2] = {
	{ "governor", "scaling_governor" },
	{ "epp", "energy_performance_preference" },
	{ "min_freq", "scaling_min_freq" },
	{ "max_freq", "scaling_max_freq" },
};

static void add_cpufreq(struct machine *m)
{
	char dir[PATH_MAX], path[PATH_MAX + 2 * NAME_MAX], key[NAME_MAX + 32], **pol;
	size_t k;
	int i, n;

	snprintf(dir, sizeof(dir), "%s/cpufreq", cpu_dir);
	snprintf(path, sizeof(path), "%s/boost", dir);
	add_file(m, "cpufreq.boost", path, false);
	pol = dir_names(dir, "policy", true, &n);
	if (!pol) {
		add_err(m, "cpufreq.policies", errno);
		return;
	}
	addf(m, "cpufreq.policies", "%d", n);
	for (i = 0; i < n; i++) {
		for (k = 0; k < ARRAY_SIZE(cpufreq_files); k++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir, pol[i],
				 cpufreq_files[k][1]);
			snprintf(key, sizeof(key), "cpufreq.%s.%s", pol[i],
				 cpufreq_files[k][0]);
			add_file(m, key, path, false);
		}
	}
	free_names(pol, n);
}

/* The hypervisor flag of the first "flags" line of /proc/cpuinfo. */
static void add_vm(struct machine *m)
{
	char *line = NULL, *v = NULL, *tok, *save = NULL;
	unsigned long long t[8];
	size_t cap = 0;
	FILE *f;
	int n;

	f = fopen(cpuinfo_path, "re");
	if (!f) {
		add_err(m, "vm.hypervisor", errno);
	} else {
		while (getline(&line, &cap, f) > 0)
			if (!strncmp(line, "flags", 5) && (v = strchr(line, ':')))
				break;
		fclose(f);
		if (!v) {
			add(m, "vm.hypervisor", "", MS_ABSENT);
		} else {
			bool hv = false;

			for (tok = strtok_r(v + 1, " \n", &save); tok;
			     tok = strtok_r(NULL, " \n", &save))
				hv |= !strcmp(tok, "hypervisor");
			add(m, "vm.hypervisor", hv ? "yes" : "no", MS_VALUE);
		}
	}
	/* steal: the 8th number of the "cpu" line, in USER_HZ ticks */
	free(line);
	line = read_file(stat_path);
	if (!line) {
		add_err(m, "vm.steal_ticks", errno);
		return;
	}
	n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &t[0],
		   &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], &t[7]);
	if (n == 8) {
		addf(m, "vm.steal_ticks", "%llu", t[7]);
		m->e[m->n - 1].counter = true;
	} else {
		add(m, "vm.steal_ticks", "", MS_ABSENT);
	}
	free(line);
}

/* The module's knobs as its "knobs" file lists them, and nothing else. */
static void add_module(struct machine *m)
{
	char path[PATH_MAX], key[NAME_LEN + 8], name[NAME_LEN], val[VALUE_LEN];
	char *buf, *line, *save = NULL;

	if (check_module(false)) {
		add(m, "module", "", MS_ABSENT);
		return;
	}
	path_of(path, sizeof(path), "knobs");
	buf = read_file(path);
	if (!buf) {
		add_err(m, "module", errno);
		return;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		while (isspace((unsigned char)*line))
			line++;
		if (!*line || *line == '#')
			continue;
		if (sscanf(line, "%63s %255s", name, val) != 2)
			continue;
		snprintf(key, sizeof(key), "module.%s", name);
		add(m, key, val, MS_VALUE);
	}
	free(buf);
}

/* The record of this moment, into an empty (zeroed or freed) @m. */
void machine_read(struct machine *m)
{
	machine_free(m);
	add_kernel(m);
	add_cmdline(m);
	add_topology(m);
	add_features(m);
	add_sched(m);
	add_sysctls(m);
	add_cpufreq(m);
	add_file(m, "mm.thp", thp_path, true);
	add_vm(m);
	add_module(m);
}
