// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: the module's knobs (discovered from its "knobs"
 * file), scheduler features, settings and the values they touch, and
 * their undoing.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"

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

/* The exit status of a setting refused for @why (SET_*). */
int setting_exit(int why)
{
	return why == SET_IOERR ? EXIT_RUNTIME : EXIT_USAGE;
}
