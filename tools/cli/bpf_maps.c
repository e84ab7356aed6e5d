// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake bpf: what is attached, by any loader (this one, bpftool
 * struct_ops register, a program's own): the struct_ops maps named
 * smartwake_ops, their links and programs, and the programs' maps.
 * unload detaches (a link by BPF_LINK_DETACH, a plain map by deleting its
 * element), removes the pins and waits until the kernel freed the map;
 * status shows it; stats prints the programs' per-CPU statistics maps by
 * their BTF member names, summed over CPUs, beside the module's counters.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf.h"
#include "sysfs.h"

/* enum bpf_struct_ops_state */
#define STATE_INUSE	1		/* registered by the map's update */
#define STATE_READY	3		/* a .struct_ops.link map: its link registers it */
#define MAX_MAPS	16

/*
 * Call @fn for each struct_ops map of the module's type (fd, info), by
 * whatever loader and whatever name, until it returns non-zero. The
 * module registers one struct_ops type: a struct_ops map whose value type
 * is in the module's BTF object is one of ours. 0 (also when the module
 * is not loaded: then no map can be ours), @fn's value, or a failed
 * step's exit code.
 */
int walk_ops_maps(ops_map_fn fn, void *ctx)
{
	struct bpf_map_info mi;
	uint32_t id = 0, len, mod_id;
	int fd, ret;

	fd = mod_btf_fd(&mod_id);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return step_fail("BPF_BTF_GET_NEXT_ID (the module's BTF)", fd);
	close(fd);
	for (;;) {
		if (bpf_map_get_next_id(id, &id))
			return errno == ENOENT ? 0 : step_fail("BPF_MAP_GET_NEXT_ID", -errno);
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;
			return step_fail("BPF_MAP_GET_FD_BY_ID", -errno);
		}
		memset(&mi, 0, sizeof(mi));
		len = sizeof(mi);
		if (bpf_map_get_info_by_fd(fd, &mi, &len)) {
			ret = step_fail("BPF_OBJ_GET_INFO_BY_FD (map)", -errno);
			close(fd);
			return ret;
		}
		ret = 0;
		if (mi.type == BPF_MAP_TYPE_STRUCT_OPS && mi.btf_vmlinux_id == mod_id)
			ret = fn(fd, &mi, ctx);
		close(fd);
		if (ret)
			return ret;
	}
}

int ops_link_fd(uint32_t map_id, uint32_t *link_id)
{
	struct bpf_link_info li;
	uint32_t id = 0, len;
	int fd;

	while (!bpf_link_get_next_id(id, &id)) {
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&li, 0, sizeof(li));
		len = sizeof(li);
		if (!bpf_link_get_info_by_fd(fd, &li, &len) &&
		    li.type == BPF_LINK_TYPE_STRUCT_OPS && li.struct_ops.map_id == map_id) {
			*link_id = id;
			return fd;
		}
		close(fd);
	}
	return -ENOENT;
}

/*
 * Registered: a plain map in use, or a link map with its link (the
 * link's map_id names it; a detached link names none).
 */
static bool ops_registered(const struct bpf_map_info *mi, uint32_t state, uint32_t *link_id)
{
	int lfd;

	*link_id = 0;
	if (state == STATE_INUSE)
		return true;
	if (state != STATE_READY)
		return false;
	lfd = ops_link_fd(mi->id, link_id);
	if (lfd < 0)
		return false;
	close(lfd);
	return true;
}

/* the map's value: its state, and the program ids of its callbacks */
int ops_prog_ids(int fd, const struct bpf_map_info *mi, uint32_t *ids, unsigned int max)
{
	unsigned char *value = calloc(1, mi->value_size + 8);
	uint32_t key = 0, state, off, link_id;
	unsigned int n = 0;
	bool reg;
	uint64_t id;

	if (!value)
		sw_die("out of memory");
	if (bpf_map_lookup_elem(fd, &key, value)) {
		free(value);
		return -errno;
	}
	/* struct bpf_struct_ops_common_value: refcnt, state; then the ops */
	memcpy(&state, value + 4, sizeof(state));
	reg = ops_registered(mi, state, &link_id);
	for (off = 8; reg && off + 8 <= mi->value_size && n < max; off += 8) {
		memcpy(&id, value + off, sizeof(id));
		if (id && id < UINT32_MAX)
			ids[n++] = id;
	}
	free(value);
	return reg ? (int)n : -ENOENT;
}

/* ---- unload ---- */

struct unload_ctx {
	unsigned int n;		/* maps detached */
	uint32_t ids[MAX_MAPS];	/* their ids, to wait for */
};

static int unload_one(int fd, const struct bpf_map_info *mi, void *ctx)
{
	struct unload_ctx *u = ctx;
	uint32_t key = 0, link_id;
	int lfd, err;

	lfd = ops_link_fd(mi->id, &link_id);
	if (lfd >= 0) {
		err = bpf_link_detach(lfd) ? -errno : 0;
		close(lfd);
		if (err)
			return step_fail("BPF_LINK_DETACH", err);
		printf("detached map_id=%u link_id=%u\n", mi->id, link_id);
	} else {
		if (bpf_map_delete_elem(fd, &key)) {
			err = -errno;
			/* not registered (yet), on its way out, or a detached link's */
			if (err == -ENOENT || err == -EINPROGRESS || err == -EOPNOTSUPP)
				return 0;
			return step_fail("BPF_MAP_DELETE_ELEM (detach)", err);
		}
		printf("detached map_id=%u\n", mi->id);
	}
	if (u->n < ARRAY_SIZE(u->ids))
		u->ids[u->n] = mi->id;
	u->n++;
	return 0;
}

/* the pins of "smartwake bpf load": they hold the maps (and the module) */
static void remove_pins(void)
{
	struct dirent *e;
	char path[PATH_MAX];
	DIR *d = opendir(PIN_DIR);

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", PIN_DIR, e->d_name);
			if (unlink(path))
				sw_err("warning: cannot remove %s: %s", path, strerror(errno));
		}
	closedir(d);
	rmdir(PIN_DIR);
}

#define MOD_REFCNT	"/sys/module/smartwake/refcnt"

static long mod_refcnt(void)
{
	long v = -1;
	FILE *f = fopen(MOD_REFCNT, "r");

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * The BPF core frees a detached map in a work item: its id goes when the
 * last reference does, its reference on the module a little later. Wait
 * for both, so that an rmmod right after the unload finds the module
 * free: the ids gone, the count at most @before minus one per map, then
 * steady for 200 ms.
 */
static void wait_maps_freed(const struct unload_ctx *u, long before)
{
	unsigned int i, left, tries, steady = 0;
	long now, last = -1;
	int fd;

	for (tries = 0; tries < 500; tries++) {
		left = 0;
		for (i = 0; i < u->n && i < ARRAY_SIZE(u->ids); i++) {
			fd = bpf_map_get_fd_by_id(u->ids[i]);
			if (fd >= 0) {
				close(fd);
				left++;
			}
		}
		now = before < 0 ? -1 : mod_refcnt();
		if (!left && (now < 0 || now <= before - (long)u->n)) {
			steady = now == last ? steady + 1 : 0;
			if (now < 0 || steady >= 10)
				return;
		}
		last = now;
		usleep(20000);
	}
	sw_err("warning: a detached map or its reference on the module is still there after 10 s (a process or a pin elsewhere holds it: bpftool map list; a pin of bpftool struct_ops register); rmmod smartwake is refused until it goes");
}

int do_unload(int argc, char **argv)
{
	struct unload_ctx u = { 0 };
	long before = mod_refcnt();
	int ret;

	if (argc > 1)
		return bad_usage("bpf", "unload: unexpected argument '%s'", argv[1]);
	ret = walk_ops_maps(unload_one, &u);
	if (ret)
		return ret;
	remove_pins();
	if (!u.n) {
		sw_err("no smartwake BPF policy attached");
		return EXIT_RUNTIME;
	}
	wait_maps_freed(&u, before);
	return EXIT_OK;
}

/* ---- status ---- */

struct status_ctx {
	struct kbtf k;
	bool have_btf;
	int attached;
	char line[512];		/* the machine-readable line */
};

static void prog_name_by_id(uint32_t id, char *name, size_t size)
{
	struct bpf_prog_info pi;
	uint32_t len = sizeof(pi);
	int fd;

	*name = '\0';
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return;
	memset(&pi, 0, sizeof(pi));
	if (!bpf_prog_get_info_by_fd(fd, &pi, &len))
		snprintf(name, size, "%.*s", BPF_OBJ_NAME_LEN, pi.name);
	close(fd);
}

static int status_one(int fd, const struct bpf_map_info *mi, void *vctx)
{
	struct status_ctx *s = vctx;
	const struct btf_type *t;
	const struct btf_member *m;
	unsigned char *value;
	uint32_t key = 0, state, link_id, idx, moff;
	unsigned int i;
	size_t len;
	int ret;

	if (!s->have_btf) {
		ret = kbtf_open(&s->k);
		if (ret)
			return ret;
		s->have_btf = true;
	}
	value = calloc(1, mi->value_size + 8);
	if (!value)
		sw_die("out of memory");
	if (bpf_map_lookup_elem(fd, &key, value)) {
		ret = -errno;
		free(value);
		return step_fail("BPF_MAP_LOOKUP_ELEM (struct_ops value)", ret);
	}
	memcpy(&state, value + 4, sizeof(state));
	if (!ops_registered(mi, state, &link_id)) {
		printf("map %u (%s): not registered (state %u)\n", mi->id, mi->name, state);
		free(value);
		return 0;
	}
	if (link_id)
		printf("map %u (%s): attached by link %u\n", mi->id, mi->name, link_id);
	else
		printf("map %u (%s): attached\n", mi->id, mi->name);
	len = snprintf(s->line, sizeof(s->line), "attached map_id=%u prog=", mi->id);
	t = btf__type_by_id(s->k.mod, s->k.ops_id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++) {
		const char *mname = btf__name_by_offset(s->k.mod, m[i].name_off);
		char pname[BPF_OBJ_NAME_LEN + 1];
		uint64_t prog_id;

		if (kbtf_member(&s->k, mname, &idx, &moff) ||
		    s->k.data_off + moff + 8 > mi->value_size)
			continue;
		memcpy(&prog_id, value + s->k.data_off + moff, sizeof(prog_id));
		if (!prog_id)
			continue;
		prog_name_by_id(prog_id, pname, sizeof(pname));
		printf("  %-16s prog id %llu  %s\n", mname, (unsigned long long)prog_id,
		       *pname ? pname : "(name unknown)");
		if (len < sizeof(s->line))
			len += snprintf(s->line + len, sizeof(s->line) - len, "%s%s",
					s->line[len - 1] == '=' ? "" : ",",
					*pname ? pname : "?");
	}
	s->attached++;
	free(value);
	return 0;
}

/*
 * The module's side of an attached program: set aside by
 * revert_on=violation (attached but never called again: status must not
 * claim a policy the module set aside), or unknown when its bpf file
 * cannot be read (the map alone would still say "attached").
 */
static void print_set_aside(void)
{
	char path[PATH_MAX], *text, *line;

	path_of(path, sizeof(path), "bpf");
	text = read_file(path);
	if (!text) {
		printf("module state unknown: cannot read %s (%s): whether revert_on=violation set the program aside is not known (mount debugfs: mount -t debugfs none /sys/kernel/debug)\n",
		       path, strerror(errno));
		return;
	}
	line = strstr(text, "set aside by revert_on=violation");
	if (line) {
		line[strcspn(line, "\n")] = '\0';
		printf("%s (policy=bpf is refused until then)\n", line);
	}
	free(text);
}

int do_status(int argc, char **argv)
{
	struct status_ctx s;
	int ret;

	if (argc > 1)
		return bad_usage("bpf", "status: unexpected argument '%s'", argv[1]);
	memset(&s, 0, sizeof(s));
	s.k.fd = -1;
	ret = walk_ops_maps(status_one, &s);
	if (s.have_btf)
		kbtf_close(&s.k);
	if (ret)
		return ret;
	if (!s.attached) {
		printf("no smartwake BPF policy attached\n");
		printf("detached\n");
	} else {
		if (access(PIN_DIR, F_OK) == 0)
			printf("pinned under %s\n", PIN_DIR);
		print_set_aside();
		printf("%s\n", s.line);
	}
	return EXIT_OK;
}

/* ---- stats ---- */

/* one per-CPU array map's values, by member name, summed over CPUs and keys */
static void print_stats_map(int fd, const struct bpf_map_info *mi)
{
	struct btf *btf = mi->btf_id ? btf__load_from_kernel_by_id(mi->btf_id) : NULL;
	const struct btf_type *t = btf && mi->btf_value_type_id ?
		btf__type_by_id(btf, btf__resolve_type(btf, mi->btf_value_type_id)) : NULL;
	int ncpus = libbpf_num_possible_cpus();
	size_t stride = (mi->value_size + 7) / 8 * 8;
	unsigned char *buf;
	unsigned int key, c, i, n = t && btf_is_struct(t) ? btf_vlen(t) : 1;
	unsigned long long *sum;

	if (ncpus <= 0) {
		btf__free(btf);
		return;
	}
	buf = calloc(ncpus, stride);
	sum = calloc(n * (t && btf_is_struct(t) ? 1 : mi->max_entries), sizeof(*sum));
	if (!buf || !sum)
		sw_die("out of memory");
	for (key = 0; key < mi->max_entries; key++) {
		if (bpf_map_lookup_elem(fd, &key, buf))
			continue;
		for (c = 0; c < (unsigned int)ncpus; c++) {
			const unsigned char *v = buf + c * stride;

			if (t && btf_is_struct(t)) {
				const struct btf_member *m = btf_members(t);

				for (i = 0; i < n; i++) {
					const struct btf_type *mt = btf__type_by_id(btf,
						btf__resolve_type(btf, m[i].type));
					unsigned long long x = 0;
					uint32_t off = btf_member_bit_offset(t, i) / 8;

					if (mt && btf_is_int(mt) && mt->size <= 8 &&
					    off + mt->size <= mi->value_size)
						memcpy(&x, v + off, mt->size);
					sum[i] += x;
				}
			} else {
				unsigned long long x = 0;

				memcpy(&x, v, mi->value_size < 8 ? mi->value_size : 8);
				sum[key] += x;
			}
		}
	}
	printf("map %s (id %u, %s, %d CPUs summed)\n", mi->name, mi->id,
	       t && btf_is_struct(t) ? btf__name_by_offset(btf, t->name_off) : "values",
	       ncpus);
	if (t && btf_is_struct(t)) {
		const struct btf_member *m = btf_members(t);

		for (i = 0; i < n; i++)
			printf("  %-24s %llu\n", btf__name_by_offset(btf, m[i].name_off), sum[i]);
	} else {
		for (key = 0; key < mi->max_entries; key++)
			printf("  %s[%u] %llu\n", mi->name, key, sum[key]);
	}
	free(sum);
	free(buf);
	btf__free(btf);
}

struct stats_ctx {
	uint32_t map_ids[MAX_MAPS];
	unsigned int nmaps;
	int attached;
};

/* the per-CPU array maps the attached map's programs use */
static int stats_one(int fd, const struct bpf_map_info *mi, void *vctx)
{
	struct stats_ctx *s = vctx;
	uint32_t ids[8];
	int n, i;

	n = ops_prog_ids(fd, mi, ids, ARRAY_SIZE(ids));
	if (n <= 0)
		return 0;
	s->attached++;
	for (i = 0; i < n; i++) {
		struct bpf_prog_info pi;
		uint32_t maps[MAX_MAPS], len = sizeof(pi), j, k;
		int pfd = bpf_prog_get_fd_by_id(ids[i]);

		if (pfd < 0)
			continue;
		memset(&pi, 0, sizeof(pi));
		pi.nr_map_ids = ARRAY_SIZE(maps);
		pi.map_ids = (uintptr_t)maps;
		if (bpf_prog_get_info_by_fd(pfd, &pi, &len))
			pi.nr_map_ids = 0;
		close(pfd);
		for (j = 0; j < pi.nr_map_ids && j < ARRAY_SIZE(maps); j++) {
			for (k = 0; k < s->nmaps && s->map_ids[k] != maps[j]; k++)
				;
			if (k == s->nmaps && s->nmaps < ARRAY_SIZE(s->map_ids))
				s->map_ids[s->nmaps++] = maps[j];
		}
	}
	return 0;
}

/* the module's counters of the program's calls, from its stats file */
static void print_module_counters(void)
{
	static const char *const names[] = {
		"bpf_calls", "bpf_answers", "bpf_declined", "bpf_refused",
		"bpf_wide_calls", "bpf_affine_calls", "bpf_idle_calls",
	};
	char path[PATH_MAX], *text, *p;
	unsigned int i;

	path_of(path, sizeof(path), "stats");
	text = read_file(path);
	if (!text) {
		printf("module counters unknown: cannot read %s (%s)\n", path, strerror(errno));
		return;
	}
	printf("module (%s)\n", path);
	for (p = strtok(text, "\n"); p; p = strtok(NULL, "\n"))
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strncmp(p, names[i], strlen(names[i])) && p[strlen(names[i])] == ' ')
				printf("  %s\n", p);
	free(text);
}

int do_stats(int argc, char **argv)
{
	struct stats_ctx s;
	unsigned int i, shown = 0;
	int ret;

	if (argc > 1)
		return bad_usage("bpf", "stats: unexpected argument '%s'", argv[1]);
	memset(&s, 0, sizeof(s));
	ret = walk_ops_maps(stats_one, &s);
	if (ret)
		return ret;
	if (!s.attached) {
		sw_err("no smartwake BPF policy attached");
		return EXIT_RUNTIME;
	}
	for (i = 0; i < s.nmaps; i++) {
		struct bpf_map_info mi;
		uint32_t len = sizeof(mi);
		int fd = bpf_map_get_fd_by_id(s.map_ids[i]);

		if (fd < 0)
			continue;
		memset(&mi, 0, sizeof(mi));
		if (!bpf_map_get_info_by_fd(fd, &mi, &len) &&
		    mi.type == BPF_MAP_TYPE_PERCPU_ARRAY) {
			print_stats_map(fd, &mi);
			shown++;
		}
		close(fd);
	}
	if (!shown)
		printf("the attached programs have no per-CPU array map (statistics)\n");
	print_module_counters();
	return EXIT_OK;
}
