// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI: ab --concurrent. Both sides run at once, one instance of
 * the command each, in cgroups of their own: the module's side in the knob
 * scope, the other outside it (under the kernel).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "ab.h"

/* ---- ab --concurrent ---------------------------------------------------- */

/* Knobs that act on every task, not only on the scope's. */
static const char * const machine_wide[] = { "ttwu_queue", "numa_retry" };

/*
 * --concurrent: one side sets policy=smartwake or policy=shadow (it runs
 * under the module, in the cgroup knob scope selects), the other nothing
 * or policy=stock (it runs under the kernel: out of scope). Settings are
 * machine-wide, so only the module's side may have them, and none that
 * acts outside the scope (features, kernel tunables, ttwu_queue,
 * numa_retry).
 */
int ab_concurrent_check(struct ab *ab)
{
	int i, j, mod = -1;
	size_t k;

	for (i = 0; i < 2; i++) {
		const struct side *s = &ab->sides[i];
		bool module = false, other = false;

		for (j = 0; j < s->nr_sets; j++) {
			const struct setting *x = &s->sets[j];
			const struct target *t = &targets[x->target];

			if (t->kind == T_FEATURE || t->kind == T_FILE)
				return bad_usage("ab", "--concurrent: side %s: %s is machine-wide (both sides would run under it)",
						 s->label, x->text);
			if (!strcmp(t->name, "scope"))
				return bad_usage("ab", "--concurrent: side %s: %s: ab sets scope itself (to the module side's cgroup)",
						 s->label, x->text);
			for (k = 0; k < sizeof(machine_wide) / sizeof(machine_wide[0]); k++)
				if (!strcmp(t->name, machine_wide[k]))
					return bad_usage("ab", "--concurrent: side %s: %s acts on every task, not only its side's",
							 s->label, x->text);
			if (!strcmp(t->name, "policy") && strcmp(x->value, "stock"))
				module = true;
			else if (strcmp(t->name, "policy"))
				other = true;
		}
		if (module && mod >= 0)
			return bad_usage("ab", "--concurrent: both sides set the module's policy; one runs under the kernel (no settings, or policy=stock)");
		if (module)
			mod = i;
		else if (other)
			return bad_usage("ab", "--concurrent: side %s runs under the kernel (it sets no policy=smartwake|shadow) but has settings: knobs are machine-wide, put them on the module's side",
					 s->label);
	}
	if (mod < 0)
		return bad_usage("ab", "--concurrent: one side must set policy=smartwake or policy=shadow (the module's side)");
	ab->mod = mod;
	return AB_GO;
}

/* Is @dir on a cgroup2 file system? */
static bool is_cgroup2(const char *dir)
{
	struct statfs f;

	return !statfs(dir, &f) && f.f_type == CGROUP2_SUPER_MAGIC;
}

/* The first cgroup2 mount of /proc/self/mounts into @out; false if none. */
static bool cgroup2_mount(char *out, size_t size)
{
	char dev[256], mnt[PATH_MAX], type[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/mounts", "re");
	if (!f)
		return false;
	while (!found &&
	       fscanf(f, "%255s %4095s %63s%*[^\n]", dev, mnt, type) == 3)
		if (!strcmp(type, "cgroup2") && strlen(mnt) < size) {
			memcpy(out, mnt, strlen(mnt) + 1);
			found = true;
		}
	fclose(f);
	return found;
}

/*
 * Make ROOT/smartwake-ab.PID/LABEL for both sides, and add scope=<the
 * module side's cgroup> to its settings (restored afterwards like any
 * other). EXIT_OK or an exit status.
 */
static int ab_concurrent_setup(struct ab *ab)
{
	char root[VALUE_LEN], why[1024], text[sizeof(ab->cg[0]) + 32];
	struct side *m = &ab->sides[ab->mod];
	char *ctl;
	int i, ret;

	if (ab->cg_root) {
		if (strlen(ab->cg_root) >= sizeof(root) - 64) {
			sw_err("ab --concurrent: --cgroup-root is too long for knob scope");
			return EXIT_RUNTIME;
		}
		snprintf(root, sizeof(root), "%s", ab->cg_root);
	} else if (!cgroup2_mount(root, sizeof(root))) {
		sw_err("ab --concurrent: no cgroup2 file system mounted (mount -t cgroup2 none /sys/fs/cgroup)");
		return EXIT_RUNTIME;
	}
	if (strlen(root) >= sizeof(root) - 64 || !is_cgroup2(root)) {
		sw_err("ab --concurrent: %s is not a cgroup2 directory", root);
		return EXIT_RUNTIME;
	}
	snprintf(ab->cg_base, sizeof(ab->cg_base), "%s/smartwake-ab.%d", root,
		 (int)getpid());
	if (mkdir(ab->cg_base, 0755)) {
		sw_err("ab --concurrent: mkdir %s: %s", ab->cg_base, strerror(errno));
		return EXIT_RUNTIME;
	}
	ab->cg_made[2] = true;
	for (i = 0; i < 2; i++) {
		snprintf(ab->cg[i], sizeof(ab->cg[i]), "%s/%s", ab->cg_base,
			 ab->sides[i].label);
		if (mkdir(ab->cg[i], 0755)) {
			sw_err("ab --concurrent: mkdir %s: %s", ab->cg[i],
			       strerror(errno));
			return EXIT_RUNTIME;
		}
		ab->cg_made[i] = true;
	}
	/* the cpu controller makes each side one group entity */
	snprintf(text, sizeof(text), "%s/cgroup.controllers", ab->cg[0]);
	ctl = read_file(text);
	if (ctl) {
		char *tok, *save = NULL;

		for (tok = strtok_r(ctl, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save))
			if (!strcmp(tok, "cpu"))
				ab->cpu_ctl = true;
		free(ctl);
	}
	if (m->nr_sets == MAX_SETTINGS) {
		sw_err("ab: side %s: more than %d settings", m->label,
		       MAX_SETTINGS - 1);
		return EXIT_RUNTIME;
	}
	snprintf(text, sizeof(text), "scope=%s", ab->cg[ab->mod]);
	ret = parse_setting(text, &m->sets[m->nr_sets], why, sizeof(why));
	if (ret != SET_OK) {
		sw_err("ab --concurrent: %s (a module without knob scope?)", why);
		return EXIT_RUNTIME;
	}
	m->nr_sets++;
	ab->overlap = 1;
	ab->have_shist = ab->have_hist && !read_hist_file(&ab->sbefore,
							  "latency_hist_scope");
	return EXIT_OK;
}

/* Kill what is left in the sides' cgroups and remove them. */
int ab_concurrent_cleanup(struct ab *ab)
{
	char path[PATH_MAX + 16];
	int i, tries, rc = EXIT_OK;

	for (i = 0; i < 2; i++) {
		if (!ab->cg_made[i])
			continue;
		snprintf(path, sizeof(path), "%s/cgroup.kill", ab->cg[i]);
		write_value(path, "1");
		/* busy until the killed tasks have exited */
		for (tries = 0; rmdir(ab->cg[i]) && errno == EBUSY && tries < 200; tries++)
			usleep(10000);
		if (access(ab->cg[i], F_OK) == 0) {
			sw_err("ab --concurrent: cannot remove %s: %s", ab->cg[i],
			       strerror(errno));
			rc = EXIT_RUNTIME;
		}
		ab->cg_made[i] = false;
	}
	if (ab->cg_made[2] && rmdir(ab->cg_base)) {
		sw_err("ab --concurrent: cannot remove %s: %s", ab->cg_base,
		       strerror(errno));
		rc = EXIT_RUNTIME;
	}
	ab->cg_made[2] = false;
	return rc;
}

static void ab_snap(struct ab *ab, struct stats *st, struct hist *sh,
		    struct hist *h)
{
	if (ab->have_stats && read_stats(st))
		ab->have_stats = false;
	/* the scope's part first: the total then holds at least it */
	if (ab->have_shist && read_hist_file(sh, "latency_hist_scope"))
		ab->have_shist = false;
	if (ab->have_hist && read_hist(h))
		ab->have_hist = false;
}

/* In the child (sw_child_start()'s setup): join cgroup @arg. */
static int join_cgroup(void *arg)
{
	const char *cg = arg;
	char path[PATH_MAX], pid[32];
	int ret;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ret = write_value(path, pid);
	if (ret)
		fprintf(stderr, PROG ": cannot join cgroup %s: %s\n",
			cg, strerror(-ret));
	return ret;
}

/*
 * Round @r of --concurrent: one instance of the command per side, each in
 * its cgroup, started together (the one forked first alternates).
 */
static int ab_run_pair(struct ab *ab, int r)
{
	struct sw_child c[2] = { { .o = &ab->outs[0] }, { .o = &ab->outs[1] } };
	char u[2][NAME_LEN] = { "", "" }, buf[64], path[PATH_MAX + 16];
	int go[2], i, k, kern = !ab->mod;
	double v[2] = { 0, 0 }, t0, lo, hi;

	if (got_signal)
		return 128 + got_signal;
	if (apply_side(&ab->sides[ab->mod]))
		return EXIT_RUNTIME;
	ab_state(ab, ab->mod, r, false);
	ab_snap(ab, &ab->before, &ab->sbefore, &ab->hbefore);
	if (pipe2(go, O_CLOEXEC)) {
		sw_err("pipe: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	for (k = 0; k < 2; k++) {
		i = (r + k) % 2;
		if (sw_child_start(ab->cmd, join_cgroup, ab->cg[i], go, &c[i])) {
			close(go[0]);
			close(go[1]);
			if (k) {
				kill(-c[!i].pid, SIGKILL);
				sw_child_wait(&c[!i], 1, sw_now(), 0, false,
					      &got_signal);
			}
			return EXIT_RUNTIME;
		}
	}
	close(go[0]);
	t0 = sw_now();
	close(go[1]);
	sw_child_wait(c, 2, t0, ab->timeout, ab->verbose, &got_signal);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/cgroup.kill", ab->cg[i]);
		write_value(path, "1");
	}
	ab_snap(ab, &ab->after, &ab->safter, &ab->hafter);
	ab_state(ab, ab->mod, r, true);
	if (got_signal)
		return 128 + got_signal;
	for (i = 0; i < 2; i++)
		if (!ab_run_ok(ab, &ab->sides[i], r, &ab->outs[i]) ||
		    !ab_figure(ab, &ab->sides[i], r, &ab->outs[i], &v[i], u[i]))
			return EXIT_RUNTIME;
	lo = ab->outs[0].secs < ab->outs[1].secs ? ab->outs[0].secs : ab->outs[1].secs;
	hi = ab->outs[0].secs + ab->outs[1].secs - lo;
	if (hi > 0 && lo / hi < ab->overlap)
		ab->overlap = lo / hi;
	for (i = 0; i < 2; i++) {
		printf("run %d/%d %-12s %14s %s  (%.1f s)\n", r + 1, ab->runs,
		       ab->sides[i].label, fmt_num(v[i], buf, sizeof(buf)), u[i],
		       ab->outs[i].secs);
		ab_record(ab, &ab->sides[i], r, v[i], u[i], &ab->outs[i],
			  i == ab->mod);
	}
	if (ab->have_shist && ab->have_hist) {
		struct hist sd, td, rest;

		/* the module's side: its cgroup's tasks; the other: the rest */
		hist_delta(&ab->sbefore, &ab->safter, &sd);
		hist_delta(&ab->hbefore, &ab->hafter, &td);
		hist_delta(&sd, &td, &rest);
		hist_add(&ab->sides[ab->mod].hist, &sd);
		hist_add(&ab->sides[kern].hist, &rest);
	}
	fflush(stdout);
	return EXIT_OK;
}

/* --concurrent's runs: the sides' cgroups, then one pair per round. */
int ab_run_concurrent(struct ab *ab)
{
	int r, rc;

	rc = ab_concurrent_setup(ab);
	for (r = 0; rc == EXIT_OK && r < ab->runs; r++)
		rc = ab_run_pair(ab, r);
	return rc;
}
