// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: the figure of a run's output for ab (--metric KEY or
 * REGEX, or the default: the first key=number whose key ends in _per_sec
 * or mbps, else the last number printed), its unit, and the summary
 * numbers (median, range, short number format).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "figure.h"

/* ---- figure extraction --------------------------------------------------- */

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
	sw_copy_str(unit, size, p, n);
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
		sw_copy_str(unit, usize, k, klen);
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median(const double *v, int n, double *lo, double *hi)
{
	double s[MAX_RUNS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	*lo = s[0];
	*hi = s[n - 1];
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* A figure in a short, readable form. */
const char *fmt_num(double x, char *buf, size_t size)
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

/*
 * Set up @m for --metric @text (NULL: the default figure): a KEY, or an
 * extended regex compiled here. 0, or -1 with the regex error in @why.
 */
int metric_init(struct metric *m, const char *text, char *why, size_t size)
{
	int ret;

	m->text = text;
	m->key = false;
	if (!text)
		return 0;
	m->key = is_key(text);
	if (m->key)
		return 0;
	ret = regcomp(&m->re, text, REG_EXTENDED | REG_NEWLINE);
	if (ret) {
		regerror(ret, &m->re, why, size);
		m->text = NULL;
		return -1;
	}
	return 0;
}

void metric_free(struct metric *m)
{
	if (m->text && !m->key)
		regfree(&m->re);
	m->text = NULL;
}

/* The figure of one run's output @out, with its unit; false if none. */
bool figure_find(const struct metric *m, const char *out, double *v,
		 char *unit, size_t usize)
{
	if (!m->text)
		return figure_default(out, v, unit, usize);
	if (m->key)
		return figure_key(out, m->text, v, unit, usize);
	return figure_regex(out, &m->re, v, unit, usize);
}
