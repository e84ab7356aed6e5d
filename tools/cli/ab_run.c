// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: ab's run primitives, shared by the sequential runs
 * (ab.c) and --concurrent (ab_concurrent.c): a side's settings applied,
 * a run's status and figure taken and recorded, the machine's state
 * compared with the start (drift).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"

/* Bring every target to side @s's value (or its original); 0 or -errno. */
int apply_side(const struct side *s)
{
	char d[NAME_LEN + VALUE_LEN + 16];
	int i, j, ret;

	for (i = 0; i < nr_targets; i++) {
		struct target *t = &targets[i];
		const char *want = t->orig;

		for (j = 0; j < s->nr_sets; j++)
			if (i >= s->sets[j].target &&
			    i < s->sets[j].target + s->sets[j].nr)
				want = s->sets[j].value;
		if (!strcmp(t->cur, want))
			continue;
		ret = target_write(t, want);
		if (ret) {
			sw_err("ab: side %s: writing %s: %s", s->label,
			       target_desc(t, want, d, sizeof(d)), strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static void show_tail(const struct sw_run_out *o)
{
	const char *p = o->buf + o->len;
	int lines = 0;

	while (p > o->buf && lines <= 10)
		if (*--p == '\n')
			lines++;
	fprintf(stderr, "---- last output ----\n%s%s----\n", p,
		o->len && o->buf[o->len - 1] != '\n' ? "\n" : "");
}

/* Did run @r of side @s finish in time and with status 0? Else say why. */
bool ab_run_ok(const struct ab *ab, const struct side *s, int r,
	       const struct sw_run_out *o)
{
	if (o->timed_out) {
		sw_err("ab: run %d of side %s: timed out after %g s",
		       r + 1, s->label, ab->timeout);
	} else if (!WIFEXITED(o->status) || WEXITSTATUS(o->status)) {
		if (WIFEXITED(o->status))
			sw_err("ab: run %d of side %s: command exited with status %d",
			       r + 1, s->label, WEXITSTATUS(o->status));
		else
			sw_err("ab: run %d of side %s: command killed by signal %d",
			       r + 1, s->label, WTERMSIG(o->status));
	} else {
		return true;
	}
	show_tail(o);
	return false;
}

/*
 * The CSV row of run @r (output @o) and the counter deltas it adds to
 * side @s (with @add; under --concurrent the counters are the machine's,
 * added to the module's side only).
 */
void ab_record(struct ab *ab, struct side *s, int r, double v,
	       const char *u, const struct sw_run_out *o, bool add)
{
	int j;

	s->secs += o->secs;
	if (ab->csv)
		fprintf(ab->csv, "%s,%d,%.10g,%s,%.3f", s->label, r + 1, v, u,
			o->secs);
	for (j = 0; ab->have_stats && j < ab->first.n; j++) {
		const struct stat_line *x, *y;
		unsigned long long d = 0;

		if (!ab->first.l[j].counter)
			continue;
		x = find_stat(&ab->before, ab->first.l[j].name);
		y = find_stat(&ab->after, ab->first.l[j].name);
		if (x && y && x->counter && y->counter)
			d = y->v >= x->v ? y->v - x->v : y->v;
		if (add)
			s->delta[j] += d;
		if (ab->csv)
			fprintf(ab->csv, ",%llu", d);
	}
	if (ab->csv)
		fprintf(ab->csv, "\n");
}

/*
 * The figure of run @r of side @s (output @o) into @v and its unit into
 * @u (NAME_LEN bytes); false, said, if there is none.
 */
bool ab_figure(struct ab *ab, struct side *s, int r,
	       const struct sw_run_out *o, double *v, char *u)
{
	int j;

	if (!figure_find(&ab->metric, o->buf, v, u, NAME_LEN)) {
		sw_err("ab: run %d of side %s: no figure (%s) in the output",
		       r + 1, s->label,
		       ab->metric_text ? ab->metric_text : "default");
		show_tail(o);
		return false;
	}
	if (ab->unit_opt)
		snprintf(u, NAME_LEN, "%s", ab->unit_opt);
	for (j = 0; u[j]; j++)	/* keep the CSV a CSV */
		if (u[j] == ',' || u[j] == '"')
			u[j] = ';';
	if (!*ab->unit)
		snprintf(ab->unit, sizeof(ab->unit), "%s", u);
	s->fig[s->runs++] = *v;
	return true;
}

/* ---- ab: the machine's state ------------------------------------------- */

/*
 * Is record entry @key a setting under test (some side's target)? A
 * governor's change also sets its policy's EPP (intel_pstate): that EPP
 * is under test with it.
 */
static bool ab_under_test(const char *key)
{
	int i;

	for (i = 0; i < nr_targets; i++) {
		const char *k = targets[i].key;
		size_t n = strlen(k);

		if (!strcmp(k, key))
			return true;
		if (n > 9 && !strcmp(k + n - 9, ".governor") &&
		    !strncmp(k, key, n - 8) && !strcmp(key + n - 8, "epp"))
			return true;
	}
	return false;
}

/* Entry @key was @x (NULL: not there) on run @r of side @side: note it once per value. */
static void ab_drift(struct ab *ab, const char *key, const struct mentry *x,
		     int side, int r, bool after)
{
	char buf[4096];
	struct drift *d;
	int i;

	mentry_text(x, buf, sizeof(buf));
	for (i = 0; i < ab->nr_drift; i++) {
		d = &ab->drift[i];
		if (d->side == side && !strcmp(d->key, key) && !strcmp(d->val, buf))
			return;
	}
	if (ab->nr_drift == ab->cap_drift) {
		ab->cap_drift = ab->cap_drift ? 2 * ab->cap_drift : 16;
		ab->drift = sw_xrealloc(ab->drift, ab->cap_drift * sizeof(*ab->drift));
	}
	d = &ab->drift[ab->nr_drift++];
	d->key = sw_xstrdup(key);
	d->val = sw_xstrdup(buf);
	d->side = side;
	d->run = r;
	d->after = after;
}

/*
 * The machine's state before (@after false) or after run @r of side
 * @side (-1: after ab, everything restored): what differs from the start,
 * settings under test and counters aside, is noted; the steal ticks of
 * the run are added to the side's (under --concurrent to both sides').
 */
void ab_state(struct ab *ab, int side, int r, bool after)
{
	unsigned long long t;
	int i;

	machine_read(&ab->snap);
	for (i = 0; i < ab->start.n; i++) {
		const struct mentry *a = &ab->start.e[i], *b = NULL;

		if (a->counter || ab_under_test(a->key))
			continue;
		if (i < ab->snap.n && !strcmp(ab->snap.e[i].key, a->key))
			b = &ab->snap.e[i];
		else
			b = machine_find(&ab->snap, a->key);
		if (!mentry_same(a, b))
			ab_drift(ab, a->key, b, side, r, after);
	}
	for (i = 0; i < ab->snap.n; i++) {	/* entries the start had not */
		const struct mentry *b = &ab->snap.e[i];

		if (!b->counter && !ab_under_test(b->key) &&
		    !machine_find(&ab->start, b->key))
			ab_drift(ab, b->key, b, side, r, after);
	}
	if (!ab->have_steal || !machine_steal(&ab->snap, &t)) {
		ab->have_steal = false;
		return;
	}
	if (!after) {
		ab->steal0 = t;
	} else if (side >= 0) {
		t = t >= ab->steal0 ? t - ab->steal0 : 0;
		if (ab->concurrent) {
			ab->sides[0].steal += t;
			ab->sides[1].steal += t;
		} else {
			ab->sides[side].steal += t;
		}
	}
}

