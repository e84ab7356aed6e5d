// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: the machine-state record's outputs (machine.h):
 * text, JSON, the one-line summary, steal time.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "machine.h"

/* ---- output -------------------------------------------------------------- */

/* "key = value" lines; absent and unreadable entries say so */
void machine_print(const struct machine *m, FILE *f)
{
	char buf[4096];
	int i;

	for (i = 0; i < m->n; i++)
		fprintf(f, "%s = %s\n", m->e[i].key,
			mentry_text(&m->e[i], buf, sizeof(buf)));
}

/* One JSON object; absent is null, unreadable "(unreadable: ERROR)" */
void machine_json(const struct machine *m, FILE *f, const char *indent)
{
	char buf[4096];
	int i;

	fputs("{", f);
	for (i = 0; i < m->n; i++) {
		fprintf(f, "%s\n%s  ", i ? "," : "", indent);
		json_string(f, m->e[i].key);
		fputs(": ", f);
		if (m->e[i].kind == MS_ABSENT)
			fputs("null", f);
		else if (m->e[i].kind == MS_UNREADABLE)
			json_string(f, mentry_text(&m->e[i], buf, sizeof(buf)));
		else
			json_value(f, m->e[i].val);
	}
	fprintf(f, "\n%s}", indent);
}

/* @key's value, or "?" when absent or unreadable */
static const char *val_of(const struct machine *m, const char *key)
{
	const struct mentry *x = machine_find(m, key);

	return x && x->kind == MS_VALUE ? x->val : "?";
}

/* One line: what a reader of a result wants first. */
void machine_summary(const struct machine *m, FILE *f)
{
	const char *gov = val_of(m, "cpufreq.policy0.governor");

	if (!strcmp(val_of(m, "cpufreq.policies"), "0"))
		gov = "none (no cpufreq policy)";
	fprintf(f, "machine: kernel %s, %s CPUs, SMT %s, %s LLCs, %s nodes, governor %s, numa_balancing %s, THP %s, VM %s\n",
		val_of(m, "kernel.release"), val_of(m, "cpu.count"),
		val_of(m, "cpu.smt"), val_of(m, "cpu.llcs"),
		val_of(m, "node.count"), gov,
		val_of(m, "sysctl.kernel.numa_balancing"), val_of(m, "mm.thp"),
		val_of(m, "vm.hypervisor"));
}

/* The steal ticks of @m (/proc/stat); false if unknown */
bool machine_steal(const struct machine *m, unsigned long long *ticks)
{
	const struct mentry *x = machine_find(m, "vm.steal_ticks");

	if (!x || x->kind != MS_VALUE)
		return false;
	*ticks = strtoull(x->val, NULL, 10);
	return true;
}
