// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: the module's knobs (discovered from its "knobs"
 * file), scheduler features, kernel tunables, settings and the values
 * they touch, and their undoing.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knobs.h"
#include "machine.h"

static struct knob knobs[MAX_KNOBS];
static int nr_knobs;

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
	ctl_set_probe(nr_knobs ? knobs[0].name : "");
	return 0;
}

/* The module is there (else say why) and its knobs are known. */
int open_module(void)
{
	int ret = check_module(true);

	return ret ? ret : load_knobs();
}

int knob_count(void)
{
	return nr_knobs;
}

const struct knob *knob_at(int i)
{
	return &knobs[i];
}

const struct knob *find_knob(const char *name)
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
 * (no signs, spaces or hex); "/PATH" (knob scope) any absolute path.
 * The module's finer rules for the bytes of a write (numbers in canonical
 * form, at most 31 bytes) are left to it: a write it refuses is undone
 * like any other failed write.
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

/* ---- kernel tunables: sched:, sysctl:, cpufreq: ------------------------- */

/* Debugfs under lockdown: what cannot be written, and what can; "" if not. */
static void lockdown_note(char *buf, size_t size)
{
	char lvl[64];

	lockdown_level(lvl, sizeof(lvl));
	if (*lvl && strcmp(lvl, "none"))
		snprintf(buf, size, "debugfs is locked down (lockdown=%s): nothing under /sys/kernel/debug/sched/ (sched:, feature:) can be written; sysctl:, cpufreq: and the module's knobs can",
			 lvl);
	else
		*buf = '\0';
}

/* A relative path or sysctl name without "..", spaces or a leading '/'. */
static bool safe_name(const char *s)
{
	if (!*s || *s == '/' || strstr(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-./:", *s))
			return false;
	return true;
}

/* Is @word one of the space-separated words of file @path? */
static int file_has_word(const char *path, const char *word)
{
	char *buf = read_file(path), *t, *save = NULL;
	int found = 0;

	if (!buf)
		return -errno;
	for (t = strtok_r(buf, " \t\n", &save); t && !found;
	     t = strtok_r(NULL, " \t\n", &save))
		found = !strcmp(t, word);
	free(buf);
	return found;
}

/*
 * Check tunable file @path of setting @text: there, a file, writable,
 * readable (its value now into @orig). SET_* and @why.
 */
static int check_file(const char *text, const char *path, char *orig,
		      char *why, size_t why_size)
{
	char note[256];
	struct stat st;
	char *v;

	if (stat(path, &st)) {
		int e = errno;

		lockdown_note(note, sizeof(note));
		if (e == EPERM || e == EACCES || *note)
			snprintf(why, why_size, "'%s': %s: %s%s%s", text, path,
				 strerror(e), *note ? "; " : "", note);
		else
			snprintf(why, why_size, "'%s': the kernel has no %s", text, path);
		return e == ENOENT || e == ENOTDIR ? SET_MISSING : SET_IOERR;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, why_size, "'%s': %s is not a tunable's file", text, path);
		return SET_MISSING;
	}
	if (!(st.st_mode & 0222)) {
		snprintf(why, why_size, "'%s': %s is read-only", text, path);
		return SET_BADVAL;
	}
	/* EPERM (an immutable file) is left to the write, undone if it fails */
	if (access(path, W_OK) && errno != EPERM) {
		snprintf(why, why_size, "'%s': cannot write %s: %s", text, path,
			 strerror(errno));
		return SET_IOERR;
	}
	v = read_file(path);
	if (!v) {
		int e = errno;

		lockdown_note(note, sizeof(note));
		snprintf(why, why_size, "'%s': cannot read %s: %s%s%s", text,
			 path, strerror(e), *note ? "; " :
			 e == EPERM ? " (debugfs locked down?)" : "", note);
		return SET_IOERR;
	}
	file_choice(v);
	if (strlen(v) >= VALUE_LEN) {
		snprintf(why, why_size, "'%s': %s holds more than a value", text, path);
		free(v);
		return SET_BADVAL;
	}
	snprintf(orig, VALUE_LEN, "%s", v);
	free(v);
	return SET_OK;
}

static int find_target(enum tkind kind, const char *name);

/* Target @name (file @path, record key @key, value now @orig); its index or -1. */
static int add_file_target(const char *name, const char *key, const char *path,
			   const char *orig)
{
	int t = find_target(T_FILE, name);

	if (t >= 0)
		return t;
	if (nr_targets == MAX_TARGETS)
		return -1;
	t = nr_targets++;
	memset(&targets[t], 0, sizeof(targets[t]));
	targets[t].kind = T_FILE;
	snprintf(targets[t].name, sizeof(targets[t].name), "%s", name);
	snprintf(targets[t].key, sizeof(targets[t].key), "%s", key);
	snprintf(targets[t].path, sizeof(targets[t].path), "%s", path);
	snprintf(targets[t].orig, sizeof(targets[t].orig), "%s", orig);
	snprintf(targets[t].cur, sizeof(targets[t].cur), "%s", orig);
	return t;
}

/* cpufreq:KEY: the file in each policy, the file of its accepted values */
static const struct {
	const char *key, *file, *avail;
} cpufreq_keys[] = {
	{ "governor", "scaling_governor", "scaling_available_governors" },
	{ "epp", "energy_performance_preference",
	  "energy_performance_available_preferences" },
	{ "boost", NULL, NULL },	/* cpufreq/boost, not per policy */
};

#define MAX_POLICIES	256

/* cpufreq:KEY=VALUE: every policy's file (boost: the one file) */
static int parse_cpufreq(const char *text, const char *key, const char *val,
			 struct setting *s, char *why, size_t why_size)
{
	static char paths[MAX_POLICIES][1024], origs[MAX_POLICIES][VALUE_LEN];
	char dir[768], avail[PATH_MAX + 2 * NAME_MAX], name[2 * NAME_MAX];
	char rkey[2 * NAME_MAX], **pol = NULL;
	int i, n = 0, np = 0, ret, t, first = -1;
	size_t k;
	DIR *dp;
	struct dirent *d;

	for (k = 0; k < ARRAY_SIZE(cpufreq_keys); k++)
		if (!strcmp(cpufreq_keys[k].key, key))
			break;
	if (k == ARRAY_SIZE(cpufreq_keys)) {
		snprintf(why, why_size, "'%s': no cpufreq key '%s' (keys: governor epp boost)",
			 text, key);
		return SET_SYNTAX;
	}
	snprintf(dir, sizeof(dir), "%s/cpufreq", cpu_dir);
	if (!cpufreq_keys[k].file) {
		if (strcmp(val, "0") && strcmp(val, "1")) {
			snprintf(why, why_size, "'%s': boost is 0 or 1", text);
			return SET_BADVAL;
		}
		snprintf(paths[0], sizeof(paths[0]), "%s/boost", dir);
		ret = check_file(text, paths[0], origs[0], why, why_size);
		if (ret != SET_OK)
			return ret;
		t = add_file_target("cpufreq:boost", "cpufreq.boost", paths[0], origs[0]);
		if (t < 0)
			goto too_many;
		s->target = t;
		s->nr = 1;
		return SET_OK;
	}
	/* the policies, sorted by number */
	dp = opendir(dir);
	if (dp) {
		pol = sw_xcalloc(MAX_POLICIES, sizeof(*pol));
		while ((d = readdir(dp)) && np < MAX_POLICIES)
			if (!strncmp(d->d_name, "policy", 6) && all_digits(d->d_name + 6))
				pol[np++] = sw_xstrdup(d->d_name);
		closedir(dp);
	}
	for (i = 1; i < np; i++) {	/* few: insertion sort */
		char *x = pol[i];
		int j = i;

		for (; j > 0 && atoi(pol[j - 1] + 6) > atoi(x + 6); j--)
			pol[j] = pol[j - 1];
		pol[j] = x;
	}
	if (!np) {
		snprintf(why, why_size, "'%s': no cpufreq policies under %s", text, dir);
		ret = SET_MISSING;
		goto out;
	}
	/* everything checked before any target is registered */
	for (i = 0; i < np; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/%s/%s", dir, pol[i],
			 cpufreq_keys[k].file);
		ret = check_file(text, paths[i], origs[i], why, why_size);
		if (ret != SET_OK)
			goto out;
		snprintf(avail, sizeof(avail), "%s/%s/%s", dir, pol[i],
			 cpufreq_keys[k].avail);
		ret = file_has_word(avail, val);
		if (ret == 0 && !(k == 1 && all_digits(val))) {
			char *list = read_file(avail);

			if (list)
				file_choice(list);
			snprintf(why, why_size, "'%s': %s does not accept '%s' (%s: %s)",
				 text, pol[i], val, cpufreq_keys[k].avail,
				 list ? list : "?");
			free(list);
			ret = SET_BADVAL;
			goto out;
		}
		if (ret < 0 && k == 0) {
			snprintf(why, why_size, "'%s': cannot read %s: %s", text,
				 avail, strerror(-ret));
			ret = SET_IOERR;
			goto out;
		}
	}
	if (nr_targets + np > MAX_TARGETS)
		goto too_many;
	for (i = 0; i < np; i++) {
		snprintf(name, sizeof(name), "cpufreq:%s/%s", pol[i], key);
		snprintf(rkey, sizeof(rkey), "cpufreq.%s.%s", pol[i], key);
		t = add_file_target(name, rkey, paths[i], origs[i]);
		if (first < 0)
			first = t;
		n++;
	}
	s->target = first;
	s->nr = n;
	ret = SET_OK;
out:
	for (i = 0; i < np; i++)
		free(pol[i]);
	free(pol);
	return ret;
too_many:
	snprintf(why, why_size, "too many settings");
	ret = SET_SYNTAX;
	goto out;
}

/*
 * sched:PATH=VALUE (a file under /sys/kernel/debug/sched/),
 * sysctl:NAME=VALUE (/proc/sys/NAME, dots as slashes), cpufreq:KEY=VALUE.
 */
static int parse_tunable(const char *text, struct setting *s, char *why,
			 size_t why_size)
{
	const char *colon = strchr(text, ':'), *eq = strchr(text, '=');
	char name[NAME_LEN], val[VALUE_LEN], path[1024], orig[VALUE_LEN];
	char tname[NAME_LEN + 16], key[NAME_LEN + 16], note[256];
	bool sched = !strncmp(text, "sched:", 6);
	int ret, t;
	char *p;

	if (!eq || eq == colon + 1 || !eq[1] || (size_t)(eq - colon - 1) >= NAME_LEN ||
	    strlen(eq + 1) >= VALUE_LEN || strpbrk(eq + 1, " \t\n")) {
		snprintf(why, why_size, "'%s': expected %.*sNAME=VALUE", text,
			 (int)(colon - text + 1), text);
		return SET_SYNTAX;
	}
	sw_copy_str(name, sizeof(name), colon + 1, eq - colon - 1);
	snprintf(val, sizeof(val), "%s", eq + 1);
	snprintf(s->value, sizeof(s->value), "%s", val);
	if (!strncmp(text, "cpufreq:", 8))
		return parse_cpufreq(text, name, val, s, why, why_size);
	if (!safe_name(name)) {
		snprintf(why, why_size, "'%s': '%s' is no %s", text, name,
			 sched ? "path under /sys/kernel/debug/sched/" : "sysctl name");
		return SET_SYNTAX;
	}
	if (sched) {
		lockdown_note(note, sizeof(note));
		if (*note) {
			snprintf(why, why_size, "'%s': cannot be written: %s", text, note);
			return SET_IOERR;
		}
		snprintf(path, sizeof(path), "%s/%s", sched_dir, name);
		snprintf(key, sizeof(key), "sched.%s", name);
		snprintf(tname, sizeof(tname), "sched:%s", name);
	} else {
		snprintf(key, sizeof(key), "sysctl.%s", name);
		for (p = key; *p; p++)
			if (*p == '/')
				*p = '.';
		snprintf(tname, sizeof(tname), "sysctl:%s", key + 7);
		snprintf(path, sizeof(path), "%s/%s", sysctl_dir, key + 7);
		for (p = path + strlen(sysctl_dir) + 1; *p; p++)
			if (*p == '.')
				*p = '/';
	}
	ret = check_file(text, path, orig, why, why_size);
	if (ret != SET_OK)
		return ret;
	t = add_file_target(tname, key, path, orig);
	if (t < 0) {
		snprintf(why, why_size, "too many settings");
		return SET_SYNTAX;
	}
	s->target = t;
	s->nr = 1;
	return SET_OK;
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
	const struct knob *k;
	enum tkind kind;
	int t, ret;

	snprintf(s->text, sizeof(s->text), "%s", text);
	if (!strncmp(text, "sched:", 6) || !strncmp(text, "sysctl:", 7) ||
	    !strncmp(text, "cpufreq:", 8))
		return parse_tunable(text, s, why, why_size);
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
			char note[256];

			lockdown_note(note, sizeof(note));
			snprintf(why, why_size,
				 "'%s': cannot read %s: %s (%s)", text, features_path,
				 strerror(-ret), *note ? note :
				 "needs debugfs and CONFIG_SCHED_DEBUG");
			return SET_IOERR;
		}
	} else {
		eq = strchr(text, '=');
		kind = T_KNOB;
		if (!eq || eq == text || (size_t)(eq - text) >= NAME_LEN ||
		    strlen(eq + 1) >= VALUE_LEN) {
			snprintf(why, why_size,
				 "'%s': expected KNOB=VALUE, feature:NAME, sched:PATH=VALUE, sysctl:NAME=VALUE or cpufreq:KEY=VALUE",
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
		memset(&targets[t], 0, sizeof(targets[t]));
		targets[t].kind = kind;
		snprintf(targets[t].name, sizeof(targets[t].name), "%s", name);
		snprintf(targets[t].key, sizeof(targets[t].key), "%s.%s",
			 kind == T_FEATURE ? "feature" : "module", name);
		snprintf(targets[t].orig, sizeof(targets[t].orig), "%s", tok);
		snprintf(targets[t].cur, sizeof(targets[t].cur), "%s", tok);
	}
	s->target = t;
	s->nr = 1;
	snprintf(s->value, sizeof(s->value), "%s", val);
	return SET_OK;
}

const char *target_desc(const struct target *t, const char *val,
			char *buf, size_t size)
{
	if (t->kind == T_FEATURE)
		snprintf(buf, size, "feature:%s", val);
	else	/* a knob, or "sched:PATH", "sysctl:NAME", "cpufreq:policyN/KEY" */
		snprintf(buf, size, "%s=%s", t->name, val);
	return buf;
}

/* Write @val to @t; 0 or -errno. */
int target_write(struct target *t, const char *val)
{
	int ret;

	if (t->kind == T_FEATURE)
		ret = write_value(features_path, val);
	else if (t->kind == T_FILE)
		ret = write_value(t->path, val);
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

/* The exit status of a setting refused for @why (SET_*). */
int setting_exit(int why)
{
	return why == SET_IOERR ? EXIT_RUNTIME : EXIT_USAGE;
}
