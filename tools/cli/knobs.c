// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: the module's debugfs files, its knobs (discovered from the
 * "knobs" file), scheduler features, settings and their undoing; the
 * status and set commands.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "smartwake.h"


/* Read a whole file into a NUL-terminated buffer; NULL with errno set. */
char *read_file(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf;
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = sw_xmalloc(cap);
	for (;;) {
		if (cap - len < 2)
			buf = sw_xrealloc(buf, cap *= 2);
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
int write_value(const char *path, const char *val)
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

void path_of(char *out, size_t size, const char *name)
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
int check_module(bool report)
{
	struct stat st;

	if (!stat(dbg_dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	if (!report)
		return EXIT_RUNTIME;
	if (errno == EACCES) {
		sw_err("cannot access %s: %s (debugfs is readable by root only)",
		       dbg_dir, strerror(errno));
		return EXIT_RUNTIME;
	}
	if (dbg_dir_from_env)
		sw_err("no smartwake directory at %s (SMARTWAKE_DEBUGFS): is the module loaded?",
		       dbg_dir);
	else if (!debugfs_mounted())
		sw_err("debugfs is not mounted on " DEBUGFS_MNT
		       " (mount -t debugfs none " DEBUGFS_MNT ")");
	else
		sw_err("the smartwake module is not loaded (no %s): insmod smartwake.ko",
		       dbg_dir);
	return EXIT_RUNTIME;
}

/* ---- the control interface ------------------------------------------------
 * Knobs are written (and "reset") through debugfs, or through the module's
 * parameters when debugfs is locked down: lockdown=integrity (Secure Boot)
 * makes debugfs refuse to open any file with a write bit, even for
 * reading (EPERM), while the read-only files (knobs, stats, hooks, ...)
 * stay readable. Known from securityfs's lockdown file, from an open of
 * a knob file that fails with EPERM, or from the first write that does.
 */

enum ctl_if { CTL_UNKNOWN, CTL_DEBUGFS, CTL_PARAMS };
static enum ctl_if ctl_if;
static char ctl_why[PATH_MAX + 128];	/* why the parameters, when used */

static struct knob knobs[MAX_KNOBS];
static int nr_knobs;

/* The level in brackets of the lockdown file ("integrity"), or "". */
static void lockdown_level(char *lvl, size_t size)
{
	char *buf = read_file(lockdown_path), *o, *c;

	*lvl = '\0';
	if (!buf)
		return;
	o = strchr(buf, '[');
	c = o ? strchr(o, ']') : NULL;
	if (o && c)
		sw_copy_str(lvl, size, o + 1, c - o - 1);
	free(buf);
}

static bool params_present(void)
{
	struct stat st;

	return !stat(params_dir, &st) && S_ISDIR(st.st_mode);
}

static void ctl_detect(void)
{
	char lvl[64], path[PATH_MAX];
	int fd;

	if (ctl_if != CTL_UNKNOWN)
		return;
	ctl_if = CTL_DEBUGFS;
	lockdown_level(lvl, sizeof(lvl));
	if (*lvl && strcmp(lvl, "none")) {
		snprintf(ctl_why, sizeof(ctl_why),
			 "debugfs locked down: lockdown=%s", lvl);
	} else if (nr_knobs) {
		/* a knob file (0644) opens, also for reading, unless locked down */
		path_of(path, sizeof(path), knobs[0].name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		else if (errno == EPERM)
			snprintf(ctl_why, sizeof(ctl_why),
				 "debugfs locked down: opening %s: %s", path,
				 strerror(EPERM));
	}
	if (*ctl_why && params_present())
		ctl_if = CTL_PARAMS;
}

/* "control" of status: the interface in use, and why. */
const char *ctl_desc(char *buf, size_t size)
{
	ctl_detect();
	if (ctl_if == CTL_PARAMS)
		snprintf(buf, size, "%s (%s)", params_dir, ctl_why);
	else if (*ctl_why)
		snprintf(buf, size, "none: %s, and no %s (a smartwake module without parameters?)",
			 ctl_why, params_dir);
	else
		snprintf(buf, size, "%s (debugfs)", dbg_dir);
	return buf;
}

/*
 * Write knob (or "reset") @name through the interface that works; 0 or
 * -errno. A debugfs write refused with EPERM (lockdown) is made through
 * the parameters instead, and from then on every write; when that fails
 * too, the error says which interface works under lockdown.
 */
int ctl_write(const char *name, const char *val)
{
	char dpath[PATH_MAX], ppath[PATH_MAX];
	int ret;

	ctl_detect();
	snprintf(ppath, sizeof(ppath), "%s/%s", params_dir, name);
	if (ctl_if == CTL_DEBUGFS) {
		path_of(dpath, sizeof(dpath), name);
		ret = write_value(dpath, val);
		if (ret != -EPERM)
			return ret;
		if (!*ctl_why)
			snprintf(ctl_why, sizeof(ctl_why),
				 "debugfs locked down: writing %s: %s", dpath,
				 strerror(EPERM));
		ctl_if = CTL_PARAMS;
	}
	ret = write_value(ppath, val);
	/* no such parameter (an older module): not the module's refusal */
	if (ret && access(ppath, F_OK))
		sw_err("%s: %s; %s: under lockdown knobs are written in %s/NAME, which a smartwake module with parameters (this CLI's version) has",
		       ppath, strerror(-ret), ctl_why, params_dir);
	return ret;
}

/* A knob's value file (its text, with newline) from the interface in use. */
char *ctl_read(const char *name)
{
	char path[PATH_MAX];
	char *v = NULL;

	ctl_detect();
	if (ctl_if != CTL_PARAMS) {
		path_of(path, sizeof(path), name);
		v = read_file(path);
		if (v || errno != EPERM)
			return v;
	}
	snprintf(path, sizeof(path), "%s/%s", params_dir, name);
	return read_file(path);
}

/* ---- knobs --------------------------------------------------------------- */

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/*
 * Parse the "knobs" file: "<name> <value>  [<accepted>]  <help>" per line;
 * lines starting with '#' are comments. Returns 0, or EXIT_RUNTIME after
 * reporting.
 */
int load_knobs(void)
{
	char path[PATH_MAX], *buf, *line, *save = NULL;

	path_of(path, sizeof(path), "knobs");
	buf = read_file(path);
	if (!buf) {
		sw_err("cannot read %s: %s", path, strerror(errno));
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
		if (!*p || *p == '#')
			continue;
		if (nr_knobs == MAX_KNOBS) {
			sw_err("%s: more than %d knobs; ignoring the rest", path,
			       MAX_KNOBS);
			break;
		}
		memset(k, 0, sizeof(*k));
		n = strcspn(p, " \t");
		sw_copy_str(k->name, sizeof(k->name), p, n);
		p += n;
		while (isspace((unsigned char)*p))
			p++;
		n = strcspn(p, " \t");
		sw_copy_str(k->value, sizeof(k->value), p, n);
		p += n;
		open = strchr(p, '[');
		close = open ? strchr(open, ']') : NULL;
		if (open && close) {
			sw_copy_str(k->accepted, sizeof(k->accepted), open + 1,
				    close - open - 1);
			q = close + 1;
		} else {
			q = p;
		}
		while (isspace((unsigned char)*q))
			q++;
		sw_copy_str(k->help, sizeof(k->help), q, strlen(q));
		trim(k->help);
		nr_knobs++;
	}
	free(buf);
	return 0;
}

/* The module is there (else say why) and its knobs are known. */
static int open_module(void)
{
	int ret = check_module(true);

	return ret ? ret : load_knobs();
}

static struct knob *find_knob(const char *name)
{
	int i;

	for (i = 0; i < nr_knobs; i++)
		if (!strcmp(knobs[i].name, name))
			return &knobs[i];
	return NULL;
}

/* A knob's value as load_knobs() read it, or NULL if there is no such knob. */
const char *knob_value(const char *name)
{
	const struct knob *k = find_knob(name);

	return k ? k->value : NULL;
}

bool all_digits(const char *s)
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
 * (no signs, spaces or hex); "/PATH" (knob scope) any absolute path. The module's finer rules for the bytes of a
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
		} else if (!strcmp(alt, "/PATH") && val[0] == '/') {
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


struct target targets[MAX_TARGETS];
int nr_targets;

static int find_target(enum tkind kind, const char *name)
{
	int i;

	for (i = 0; i < nr_targets; i++)
		if (targets[i].kind == kind && !strcmp(targets[i].name, name))
			return i;
	return -1;
}

/*
 * Parse one setting, check it against the module's knobs or the features
 * file, and register its target. On failure, @why explains.
 */
int parse_setting(const char *text, struct setting *s, char *why,
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
		sw_copy_str(name, sizeof(name), text, eq - text);
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

const char *target_desc(const struct target *t, const char *val,
			char *buf, size_t size)
{
	if (t->kind == T_FEATURE)
		snprintf(buf, size, "feature:%s", val);
	else
		snprintf(buf, size, "%s=%s", t->name, val);
	return buf;
}

/* Write @val to @t; 0 or -errno. */
int target_write(struct target *t, const char *val)
{
	int ret;

	if (t->kind == T_FEATURE)
		ret = write_value(features_path, val);
	else
		ret = ctl_write(t->name, val);
	if (!ret)
		snprintf(t->cur, sizeof(t->cur), "%s", val);
	return ret;
}

/* Put every target back to its original value; 0 if all went back. */
int restore_targets(bool verbose)
{
	char d[NAME_LEN + VALUE_LEN + 16];
	int i, ret, rc = 0;

	for (i = nr_targets - 1; i >= 0; i--) {
		struct target *t = &targets[i];

		if (!strcmp(t->cur, t->orig))
			continue;
		ret = target_write(t, t->orig);
		if (ret) {
			sw_err("RESTORE FAILED: %s: %s (now %s)",
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

int cmd_status(int argc, char **argv)
{
	char path[PATH_MAX], ctl[2 * PATH_MAX + 256], *hooks, *line, *save = NULL;
	struct knob *pol;
	struct utsname u;
	int i, ret;

	if (argc > 1)
		return bad_usage("status", "unexpected argument '%s'", argv[1]);
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	printf("kernel   %s\n", u.release);
	ret = open_module();
	if (ret)
		return ret;
	printf("debugfs  %s\n", dbg_dir);
	printf("control  %s\n", ctl_desc(ctl, sizeof(ctl)));
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
		int rest = 0;

		if (sscanf(line, "%127s %31s %31s %n", fn, kind, state,
			   &rest) == 3 && line[rest])
			printf("  %-28s %-10s %-4s %s\n", fn, kind, state,
			       line + rest);
		else if (sscanf(line, "%127s %31s %31s", fn, kind, state) == 3)
			printf("  %-28s %-10s %s\n", fn, kind, state);
		else
			printf("  %s\n", line);
	}
	free(hooks);
	return EXIT_OK;
}

/* ---- set ----------------------------------------------------------------- */

int setting_exit(int why)
{
	return why == SET_IOERR ? EXIT_RUNTIME : EXIT_USAGE;
}

int cmd_set(int argc, char **argv)
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
	ret = open_module();
	if (ret)
		return ret;

	/* Check everything before writing anything. */
	for (i = 0; i < n; i++) {
		ret = parse_setting(argv[i + 1], &sets[i], why, sizeof(why));
		if (ret != SET_OK) {
			sw_err("set: %s", why);
			if (!bad++)
				first_bad = ret;
		}
	}
	if (bad) {
		sw_err("set: nothing changed");
		return setting_exit(first_bad);
	}

	for (i = 0; i < n; i++) {
		struct target *t = &targets[sets[i].target];

		if (!strcmp(t->cur, sets[i].value))
			continue;
		ret = target_write(t, sets[i].value);
		if (ret) {
			sw_err("set: writing %s: %s",
			       target_desc(t, sets[i].value, d, sizeof(d)),
			       strerror(-ret));
			if (restore_targets(true))
				sw_err("set: could not restore everything (see above)");
			else
				sw_err("set: nothing changed (earlier settings restored)");
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
