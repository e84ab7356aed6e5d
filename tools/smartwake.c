// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake - command-line front end to the smartwake module's debugfs.
 *
 *   smartwake status                     policy, knobs, hooks, kernel
 *   smartwake set KNOB=VALUE ...         all or nothing
 *   smartwake stats [--json] [--watch S] counters (and per-second rates)
 *   smartwake reset                      zero the counters
 *   smartwake ab --a '...' --b '...' -- COMMAND...
 *                                        alternate A/B runs of a command
 *
 * The knob list, values and accepted values come from the module's "knobs"
 * file; nothing here knows a knob by name. Settings may also name kernel
 * scheduler features ("feature:NO_TTWU_QUEUE"), written to
 * /sys/kernel/debug/sched/features and restored afterwards.
 *
 * Environment: SMARTWAKE_DEBUGFS (module directory, default
 * /sys/kernel/debug/smartwake), SMARTWAKE_SCHED_FEATURES (features file,
 * default /sys/kernel/debug/sched/features).
 *
 * Exit status: 0 ok, 1 run-time error, 2 usage error (bad options, unknown
 * knob or feature, value not accepted).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG		"smartwake"
#define EXIT_OK		0
#define EXIT_RUNTIME	1
#define EXIT_USAGE	2

#define DEF_DEBUGFS	"/sys/kernel/debug/smartwake"
#define DEF_FEATURES	"/sys/kernel/debug/sched/features"
#define DEBUGFS_MNT	"/sys/kernel/debug"

#define NAME_LEN	64
#define VALUE_LEN	64
#define MAX_KNOBS	128
#define MAX_TARGETS	256
#define MAX_SIDES	16
#define MAX_SETTINGS	64
#define MAX_STATS	256
#define MAX_RUNS	1000

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

static const char *dbg_dir = DEF_DEBUGFS;
static bool dbg_dir_from_env;
static const char *features_path = DEF_FEATURES;

/* ---- messages ------------------------------------------------------------ */

static void __printf(1, 2) err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		err("out of memory");
		exit(EXIT_RUNTIME);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		err("out of memory");
		exit(EXIT_RUNTIME);
	}
	return p;
}

/* ---- help ---------------------------------------------------------------- */

struct cmd_help {
	const char *name;
	const char *text;
};

static const struct cmd_help helps[] = {
	{ "status",
"usage: smartwake status\n"
"\n"
"Show the kernel release, the policy, every knob of the loaded module (value,\n"
"accepted values, help, as listed by its \"knobs\" file) and the state of\n"
"every ftrace hook (from \"hooks\"). Once policy=shadow has compared\n"
"wakeups, a \"shadow\" line gives the agreement of the module's answers with\n"
"the kernel's (shadow_agree_pct; compared, agree, disagree, raced counts).\n" },
	{ "set",
"usage: smartwake set SETTING...\n"
"\n"
"SETTING is KNOB=VALUE (a knob of the loaded module, see 'smartwake status')\n"
"or feature:NAME / feature:NO_NAME (a kernel scheduler feature, written to\n"
"the sched features file).\n"
"\n"
"All or nothing: every setting is checked against the module's knob list and\n"
"accepted values (and the features file) before anything is written; if the\n"
"kernel still refuses a write, the settings already changed are restored.\n"
"Settings are applied in the order given.\n"
"\n"
"Exit status: 0 all applied; 1 a write failed (everything restored);\n"
"2 unknown knob or feature, value not accepted, bad syntax (nothing written).\n" },
	{ "stats",
"usage: smartwake stats [--json] [--watch SECONDS [--count N]]\n"
"\n"
"Print the module's counters (\"name value\" lines; derived lines such as\n"
"percentages are shown as the module prints them). When the module printed\n"
"shadow_agree_pct (policy=shadow compared wakeups), a last line sums up the\n"
"agreement: \"shadow: P% agree (compared N, agree N, disagree N, raced N,\n"
"raced_aba N)\".\n"
"  --json            one JSON object {\"name\": value, ...}\n"
"  --watch SECONDS   every SECONDS, print each value and, for raw counters\n"
"                    (integers), the per-second rate over the interval;\n"
"                    with --json one object per line:\n"
"                    {\"time\":..,\"interval\":..,\"values\":{..},\"rates\":{..}}\n"
"  --count N         with --watch: stop after N intervals (default: until\n"
"                    interrupted)\n" },
	{ "reset",
"usage: smartwake reset\n"
"\n"
"Zero the module's counters.\n" },
	{ "ab",
"usage: smartwake ab --a 'SETTINGS' --b 'SETTINGS' [options] -- COMMAND [ARG...]\n"
"\n"
"Run COMMAND alternately under setting A and setting B (A B A B ...), parse\n"
"one figure from each run's output, and print per side the median and the\n"
"min..max of the figure, the ratio of the medians B/A, and each side's\n"
"counter deltas (summed over its runs) for the counters that changed.\n"
"Every knob and feature touched is restored to its value from before the\n"
"comparison afterwards (also on error or Ctrl-C).\n"
"\n"
"SETTINGS is a space-separated list of KNOB=VALUE and feature:[NO_]NAME\n"
"(may be empty: ''). A knob or feature set by one side only takes its\n"
"original value on the other side.\n"
"\n"
"Options:\n"
"  --a SETTINGS, --b SETTINGS   the two sides (A is the reference)\n"
"  --side NAME:SETTINGS   a further side, compared with the first (repeatable;\n"
"                         sides run in the order given, A and B first)\n"
"  --runs N               runs per side (default 5)\n"
"  --metric KEY|REGEX     the figure: KEY (letters, digits, _) takes the number\n"
"                         after 'KEY=', 'KEY:' or 'KEY '; anything else is an\n"
"                         extended regex, the figure is the number at its first\n"
"                         parenthesised group, else the first number from the\n"
"                         match on. Default: the first key=number whose key ends\n"
"                         in _per_sec or mbps, else the last number printed.\n"
"  --unit NAME            unit to print (default: the key, else the word after\n"
"                         the number)\n"
"  --lower-is-better      note that smaller figures are better (times)\n"
"  --skip-missing         skip a side naming a knob or feature this kernel or\n"
"                         module lacks (reported), instead of failing\n"
"  --csv FILE             write one row per run: side,run,figure,unit,secs and\n"
"                         every raw counter's delta\n"
"  --timeout SECS         kill a run (its process group) after SECS\n"
"  --verbose              show each run's output\n"
"\n"
"Example:\n"
"  smartwake ab --a 'wake_wide=mainline' --b 'wake_wide=off' --runs 3 \\\n"
"      -- wakeload disp -w 6 -t 2\n" },
};

static void usage_main(FILE *f)
{
	fprintf(f,
"usage: smartwake COMMAND [ARGS]\n"
"\n"
"Commands:\n"
"  status                         kernel, policy, knobs, hooks\n"
"  set KNOB=VALUE ...             change knobs (all or nothing)\n"
"  stats [--json] [--watch SECS]  counters, rates\n"
"  reset                          zero the counters\n"
"  ab --a '...' --b '...' -- CMD  A/B comparison of a command\n"
"  help [COMMAND]                 this text, or a command's\n"
"\n"
"Settings: KNOB=VALUE (knobs of the loaded module) or feature:[NO_]NAME\n"
"(kernel scheduler features).\n"
"Environment: SMARTWAKE_DEBUGFS (default " DEF_DEBUGFS "),\n"
"SMARTWAKE_SCHED_FEATURES (default " DEF_FEATURES ").\n"
"Exit status: 0 ok, 1 run-time error, 2 usage error.\n");
}

static const struct cmd_help *find_help(const char *cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(helps); i++)
		if (!strcmp(helps[i].name, cmd))
			return &helps[i];
	return NULL;
}

static void usage_cmd(const char *cmd, FILE *f)
{
	const struct cmd_help *h = find_help(cmd);

	if (h)
		fputs(h->text, f);
	else
		usage_main(f);
}

/* Report a usage error for @cmd, point at its help, return EXIT_USAGE. */
static int __printf(2, 3) bad_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG " %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see '" PROG " help %s')\n", cmd);
	return EXIT_USAGE;
}

/* ---- files --------------------------------------------------------------- */

/* Read a whole file into a NUL-terminated buffer; NULL with errno set. */
static char *read_file(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf;
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		if (cap - len < 2)
			buf = xrealloc(buf, cap *= 2);
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Write @val plus a newline in one write(); 0 or -errno. */
static int write_value(const char *path, const char *val)
{
	char buf[VALUE_LEN + 2];
	size_t len;
	ssize_t n;
	int fd, ret = 0;

	len = snprintf(buf, sizeof(buf), "%s\n", val);
	if (len >= sizeof(buf))
		return -E2BIG;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static void path_of(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", dbg_dir, name);
}

/* Is debugfs mounted on /sys/kernel/debug? Unknown counts as yes. */
static bool debugfs_mounted(void)
{
	char dev[256], mnt[256], type[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/mounts", "re");
	if (!f)
		return true;
	while (fscanf(f, "%255s %255s %63s%*[^\n]", dev, mnt, type) == 3)
		if (!strcmp(mnt, DEBUGFS_MNT) && !strcmp(type, "debugfs"))
			found = true;
	fclose(f);
	return found;
}

/* The module's debugfs directory exists and is usable; else say why. */
static int check_module(bool report)
{
	struct stat st;

	if (!stat(dbg_dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	if (!report)
		return EXIT_RUNTIME;
	if (errno == EACCES) {
		err("cannot access %s: %s (debugfs is readable by root only)",
		    dbg_dir, strerror(errno));
		return EXIT_RUNTIME;
	}
	if (dbg_dir_from_env)
		err("no smartwake directory at %s (SMARTWAKE_DEBUGFS): is the module loaded?",
		    dbg_dir);
	else if (!debugfs_mounted())
		err("debugfs is not mounted on " DEBUGFS_MNT
		    " (mount -t debugfs none " DEBUGFS_MNT ")");
	else
		err("the smartwake module is not loaded (no %s): insmod smartwake.ko",
		    dbg_dir);
	return EXIT_RUNTIME;
}

/* ---- knobs --------------------------------------------------------------- */

struct knob {
	char name[NAME_LEN];
	char value[VALUE_LEN];
	char accepted[256];	/* "0..1", "stock|smartwake", "" = unknown */
	char help[256];
};

static struct knob knobs[MAX_KNOBS];
static int nr_knobs;

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

static void copy_str(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/*
 * Parse the "knobs" file: "<name> <value>  [<accepted>]  <help>" per line.
 * Returns 0, or EXIT_RUNTIME after reporting.
 */
static int load_knobs(void)
{
	char path[PATH_MAX], *buf, *line, *save = NULL;

	path_of(path, sizeof(path), "knobs");
	buf = read_file(path);
	if (!buf) {
		err("cannot read %s: %s", path, strerror(errno));
		return EXIT_RUNTIME;
	}
	nr_knobs = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct knob *k = &knobs[nr_knobs];
		char *p = line, *q, *open, *close;
		size_t n;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			continue;
		if (nr_knobs == MAX_KNOBS) {
			err("%s: more than %d knobs; ignoring the rest", path,
			    MAX_KNOBS);
			break;
		}
		memset(k, 0, sizeof(*k));
		n = strcspn(p, " \t");
		copy_str(k->name, sizeof(k->name), p, n);
		p += n;
		while (isspace((unsigned char)*p))
			p++;
		n = strcspn(p, " \t");
		copy_str(k->value, sizeof(k->value), p, n);
		p += n;
		open = strchr(p, '[');
		close = open ? strchr(open, ']') : NULL;
		if (open && close) {
			copy_str(k->accepted, sizeof(k->accepted), open + 1,
				 close - open - 1);
			q = close + 1;
		} else {
			q = p;
		}
		while (isspace((unsigned char)*q))
			q++;
		copy_str(k->help, sizeof(k->help), q, strlen(q));
		trim(k->help);
		nr_knobs++;
	}
	free(buf);
	return 0;
}

static struct knob *find_knob(const char *name)
{
	int i;

	for (i = 0; i < nr_knobs; i++)
		if (!strcmp(knobs[i].name, name))
			return &knobs[i];
	return NULL;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Parse a signed decimal integer, the whole string. */
static bool parse_long(const char *s, long *out)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && !*end;
}

/*
 * Does @val match one alternative of @k's accepted list? Names match
 * exactly; a "min..max" alternative takes an unsigned decimal in range
 * (no signs, spaces or hex). The module's finer rules for the bytes of a
 * write (numbers in canonical form, at most 31 bytes) are left to it: a
 * write it refuses is undone like any other failed write.
 */
static bool knob_accepts(const struct knob *k, const char *val)
{
	char list[sizeof(k->accepted)], *alt, *save = NULL;

	if (!*k->accepted)
		return true;	/* not listed: the kernel decides */
	if (!*val)
		return false;
	snprintf(list, sizeof(list), "%s", k->accepted);
	for (alt = strtok_r(list, "|", &save); alt;
	     alt = strtok_r(NULL, "|", &save)) {
		char *dots = strstr(alt, "..");
		long lo, hi, v;

		if (dots) {
			*dots = '\0';
			if (!parse_long(alt, &lo) || !parse_long(dots + 2, &hi))
				continue;
			if (!all_digits(val))
				continue;
			errno = 0;
			v = strtol(val, NULL, 10);
			if (!errno && v >= lo && v <= hi)
				return true;
		} else if (!strcmp(alt, val)) {
			return true;
		}
	}
	return false;
}

/* ---- scheduler features -------------------------------------------------- */

/*
 * The state of feature @base in the features file: "BASE" or "NO_BASE"
 * into @tok. Returns 0, 1 if the kernel has no such feature, or -errno if
 * the file cannot be read.
 */
static int feature_state(const char *base, char *tok, size_t size)
{
	char *buf, *t, *save = NULL;
	int ret = 1;

	buf = read_file(features_path);
	if (!buf)
		return -errno;
	for (t = strtok_r(buf, " \t\n", &save); t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		const char *b = strncmp(t, "NO_", 3) ? t : t + 3;

		if (!strcmp(b, base)) {
			snprintf(tok, size, "%s", t);
			ret = 0;
			break;
		}
	}
	free(buf);
	return ret;
}

/* ---- settings and the values they touch ---------------------------------- */

enum tkind { T_KNOB, T_FEATURE };

/* One knob or feature that some setting touches. */
struct target {
	enum tkind kind;
	char name[NAME_LEN];	/* knob name, or feature name without NO_ */
	char orig[VALUE_LEN];	/* value (knob) or token (feature) before */
	char cur[VALUE_LEN];	/* what it holds now, as far as we know */
};

struct setting {
	int target;		/* index into targets[] */
	char value[VALUE_LEN];	/* knob value, or "NAME"/"NO_NAME" */
	char text[NAME_LEN + VALUE_LEN + 8];	/* as written by the user */
};

static struct target targets[MAX_TARGETS];
static int nr_targets;

static int find_target(enum tkind kind, const char *name)
{
	int i;

	for (i = 0; i < nr_targets; i++)
		if (targets[i].kind == kind && !strcmp(targets[i].name, name))
			return i;
	return -1;
}

/* Reasons a setting is not usable. */
enum { SET_OK, SET_SYNTAX, SET_MISSING, SET_BADVAL, SET_IOERR };

/*
 * Parse one setting, check it against the module's knobs or the features
 * file, and register its target. On failure, @why explains.
 */
static int parse_setting(const char *text, struct setting *s, char *why,
			 size_t why_size)
{
	char name[NAME_LEN], val[VALUE_LEN], tok[VALUE_LEN];
	const char *eq;
	struct knob *k;
	enum tkind kind;
	int t, ret;

	snprintf(s->text, sizeof(s->text), "%s", text);
	if (!strncmp(text, "feature:", 8)) {
		const char *f = text + 8;
		const char *base = strncmp(f, "NO_", 3) ? f : f + 3;

		kind = T_FEATURE;
		if (!*base || strlen(f) >= VALUE_LEN || strchr(f, '=')) {
			snprintf(why, why_size,
				 "'%s': expected feature:NAME or feature:NO_NAME",
				 text);
			return SET_SYNTAX;
		}
		snprintf(name, sizeof(name), "%s", base);
		snprintf(val, sizeof(val), "%s", f);
		ret = feature_state(name, tok, sizeof(tok));
		if (ret == 1) {
			snprintf(why, why_size,
				 "'%s': the kernel has no scheduler feature %s (see %s)",
				 text, name, features_path);
			return SET_MISSING;
		}
		if (ret) {
			snprintf(why, why_size,
				 "'%s': cannot read %s: %s (needs debugfs and CONFIG_SCHED_DEBUG)",
				 text, features_path, strerror(-ret));
			return SET_IOERR;
		}
	} else {
		eq = strchr(text, '=');
		kind = T_KNOB;
		if (!eq || eq == text || (size_t)(eq - text) >= NAME_LEN ||
		    strlen(eq + 1) >= VALUE_LEN) {
			snprintf(why, why_size,
				 "'%s': expected KNOB=VALUE or feature:NAME",
				 text);
			return SET_SYNTAX;
		}
		copy_str(name, sizeof(name), text, eq - text);
		snprintf(val, sizeof(val), "%s", eq + 1);
		k = find_knob(name);
		if (!k) {
			int i, n;

			n = snprintf(why, why_size,
				     "'%s': the module has no knob '%s' (knobs:",
				     text, name);
			for (i = 0; i < nr_knobs && n > 0 && (size_t)n < why_size; i++)
				n += snprintf(why + n, why_size - n, " %s",
					      knobs[i].name);
			if (n > 0 && (size_t)n < why_size)
				snprintf(why + n, why_size - n, ")");
			return SET_MISSING;
		}
		if (!knob_accepts(k, val)) {
			snprintf(why, why_size,
				 "'%s': %s does not accept '%s' (accepted: %s)",
				 text, name, val, k->accepted);
			return SET_BADVAL;
		}
		snprintf(tok, sizeof(tok), "%s", k->value);
	}

	t = find_target(kind, name);
	if (t < 0) {
		if (nr_targets == MAX_TARGETS) {
			snprintf(why, why_size, "too many settings");
			return SET_SYNTAX;
		}
		t = nr_targets++;
		targets[t].kind = kind;
		snprintf(targets[t].name, sizeof(targets[t].name), "%s", name);
		snprintf(targets[t].orig, sizeof(targets[t].orig), "%s", tok);
		snprintf(targets[t].cur, sizeof(targets[t].cur), "%s", tok);
	}
	s->target = t;
	snprintf(s->value, sizeof(s->value), "%s", val);
	return SET_OK;
}

static const char *target_desc(const struct target *t, const char *val,
			       char *buf, size_t size)
{
	if (t->kind == T_FEATURE)
		snprintf(buf, size, "feature:%s", val);
	else
		snprintf(buf, size, "%s=%s", t->name, val);
	return buf;
}

/* Write @val to @t; 0 or -errno. */
static int target_write(struct target *t, const char *val)
{
	char path[PATH_MAX];
	int ret;

	if (t->kind == T_FEATURE) {
		ret = write_value(features_path, val);
	} else {
		path_of(path, sizeof(path), t->name);
		ret = write_value(path, val);
	}
	if (!ret)
		snprintf(t->cur, sizeof(t->cur), "%s", val);
	return ret;
}

/* Put every target back to its original value; 0 if all went back. */
static int restore_targets(bool verbose)
{
	char d[NAME_LEN + VALUE_LEN + 16];
	int i, ret, rc = 0;

	for (i = nr_targets - 1; i >= 0; i--) {
		struct target *t = &targets[i];

		if (!strcmp(t->cur, t->orig))
			continue;
		ret = target_write(t, t->orig);
		if (ret) {
			err("RESTORE FAILED: %s: %s (now %s)",
			    target_desc(t, t->orig, d, sizeof(d)),
			    strerror(-ret), t->cur);
			rc = -1;
		} else if (verbose) {
			fprintf(stderr, PROG ": restored %s\n",
				target_desc(t, t->orig, d, sizeof(d)));
		}
	}
	return rc;
}

/* ---- status -------------------------------------------------------------- */

static void status_shadow(void);

static int cmd_status(int argc, char **argv)
{
	char path[PATH_MAX], *hooks, *line, *save = NULL;
	struct knob *pol;
	struct utsname u;
	int i, ret;

	if (argc > 1)
		return bad_usage("status", "unexpected argument '%s'", argv[1]);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	printf("kernel   %s\n", u.release);
	ret = check_module(true);
	if (ret)
		return ret;
	ret = load_knobs();
	if (ret)
		return ret;
	printf("debugfs  %s\n", dbg_dir);
	pol = find_knob("policy");
	if (pol)
		printf("policy   %s\n", pol->value);
	else
		printf("policy   (this module build has no policy knob)\n");
	status_shadow();
	printf("\nknobs (%d):\n", nr_knobs);
	for (i = 0; i < nr_knobs; i++) {
		char acc[sizeof(knobs[i].accepted) + 2];

		snprintf(acc, sizeof(acc), "[%s]", knobs[i].accepted);
		printf("  %-16s %-10s %-26s %s\n", knobs[i].name,
		       knobs[i].value, acc, knobs[i].help);
	}
	path_of(path, sizeof(path), "hooks");
	hooks = read_file(path);
	printf("\nhooks:\n");
	if (!hooks) {
		printf("  (cannot read %s: %s)\n", path, strerror(errno));
		return EXIT_RUNTIME;
	}
	for (line = strtok_r(hooks, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char fn[128], kind[32], state[32];

		if (sscanf(line, "%127s %31s %31s", fn, kind, state) == 3)
			printf("  %-28s %-9s %s\n", fn, kind, state);
		else
			printf("  %s\n", line);
	}
	free(hooks);
	return EXIT_OK;
}

/* ---- set ----------------------------------------------------------------- */

static int setting_exit(int why)
{
	return why == SET_IOERR ? EXIT_RUNTIME : EXIT_USAGE;
}

static int cmd_set(int argc, char **argv)
{
	static struct setting sets[MAX_SETTINGS];
	char why[1024], d[NAME_LEN + VALUE_LEN + 16];
	int i, n, ret, bad = 0, first_bad = SET_OK;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage_cmd("set", stdout);
		return EXIT_OK;
	}
	if (argc < 2)
		return bad_usage("set", "no settings given (KNOB=VALUE ...)");
	n = argc - 1;
	if (n > MAX_SETTINGS)
		return bad_usage("set", "more than %d settings", MAX_SETTINGS);
	ret = check_module(true);
	if (ret)
		return ret;
	ret = load_knobs();
	if (ret)
		return ret;

	/* Check everything before writing anything. */
	for (i = 0; i < n; i++) {
		ret = parse_setting(argv[i + 1], &sets[i], why, sizeof(why));
		if (ret != SET_OK) {
			err("set: %s", why);
			if (!bad++)
				first_bad = ret;
		}
	}
	if (bad) {
		err("set: nothing changed");
		return setting_exit(first_bad);
	}

	for (i = 0; i < n; i++) {
		struct target *t = &targets[sets[i].target];

		if (!strcmp(t->cur, sets[i].value))
			continue;
		ret = target_write(t, sets[i].value);
		if (ret) {
			err("set: writing %s: %s",
			    target_desc(t, sets[i].value, d, sizeof(d)),
			    strerror(-ret));
			if (restore_targets(true))
				err("set: could not restore everything (see above)");
			else
				err("set: nothing changed (earlier settings restored)");
			return EXIT_RUNTIME;
		}
	}
	for (i = 0; i < nr_targets; i++) {
		struct target *t = &targets[i];

		if (strcmp(t->orig, t->cur))
			printf("%s (was %s)\n",
			       target_desc(t, t->cur, d, sizeof(d)), t->orig);
		else
			printf("%s (unchanged)\n",
			       target_desc(t, t->cur, d, sizeof(d)));
	}
	return EXIT_OK;
}

/* ---- stats --------------------------------------------------------------- */

struct stat_line {
	char name[NAME_LEN];
	char value[VALUE_LEN];
	bool counter;		/* an unsigned integer: rates and deltas */
	unsigned long long v;
};

struct stats {
	struct stat_line l[MAX_STATS];
	int n;
};

/* Read the stats file; 0, or -errno. */
static int read_stats(struct stats *st)
{
	char path[PATH_MAX], *buf, *line, *save = NULL;

	path_of(path, sizeof(path), "stats");
	buf = read_file(path);
	if (!buf)
		return -errno;
	st->n = 0;
	for (line = strtok_r(buf, "\n", &save); line && st->n < MAX_STATS;
	     line = strtok_r(NULL, "\n", &save)) {
		struct stat_line *s = &st->l[st->n];

		if (sscanf(line, "%63s %63s", s->name, s->value) != 2)
			continue;
		s->counter = all_digits(s->value);
		s->v = s->counter ? strtoull(s->value, NULL, 10) : 0;
		st->n++;
	}
	free(buf);
	return 0;
}

static const struct stat_line *find_stat(const struct stats *st,
					 const char *name)
{
	int i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->l[i].name, name))
			return &st->l[i];
	return NULL;
}

/*
 * policy=shadow's agreement, one line, when the module printed
 * shadow_agree_pct (it does so only once a wakeup was compared).
 * Returns whether it printed.
 */
static bool print_shadow(const struct stats *st, const char *label)
{
	static const char * const parts[] = {
		"shadow_compared", "shadow_agree", "shadow_disagree",
		"shadow_raced", "shadow_raced_aba",
	};
	const struct stat_line *pct = find_stat(st, "shadow_agree_pct");
	unsigned int i;

	if (!pct)
		return false;
	printf("%s%s%% agree (", label, pct->value);
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const struct stat_line *l = find_stat(st, parts[i]);

		if (l)
			printf("%s%s %s", i ? ", " : "", parts[i] + 7, l->value);
	}
	printf(")\n");
	return true;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Strict JSON number syntax: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (isdigit((unsigned char)*s))
		while (isdigit((unsigned char)*s))
			s++;
	else
		return false;
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return !*s;
}

static void json_value(FILE *f, const char *v)
{
	if (json_number(v))
		fputs(v, f);
	else
		json_string(f, v);
}

/* The "name": value members of one stats snapshot, @sep between them. */
static void print_json_members(const struct stats *st, const char *sep)
{
	int i;

	for (i = 0; i < st->n; i++) {
		printf("%s", i ? sep : "");
		json_string(stdout, st->l[i].name);
		printf(": ");
		json_value(stdout, st->l[i].value);
	}
}

static void print_stats_json(const struct stats *st)
{
	printf("{\n  ");
	print_json_members(st, ",\n  ");
	printf("\n}\n");
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* SIGINT/SIGTERM set got_signal and interrupt blocking calls. */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Sleep @secs unless a signal arrives; false if interrupted. */
static bool nap(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts)) {
		if (errno != EINTR || got_signal)
			return false;
	}
	return !got_signal;
}

static int watch_stats(double every, long count, bool json)
{
	static struct stats a, b;
	struct stats *prev = &a, *cur = &b, *tmp;
	double t0, t1, dt;
	long done = 0;
	int i, ret;

	catch_signals();
	ret = read_stats(prev);
	if (ret) {
		err("cannot read %s/stats: %s", dbg_dir, strerror(-ret));
		return EXIT_RUNTIME;
	}
	t0 = now_mono();
	if (!json)
		fprintf(stderr, PROG ": every %g s%s; rates are per second\n",
			every, count ? "" : " until interrupted");
	while (!count || done < count) {
		if (!nap(every))
			break;
		ret = read_stats(cur);
		if (ret) {
			err("cannot read %s/stats: %s", dbg_dir, strerror(-ret));
			return EXIT_RUNTIME;
		}
		t1 = now_mono();
		dt = t1 - t0 > 0 ? t1 - t0 : every;
		if (json) {
			struct timespec rt;
			bool first = true;

			clock_gettime(CLOCK_REALTIME, &rt);
			printf("{\"time\": %.3f, \"interval\": %.3f, \"values\": {",
			       rt.tv_sec + rt.tv_nsec / 1e9, dt);
			print_json_members(cur, ", ");
			printf("}, \"rates\": {");
			for (i = 0; i < cur->n; i++) {
				const struct stat_line *p;
				const struct stat_line *c = &cur->l[i];

				p = find_stat(prev, c->name);
				if (!c->counter || !p || !p->counter)
					continue;
				printf("%s", first ? "" : ", ");
				first = false;
				json_string(stdout, c->name);
				printf(": %.2f", c->v >= p->v ?
				       (c->v - p->v) / dt : c->v / dt);
			}
			printf("}}\n");
		} else {
			char stamp[32];
			time_t now = time(NULL);

			strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S",
				 localtime(&now));
			printf("--- %s  interval %.2f s\n", stamp, dt);
			printf("%-34s %16s %14s\n", "name", "value", "per_sec");
			for (i = 0; i < cur->n; i++) {
				const struct stat_line *c = &cur->l[i];
				const struct stat_line *p = find_stat(prev, c->name);

				if (c->counter && p && p->counter)
					printf("%-34s %16s %14.1f\n", c->name,
					       c->value, c->v >= p->v ?
					       (c->v - p->v) / dt : c->v / dt);
				else
					printf("%-34s %16s %14s\n", c->name,
					       c->value, "");
			}
		}
		fflush(stdout);
		tmp = prev;
		prev = cur;
		cur = tmp;
		t0 = t1;
		done++;
	}
	return got_signal && count && done < count ? 128 + got_signal : EXIT_OK;
}

static int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "watch", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	static struct stats st;
	double every = 0;
	long count = 0;
	bool json = false;
	char *end;
	int c, ret, i;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+jw:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'w':
			errno = 0;
			every = strtod(optarg, &end);
			if (errno || *end || !(every > 0) || every > 86400)
				return bad_usage("stats",
						 "--watch: expected seconds > 0, got '%s'",
						 optarg);
			break;
		case 'c':
			errno = 0;
			count = strtol(optarg, &end, 10);
			if (errno || *end || count < 1)
				return bad_usage("stats",
						 "--count: expected a positive integer, got '%s'",
						 optarg);
			break;
		case 'h':
			usage_cmd("stats", stdout);
			return EXIT_OK;
		default:
			return bad_usage("stats", "unknown option '%s'",
					 argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("stats", "unexpected argument '%s'", argv[optind]);
	if (count && !every)
		return bad_usage("stats", "--count needs --watch");
	ret = check_module(true);
	if (ret)
		return ret;
	if (every)
		return watch_stats(every, count, json);
	ret = read_stats(&st);
	if (ret) {
		err("cannot read %s/stats: %s", dbg_dir, strerror(-ret));
		return EXIT_RUNTIME;
	}
	if (json) {
		print_stats_json(&st);
	} else {
		for (i = 0; i < st.n; i++)
			printf("%-34s %s\n", st.l[i].name, st.l[i].value);
		if (find_stat(&st, "shadow_agree_pct")) {
			printf("\n");
			print_shadow(&st, "shadow: ");
		}
	}
	return EXIT_OK;
}

/* status: the shadow agreement, if the stats file has it */
static void status_shadow(void)
{
	static struct stats st;

	if (!read_stats(&st))
		print_shadow(&st, "shadow   ");
}

/* ---- reset --------------------------------------------------------------- */

static int cmd_reset(int argc, char **argv)
{
	char path[PATH_MAX];
	int ret;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage_cmd("reset", stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		return bad_usage("reset", "unexpected argument '%s'", argv[1]);
	ret = check_module(true);
	if (ret)
		return ret;
	path_of(path, sizeof(path), "reset");
	ret = write_value(path, "1");
	if (ret) {
		err("cannot write %s: %s", path, strerror(-ret));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* ---- ab: figure extraction ----------------------------------------------- */

/* Is @p the start of a number (not inside a word or another number)? */
static bool number_at(const char *start, const char *p)
{
	const char *q = p;

	if (*q == '-' || *q == '+')
		q++;
	if (*q == '.')
		q++;
	if (!isdigit((unsigned char)*q))
		return false;
	if (p > start) {
		unsigned char b = p[-1];

		if (isalnum(b) || b == '.' || b == '_' || b == '-')
			return false;
	}
	return true;
}

/* Parse the number at @p; set *@end after it. */
static double number_parse(const char *p, const char **end)
{
	char *e;
	double v = strtod(p, &e);

	*end = e;
	return v;
}

/* The word after the number ending at @p on the same line, into @unit. */
static void unit_after(const char *p, char *unit, size_t size)
{
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '[' || *p == '(')
		p++;
	n = strcspn(p, " \t\n])");
	if (!n || !(isalpha((unsigned char)*p) || *p == '%')) {
		unit[0] = '\0';
		return;
	}
	copy_str(unit, size, p, n);
}

static bool is_key(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !strncasecmp(s + len - n, suffix, n);
}

/* The default figure: first key=number with key *_per_sec or *mbps. */
static bool figure_default(const char *out, double *v, char *unit, size_t usize)
{
	const char *p, *k, *end;

	for (p = strchr(out, '='); p; p = strchr(p + 1, '=')) {
		size_t klen;

		for (k = p; k > out && (isalnum((unsigned char)k[-1]) ||
					k[-1] == '_'); k--)
			;
		klen = p - k;
		if (!klen || !(ends_with(k, klen, "_per_sec") ||
			       ends_with(k, klen, "mbps")))
			continue;
		if (!number_at(p + 1, p + 1))
			continue;
		*v = number_parse(p + 1, &end);
		copy_str(unit, usize, k, klen);
		return true;
	}
	/* else the last number printed */
	end = NULL;
	for (p = out; *p; p++) {
		if (number_at(out, p)) {
			const char *e;

			*v = number_parse(p, &e);
			if (e == p)
				continue;
			end = e;
			p = e - 1;
		}
	}
	if (!end)
		return false;
	unit_after(end, unit, usize);
	if (!*unit)
		snprintf(unit, usize, "value");
	return true;
}

/* KEY=n, KEY: n or KEY n, KEY at a word start. */
static bool figure_key(const char *out, const char *key, double *v,
		       char *unit, size_t usize)
{
	size_t klen = strlen(key);
	const char *p, *q, *end;

	for (p = strstr(out, key); p; p = strstr(p + 1, key)) {
		if (p > out && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		q = p + klen;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '=' || *q == ':')
			q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!number_at(q, q))
			continue;
		*v = number_parse(q, &end);
		snprintf(unit, usize, "%s", key);
		return true;
	}
	return false;
}

static bool figure_regex(const char *out, const regex_t *re, double *v,
			 char *unit, size_t usize)
{
	regmatch_t m[2];
	const char *p, *end;

	if (regexec(re, out, 2, m, 0))
		return false;
	if (re->re_nsub >= 1 && m[1].rm_so >= 0)
		p = out + m[1].rm_so;
	else
		p = out + m[0].rm_so;
	for (; *p; p++) {
		if (number_at(p, p)) {
			*v = number_parse(p, &end);
			if (end == p)
				continue;
			unit_after(end, unit, usize);
			if (!*unit)
				snprintf(unit, usize, "value");
			return true;
		}
	}
	return false;
}

/* ---- ab: running the command --------------------------------------------- */

struct run_out {
	char *buf;
	size_t len, cap;
	int status;		/* wait status */
	bool timed_out;
	double secs;
};

static pid_t child_pid;

/*
 * Run @argv with stdout and stderr into a pipe (and to our stdout with
 * @echo), in its own process group so a timeout or Ctrl-C can stop all of
 * it. Returns 0, or -1 if it could not be started.
 */
static int run_command(char **argv, double timeout, bool echo,
		       struct run_out *o)
{
	int pfd[2], ret, status;
	double t0, deadline;
	bool exited = false;
	pid_t pid;

	o->len = 0;
	o->timed_out = false;
	if (!o->buf) {
		o->cap = 65536;
		o->buf = xmalloc(o->cap);
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		err("pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	t0 = now_mono();
	pid = fork();
	if (pid < 0) {
		err("fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (!pid) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		execvp(argv[0], argv);
		fprintf(stderr, PROG ": cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	child_pid = pid;
	close(pfd[1]);
	deadline = timeout > 0 ? t0 + timeout : 0;

	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		ssize_t n;

		ret = poll(&p, 1, exited ? 0 : 100);
		if (ret > 0) {
			if (o->cap - o->len < 4096)
				o->buf = xrealloc(o->buf, o->cap *= 2);
			n = read(pfd[0], o->buf + o->len, o->cap - o->len - 1);
			if (n > 0) {
				if (echo)
					fwrite(o->buf + o->len, 1, n, stdout);
				o->len += n;
				continue;
			}
			if (n == 0 || errno != EINTR)
				break;	/* EOF: every writer is gone */
		}
		if (exited)
			break;		/* child gone and nothing more to read */
		if (got_signal) {
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
		}
		if (deadline && now_mono() > deadline && !o->timed_out) {
			o->timed_out = true;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		ret = waitpid(pid, &status, WNOHANG);
		if (ret == pid) {
			exited = true;
			o->status = status;
			/* sweep up helpers it left behind in its group */
			kill(-pid, SIGKILL);
		}
	}
	close(pfd[0]);
	if (!exited) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		o->status = status;
		kill(-pid, SIGKILL);
	}
	child_pid = 0;
	o->buf[o->len] = '\0';
	o->secs = now_mono() - t0;
	return 0;
}

/* ---- ab ------------------------------------------------------------------ */

struct side {
	char label[NAME_LEN];
	char text[1024];		/* the settings as given */
	struct setting sets[MAX_SETTINGS];
	int nr_sets;
	bool skipped;
	double fig[MAX_RUNS];
	int runs;
	unsigned long long *delta;	/* per counter, summed over runs */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n, double *lo, double *hi)
{
	double s[MAX_RUNS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	*lo = s[0];
	*hi = s[n - 1];
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* A figure in a short, readable form. */
static const char *fmt_num(double x, char *buf, size_t size)
{
	double a = fabs(x);

	if (a >= 1e15 || (a < 1e-3 && a > 0))
		snprintf(buf, size, "%.4g", x);
	else if (a >= 1000 || x == floor(x))
		snprintf(buf, size, "%.1f", x);
	else if (a >= 10)
		snprintf(buf, size, "%.2f", x);
	else
		snprintf(buf, size, "%.4f", x);
	return buf;
}

/* Parse a side's settings; returns SET_OK or the first problem. */
static int parse_side(struct side *s, char *why, size_t why_size)
{
	char copy[sizeof(s->text)], *tok, *save = NULL;
	int ret;

	snprintf(copy, sizeof(copy), "%s", s->text);
	s->nr_sets = 0;
	for (tok = strtok_r(copy, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (s->nr_sets == MAX_SETTINGS) {
			snprintf(why, why_size, "more than %d settings",
				 MAX_SETTINGS);
			return SET_SYNTAX;
		}
		ret = parse_setting(tok, &s->sets[s->nr_sets], why, why_size);
		if (ret != SET_OK)
			return ret;
		s->nr_sets++;
	}
	return SET_OK;
}

/* Bring every target to side @s's value (or its original); 0 or -errno. */
static int apply_side(const struct side *s)
{
	char d[NAME_LEN + VALUE_LEN + 16];
	int i, j, ret;

	for (i = 0; i < nr_targets; i++) {
		struct target *t = &targets[i];
		const char *want = t->orig;

		for (j = 0; j < s->nr_sets; j++)
			if (s->sets[j].target == i)
				want = s->sets[j].value;
		if (!strcmp(t->cur, want))
			continue;
		ret = target_write(t, want);
		if (ret) {
			err("ab: side %s: writing %s: %s", s->label,
			    target_desc(t, want, d, sizeof(d)), strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static void show_tail(const struct run_out *o)
{
	const char *p = o->buf + o->len;
	int lines = 0;

	while (p > o->buf && lines <= 10)
		if (*--p == '\n')
			lines++;
	fprintf(stderr, "---- last output ----\n%s%s----\n", p,
		o->len && o->buf[o->len - 1] != '\n' ? "\n" : "");
}

static int cmd_ab(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "a", required_argument, NULL, 'a' },
		{ "b", required_argument, NULL, 'b' },
		{ "side", required_argument, NULL, 's' },
		{ "runs", required_argument, NULL, 'n' },
		{ "metric", required_argument, NULL, 'm' },
		{ "unit", required_argument, NULL, 'u' },
		{ "lower-is-better", no_argument, NULL, 'L' },
		{ "skip-missing", no_argument, NULL, 'S' },
		{ "csv", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	static struct side sides[MAX_SIDES];
	static struct stats before, after, first;
	const char *metric = NULL, *unit_opt = NULL, *csv_path = NULL;
	bool used[MAX_SIDES] = { false };
	int nr_extra = 0;
	bool lower = false, skip_missing = false, verbose = false;
	bool have_module, have_stats = false, key_metric = false;
	char why[1024], unit[NAME_LEN] = "", buf[64], buf2[64], buf3[64];
	int nr_sides = 0, runs = 5, c, i, j, r, ret, live, rc = EXIT_OK;
	double timeout = 0, ref_med = 0;
	struct run_out out = { 0 };
	FILE *csv = NULL;
	regex_t re;
	char *end;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+a:b:s:n:m:u:c:t:vh", opts,
				NULL)) != -1) {
		struct side *s;
		const char *colon;

		switch (c) {
		case 'a':
		case 'b':
		case 's':
			/* A in slot 0, B in slot 1, the others after them */
			if (c == 's') {
				colon = strchr(optarg, ':');
				if (!colon || colon == optarg ||
				    (size_t)(colon - optarg) >= NAME_LEN ||
				    !strncmp(optarg, "feature:", 8))
					return bad_usage("ab",
							 "--side: expected NAME:SETTINGS, got '%s'",
							 optarg);
				if (2 + nr_extra == MAX_SIDES)
					return bad_usage("ab", "more than %d sides",
							 MAX_SIDES);
				s = &sides[2 + nr_extra++];
				copy_str(s->label, sizeof(s->label), optarg,
					 colon - optarg);
				optarg = (char *)colon + 1;
			} else {
				s = &sides[c == 'a' ? 0 : 1];
				if (used[s - sides])
					return bad_usage("ab", "--%c given twice", c);
				snprintf(s->label, sizeof(s->label), "%c",
					 toupper(c));
			}
			used[s - sides] = true;
			snprintf(s->text, sizeof(s->text), "%s", optarg);
			break;
		case 'n':
			errno = 0;
			runs = strtol(optarg, &end, 10);
			if (errno || *end || runs < 1 || runs > MAX_RUNS)
				return bad_usage("ab",
						 "--runs: expected 1..%d, got '%s'",
						 MAX_RUNS, optarg);
			break;
		case 'm':
			metric = optarg;
			break;
		case 'u':
			unit_opt = optarg;
			break;
		case 'L':
			lower = true;
			break;
		case 'S':
			skip_missing = true;
			break;
		case 'c':
			csv_path = optarg;
			break;
		case 't':
			errno = 0;
			timeout = strtod(optarg, &end);
			if (errno || *end || !(timeout > 0))
				return bad_usage("ab",
						 "--timeout: expected seconds > 0, got '%s'",
						 optarg);
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage_cmd("ab", stdout);
			return EXIT_OK;
		default:
			if (optopt && strchr("absnmuct", optopt))
				return bad_usage("ab", "option '%s' needs a value",
						 argv[optind - 1]);
			return bad_usage("ab", "unknown option '%s'",
					 argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return bad_usage("ab", "no command given (... -- COMMAND [ARG...])");
	/* close the gaps left by a missing --a or --b */
	for (i = 0; i < 2 + nr_extra; i++) {
		if (i >= 2 || used[i]) {
			if (i != nr_sides)
				sides[nr_sides] = sides[i];
			nr_sides++;
		}
	}
	if (nr_sides < 2)
		return bad_usage("ab", "need two sides: --a SETTINGS --b SETTINGS");
	for (i = 0; i < nr_sides; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(sides[i].label, sides[j].label))
				return bad_usage("ab", "two sides named '%s'",
						 sides[i].label);
	if (metric) {
		key_metric = is_key(metric);
		if (!key_metric) {
			ret = regcomp(&re, metric, REG_EXTENDED | REG_NEWLINE);
			if (ret) {
				regerror(ret, &re, why, sizeof(why));
				return bad_usage("ab", "--metric: bad regex '%s': %s",
						 metric, why);
			}
		}
	}

	/* The module is needed for knobs and counters; features alone work without. */
	have_module = !check_module(false);
	if (have_module && load_knobs())
		return EXIT_RUNTIME;
	for (i = 0; i < nr_sides; i++) {
		ret = parse_side(&sides[i], why, sizeof(why));
		if (ret == SET_OK)
			continue;
		if (ret == SET_MISSING && !have_module && !skip_missing) {
			check_module(true);
			err("ab: side %s sets module knobs", sides[i].label);
			return EXIT_RUNTIME;
		}
		if (ret == SET_MISSING && skip_missing) {
			printf("side %s skipped: %s\n", sides[i].label, why);
			sides[i].skipped = true;
			continue;
		}
		err("ab: side %s: %s", sides[i].label, why);
		return setting_exit(ret);
	}
	if (sides[0].skipped) {
		err("ab: the reference side %s was skipped: nothing to compare with",
		    sides[0].label);
		return EXIT_RUNTIME;
	}
	for (live = 0, i = 0; i < nr_sides; i++)
		live += !sides[i].skipped;
	if (live < 2) {
		err("ab: fewer than two sides left to compare");
		return EXIT_RUNTIME;
	}
	if (have_module)
		have_stats = !read_stats(&first);
	if (!have_stats)
		printf("(no module counters: %s not usable)\n", dbg_dir);
	for (i = 0; i < nr_sides; i++)
		sides[i].delta = calloc(MAX_STATS, sizeof(*sides[i].delta));
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv) {
			err("ab: cannot write %s: %s", csv_path, strerror(errno));
			return EXIT_RUNTIME;
		}
		fprintf(csv, "side,run,figure,unit,secs");
		for (i = 0; have_stats && i < first.n; i++)
			if (first.l[i].counter)
				fprintf(csv, ",%s", first.l[i].name);
		fprintf(csv, "\n");
	}

	catch_signals();
	printf("ab: %d run%s per side, command:", runs, runs > 1 ? "s" : "");
	for (i = optind; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	for (i = 0; i < nr_sides; i++)
		if (!sides[i].skipped)
			printf("  side %-12s %s\n", sides[i].label,
			       *sides[i].text ? sides[i].text : "(no changes)");
	printf("figure: %s\n", !metric ? "first *_per_sec/*mbps key=number, else last number" :
	       metric);

	for (r = 0; r < runs && rc == EXIT_OK; r++) {
		for (i = 0; i < nr_sides && rc == EXIT_OK; i++) {
			struct side *s = &sides[i];
			char u[NAME_LEN] = "";
			double v = 0;
			bool found;

			if (s->skipped)
				continue;
			if (got_signal) {
				rc = 128 + got_signal;
				break;
			}
			if (apply_side(s)) {
				rc = EXIT_RUNTIME;
				break;
			}
			if (have_stats && read_stats(&before))
				have_stats = false;
			if (run_command(argv + optind, timeout, verbose, &out)) {
				rc = EXIT_RUNTIME;
				break;
			}
			if (have_stats && read_stats(&after))
				have_stats = false;
			if (got_signal) {
				rc = 128 + got_signal;
				break;
			}
			if (out.timed_out) {
				err("ab: run %d of side %s: timed out after %g s",
				    r + 1, s->label, timeout);
				show_tail(&out);
				rc = EXIT_RUNTIME;
				break;
			}
			if (!WIFEXITED(out.status) || WEXITSTATUS(out.status)) {
				if (WIFEXITED(out.status))
					err("ab: run %d of side %s: command exited with status %d",
					    r + 1, s->label, WEXITSTATUS(out.status));
				else
					err("ab: run %d of side %s: command killed by signal %d",
					    r + 1, s->label, WTERMSIG(out.status));
				show_tail(&out);
				rc = EXIT_RUNTIME;
				break;
			}
			if (!metric)
				found = figure_default(out.buf, &v, u, sizeof(u));
			else if (key_metric)
				found = figure_key(out.buf, metric, &v, u, sizeof(u));
			else
				found = figure_regex(out.buf, &re, &v, u, sizeof(u));
			if (!found) {
				err("ab: run %d of side %s: no figure (%s) in the output",
				    r + 1, s->label, metric ? metric : "default");
				show_tail(&out);
				rc = EXIT_RUNTIME;
				break;
			}
			if (unit_opt)
				snprintf(u, sizeof(u), "%s", unit_opt);
			for (j = 0; u[j]; j++)	/* keep the CSV a CSV */
				if (u[j] == ',' || u[j] == '"')
					u[j] = ';';
			if (!*unit)
				snprintf(unit, sizeof(unit), "%s", u);
			s->fig[s->runs++] = v;
			printf("run %d/%d %-12s %14s %s  (%.1f s)\n", r + 1, runs,
			       s->label, fmt_num(v, buf, sizeof(buf)), u, out.secs);
			if (csv)
				fprintf(csv, "%s,%d,%.10g,%s,%.3f", s->label, r + 1,
					v, u, out.secs);
			for (j = 0; have_stats && j < first.n; j++) {
				const struct stat_line *x, *y;
				unsigned long long d = 0;

				if (!first.l[j].counter)
					continue;
				x = find_stat(&before, first.l[j].name);
				y = find_stat(&after, first.l[j].name);
				if (x && y && x->counter && y->counter)
					d = y->v >= x->v ? y->v - x->v : y->v;
				s->delta[j] += d;
				if (csv)
					fprintf(csv, ",%llu", d);
			}
			if (csv)
				fprintf(csv, "\n");
			fflush(stdout);
		}
	}

	/* Put everything back before reporting. */
	if (restore_targets(verbose)) {
		err("ab: could not restore every setting (see above)");
		if (rc == EXIT_OK)
			rc = EXIT_RUNTIME;
	}
	if (csv && fclose(csv)) {
		err("ab: writing %s: %s", csv_path, strerror(errno));
		rc = EXIT_RUNTIME;
	}
	if (rc != EXIT_OK) {
		if (rc > 128)
			err("ab: interrupted; settings restored");
		return rc;
	}

	printf("\n%-12s %14s %27s %6s %9s\n", "side", "median",
	       "min..max", "runs", "ratio");
	for (i = 0; i < nr_sides; i++) {
		struct side *s = &sides[i];
		double lo, hi, med;
		char range[64];

		if (s->skipped) {
			printf("%-12s %14s %27s %6s %9s\n", s->label, "skipped",
			       "", "", "");
			continue;
		}
		med = median(s->fig, s->runs, &lo, &hi);
		if (i == 0)
			ref_med = med;
		snprintf(range, sizeof(range), "%s..%s",
			 fmt_num(lo, buf2, sizeof(buf2)),
			 fmt_num(hi, buf3, sizeof(buf3)));
		if (ref_med != 0)
			snprintf(buf3, sizeof(buf3), "%.3f", med / ref_med);
		else
			snprintf(buf3, sizeof(buf3), "-");
		printf("%-12s %14s %27s %6d %9s\n", s->label,
		       fmt_num(med, buf, sizeof(buf)), range, s->runs, buf3);
	}
	printf("unit: %s%s\n", unit, lower ? " (lower is better)" : "");
	for (i = 1; i < nr_sides; i++) {
		double lo, hi;

		if (sides[i].skipped)
			continue;
		printf("ratio %s/%s (medians): ", sides[i].label, sides[0].label);
		if (ref_med != 0)
			printf("%.3f\n", median(sides[i].fig, sides[i].runs,
						&lo, &hi) / ref_med);
		else
			printf("undefined (%s median is 0)\n", sides[0].label);
	}

	if (have_stats) {
		bool any = false;

		for (j = 0; j < first.n; j++) {
			bool changed = false;

			for (i = 0; i < nr_sides; i++)
				if (!sides[i].skipped && sides[i].delta[j])
					changed = true;
			if (!changed)
				continue;
			if (!any) {
				printf("\ncounter deltas (summed over each side's runs):\n");
				printf("%-30s", "counter");
				for (i = 0; i < nr_sides; i++)
					if (!sides[i].skipped)
						printf(" %14s", sides[i].label);
				printf("\n");
				any = true;
			}
			printf("%-30s", first.l[j].name);
			for (i = 0; i < nr_sides; i++)
				if (!sides[i].skipped)
					printf(" %14llu", sides[i].delta[j]);
			printf("\n");
		}
		if (!any)
			printf("\ncounter deltas: no counter changed\n");
	}
	for (i = 0; i < nr_sides; i++)
		free(sides[i].delta);
	free(out.buf);
	if (metric && !key_metric)
		regfree(&re);
	return EXIT_OK;
}

/* ---- main ---------------------------------------------------------------- */

static int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		usage_main(stdout);
		return EXIT_OK;
	}
	if (!find_help(argv[1]) && strcmp(argv[1], "help")) {
		err("no such command '%s'", argv[1]);
		usage_main(stderr);
		return EXIT_USAGE;
	}
	usage_cmd(argv[1], stdout);
	return EXIT_OK;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "status", cmd_status },
	{ "set", cmd_set },
	{ "stats", cmd_stats },
	{ "reset", cmd_reset },
	{ "ab", cmd_ab },
	{ "help", cmd_help },
};

int main(int argc, char **argv)
{
	const char *env;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	env = getenv("SMARTWAKE_DEBUGFS");
	if (env && *env) {
		dbg_dir = env;
		dbg_dir_from_env = true;
	}
	env = getenv("SMARTWAKE_SCHED_FEATURES");
	if (env && *env)
		features_path = env;

	if (argc < 2) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_main(stdout);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		/* "CMD --help" for the commands without their own parser */
		if (argc > 2 && cmds[i].fn != cmd_help &&
		    (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
			usage_cmd(argv[1], stdout);
			return EXIT_OK;
		}
		return cmds[i].fn(argc - 1, argv + 1);
	}
	err("unknown command '%s'", argv[1]);
	usage_main(stderr);
	return EXIT_USAGE;
}
