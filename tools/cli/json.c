// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: JSON output (stats --json, stats --watch --json).
 * Values that are JSON numbers are written as numbers, others as strings.
 */
#include <ctype.h>
#include <string.h>
#include <time.h>

#include "smartwake.h"

void json_string(FILE *f, const char *s)
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

void print_stats_json(const struct stats *st)
{
	printf("{\n  ");
	print_json_members(st, ",\n  ");
	printf("\n}\n");
}

/* A derived line (a ratio or a mean) is a gauge, an event count a counter. */
static bool is_gauge(const struct stat_line *l)
{
	return !l->counter || stat_gauge_name(l->name);
}

/*
 * The stats in the OpenMetrics text format (Prometheus node-exporter's
 * textfile collector reads it): one family per line of the stats file,
 * counters as NAME_total, derived lines as gauges, then "# EOF".
 */
void print_stats_openmetrics(const struct stats *st)
{
	int i;

	for (i = 0; i < st->n; i++) {
		const struct stat_line *l = &st->l[i];
		bool gauge = is_gauge(l);

		printf("# TYPE smartwake_%s %s\n", l->name,
		       gauge ? "gauge" : "counter");
		printf("smartwake_%s%s %s\n", l->name, gauge ? "" : "_total",
		       l->value);
	}
	printf("# EOF\n");
}

/*
 * One --watch interval as one line:
 * {"time":..,"interval":..,"values":{..},"rates":{..}}
 */
void print_watch_json(const struct stats *cur, const struct stats *prev,
		      double dt)
{
	struct timespec rt;
	bool first = true;
	int i;

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
		printf(": %.2f", stat_rate(c, p, dt));
	}
	printf("}}\n");
}
