// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake bpf load: an object file through libbpf (open, set .rodata
 * variables, load with CO-RE relocations against the running kernel's
 * BTF, attach every struct_ops map, pin the links and maps under
 * PIN_DIR so they outlive this process), or a built-in program through
 * libbpf's low-level API (one program, one struct_ops map, no object).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "bpf.h"

#define LOG_SIZE	(8U << 20)
#define LOG_TAIL	60		/* lines of a refusal's log shown */
#define BPF_FS_MAGIC	0xcafe4a11

/* ---- libbpf's messages ---- */

static char *captured;
static size_t captured_len;
static bool capture_all;

static int capture(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *line;
	int n;

	if (level == LIBBPF_DEBUG && !capture_all)
		return 0;
	n = vasprintf(&line, fmt, ap);
	if (n < 0)
		return 0;
	captured = realloc(captured, captured_len + n + 1);
	if (!captured)
		sw_die("out of memory");
	memcpy(captured + captured_len, line, n + 1);
	captured_len += n;
	free(line);
	return n;
}

void libbpf_capture(bool verbose)
{
	capture_all = verbose;
	libbpf_set_print(capture);
}

/*
 * A refusal: the last LOG_TAIL lines of what libbpf said (the verifier's
 * log among them), all of them with --verbose, then the fix where the
 * refusal is a known one.
 */
static const struct {
	const char *says, *fix;
} fixes[] = {
	{ "struct_ops init_kern", "the module's struct_ops type was not found: is smartwake loaded on a kernel >= 6.9 (smartwake bpf status)?" },
	{ "failed to find struct_ops", "the module's struct_ops type was not found: load the module (modprobe smartwake) on a kernel >= 6.9" },
	{ "map_value_or_null", "test a map lookup's result against NULL before using it" },
	{ "not found in kernel or module BTFs", "a kfunc the program calls is not in this module: declare later kfuncs __weak and test them with bpf_ksym_exists() (smartwake.bpf.h)" },
	{ "invalid func unknown#", "a helper this program type cannot call: struct_ops programs get the base helpers only (maps, ktime, printk, probe reads)" },
	{ "calling kernel function", "a kfunc the program calls is not allowed here: only smartwake_ops programs may call the module's kfuncs" },
	{ "R1 type=", "a kfunc got the wrong argument: pass the callback's own task pointer" },
	{ "invalid access to", "a read out of bounds: check the index against the map's size first" },
	{ "unbounded", "a loop the verifier cannot bound: give it a constant limit" },
	{ "sleepable", "the callbacks run with interrupts off: no sleepable programs" },
	{ "EEXIST", "a smartwake policy is attached already: smartwake bpf unload" },
};

void libbpf_print_captured(const char *why)
{
	const char *p, *end;
	unsigned int lines = 0, i;

	if (!captured || !*captured) {
		sw_err("%s (libbpf said nothing more)", why);
		return;
	}
	end = captured + captured_len;
	p = end;
	while (!capture_all && p > captured) {
		p--;
		if (*p == '\n' && p + 1 < end && ++lines > LOG_TAIL) {
			p++;
			fprintf(stderr, "(the last %d lines of libbpf's and the verifier's messages; --verbose for all)\n",
				LOG_TAIL);
			break;
		}
	}
	if (capture_all)
		p = captured;
	fprintf(stderr, "%s%s", p, end[-1] == '\n' ? "" : "\n");
	sw_err("%s", why);
	for (i = 0; i < ARRAY_SIZE(fixes); i++)
		if (strstr(captured, fixes[i].says)) {
			fprintf(stderr, "smartwake: fix: %s\n", fixes[i].fix);
			break;
		}
}

/* ---- pins ---- */

/* PIN_DIR on a bpf file system (mounted at BPFFS when none is): 0 or -errno */
static int pin_dir(void)
{
	struct statfs st;

	if (statfs(BPFFS, &st) || st.f_type != BPF_FS_MAGIC) {
		if (mount("bpf", BPFFS, "bpf", 0, NULL))
			return -errno;
	}
	if (mkdir(PIN_DIR, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* ---- an object file ---- */

/* --set NAME=VALUE: a variable of the object's .rodata (or .data, .bss) */
static int set_var(struct bpf_object *obj, const char *set)
{
	static const char *const secs[] = { ".rodata", ".data", ".bss" };
	const struct btf *btf = bpf_object__btf(obj);
	const char *eq = strchr(set, '='), *val;
	char name[NAME_LEN], *endp;
	struct bpf_map *map;
	unsigned int s, i;

	if (!eq || eq == set || (size_t)(eq - set) >= sizeof(name)) {
		sw_err("--set %s: NAME=VALUE", set);
		return EXIT_USAGE;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - set), set);
	val = eq + 1;
	for (s = 0; btf && s < ARRAY_SIZE(secs); s++) {
		int sec_id = btf__find_by_name_kind(btf, secs[s], BTF_KIND_DATASEC);
		const struct btf_type *sec;
		const struct btf_var_secinfo *vi;

		if (sec_id <= 0)
			continue;
		sec = btf__type_by_id(btf, sec_id);
		vi = btf_var_secinfos(sec);
		for (i = 0; i < btf_vlen(sec); i++) {
			const struct btf_type *v = btf__type_by_id(btf, vi[i].type);
			const struct btf_type *t;
			unsigned long long u;
			long long x;
			size_t size;
			char *data;

			if (strcmp(btf__name_by_offset(btf, v->name_off), name))
				continue;
			t = btf__type_by_id(btf, btf__resolve_type(btf, v->type));
			if (!btf_is_int(t) && !btf_is_enum(t)) {
				sw_err("--set %s: not an integer variable", name);
				return EXIT_USAGE;
			}
			errno = 0;
			if (!strcmp(val, "true") || !strcmp(val, "false")) {
				x = val[0] == 't';
				endp = (char *)"";
			} else {
				x = strtoll(val, &endp, 0);
			}
			u = (unsigned long long)x;
			if (errno || *endp || !*val || (vi[i].size < 8 &&
			    (btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_SIGNED) ?
			     (x < -(1LL << (vi[i].size * 8 - 1)) || x >= (1LL << (vi[i].size * 8 - 1))) :
			     (x < 0 || u >> (vi[i].size * 8))))) {
				sw_err("--set %s=%s: not a value of its %u-byte type", name, val,
				       vi[i].size);
				return EXIT_USAGE;
			}
			map = NULL;
			bpf_object__for_each_map(map, obj) {
				const char *mn = bpf_map__name(map);
				size_t l = strlen(mn), ls = strlen(secs[s]);

				if (l >= ls && !strcmp(mn + l - ls, secs[s]))
					break;
			}
			data = map ? bpf_map__initial_value(map, &size) : NULL;
			if (!data || vi[i].offset + vi[i].size > size) {
				sw_err("--set %s: the object has no initial value for %s", name, secs[s]);
				return EXIT_RUNTIME;
			}
			memcpy(data + vi[i].offset, &u, vi[i].size);	/* little endian */
			printf("set %s = %s\n", name, val);
			return 0;
		}
	}
	sw_err("--set %s: the object has no global variable '%s' (a const volatile in .rodata)",
	       set, name);
	return EXIT_USAGE;
}

/* every struct_ops map's programs, as "NAME=prog" for --dry-run */
static void print_object(struct bpf_object *obj)
{
	struct bpf_program *prog;
	struct bpf_map *map;

	bpf_object__for_each_program(prog, obj)
		printf("program %s section %s (%zu instructions)\n", bpf_program__name(prog),
		       bpf_program__section_name(prog), bpf_program__insn_cnt(prog));
	bpf_object__for_each_map(map, obj)
		printf("map %s type %s%s\n", bpf_map__name(map),
		       libbpf_bpf_map_type_str(bpf_map__type(map)),
		       bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS &&
		       (bpf_map__map_flags(map) & BPF_F_LINK) ? " (link)" : "");
}

int load_object(const char *file, char **sets, unsigned int nsets, bool verbose, bool dry)
{
	struct bpf_link *links[8];
	struct bpf_map *lmaps[8];
	struct bpf_object *obj;
	struct bpf_map *map;
	unsigned int i, nlinks = 0, nops = 0;
	uint32_t key0 = 0;
	char path[PATH_MAX], why[PATH_MAX + 64];
	int ret, err;

	libbpf_capture(verbose);
	obj = bpf_object__open_file(file, NULL);
	if (!obj) {
		snprintf(why, sizeof(why), "cannot open %s: %s", file, err_text(errno));
		libbpf_print_captured(why);
		return EXIT_RUNTIME;
	}
	for (i = 0; i < nsets; i++) {
		ret = set_var(obj, sets[i]);
		if (ret)
			goto out;
	}
	bpf_object__for_each_map(map, obj)
		if (bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS)
			nops++;
	if (!nops) {
		sw_err("%s has no struct_ops map: define one with SMARTWAKE_OPS_DEFINE() (smartwake.bpf.h)",
		       file);
		ret = EXIT_USAGE;
		goto out;
	}
	if (dry) {
		print_object(obj);
		ret = EXIT_OK;
		goto out;
	}
	err = bpf_object__load(obj);
	if (err) {
		snprintf(why, sizeof(why), "%s refused: %s", file, err_text(-err));
		libbpf_print_captured(why);
		ret = EXIT_RUNTIME;
		goto out;
	}
	err = pin_dir();
	if (err) {
		ret = step_fail("the pin folder " PIN_DIR " (a bpf file system)", err);
		goto out;
	}
	bpf_object__for_each_map(map, obj) {
		struct bpf_link *l;

		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		l = bpf_map__attach_struct_ops(map);
		if (!l) {
			err = -errno;
			snprintf(why, sizeof(why), "attaching struct_ops map %s: %s%s",
				 bpf_map__name(map), err_text(-err),
				 err == -EEXIST || err == -EBUSY ?
				 " (a smartwake policy is attached already: smartwake bpf status; smartwake bpf unload)" :
				 " (the module's refusals: dmesg)");
			libbpf_print_captured(why);
			ret = EXIT_RUNTIME;
			goto out_detach;
		}
		lmaps[nlinks] = map;
		links[nlinks++] = l;
		if (bpf_map__map_flags(map) & BPF_F_LINK) {
			snprintf(path, sizeof(path), "%s/link", PIN_DIR);
			err = bpf_link__pin(l, path);
			if (err) {
				ret = step_fail("pinning the link", err);
				goto out_detach;
			}
		}
		/* the map's registration outlives this process */
		bpf_link__disconnect(l);
		printf("%s attached as struct_ops map %s: map id %u\n", file, bpf_map__name(map),
		       obj_id(bpf_map__fd(map), true));
		if (nlinks == ARRAY_SIZE(links))
			break;
	}
	err = bpf_object__pin_maps(obj, PIN_DIR);
	if (err)
		sw_err("warning: pinning the maps under %s: %s (smartwake bpf stats finds them by id anyway)",
		       PIN_DIR, err_text(-err));
	bpf_object__for_each_map(map, obj)
		if (bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS) {
			printf("attached map_id=%u prog=", obj_id(bpf_map__fd(map), true));
			break;
		}
	{
		struct bpf_program *prog;
		bool first = true;

		bpf_object__for_each_program(prog, obj) {
			if (!bpf_program__autoload(prog))
				continue;
			printf("%s%s", first ? "" : ",", bpf_program__name(prog));
			first = false;
		}
		printf("\n");
	}
	ret = EXIT_OK;
	goto out_links;
out_detach:
	/* nothing half-attached: what this load attached goes again */
	for (i = 0; i < nlinks; i++) {
		if (bpf_map__map_flags(lmaps[i]) & BPF_F_LINK) {
			bpf_link__unpin(links[i]);
			bpf_link__detach(links[i]);
		} else {
			bpf_map_delete_elem(bpf_map__fd(lmaps[i]), &key0);
		}
	}
	rmdir(PIN_DIR);
out_links:
	for (i = 0; i < nlinks; i++)
		bpf_link__destroy(links[i]);
out:
	bpf_object__close(obj);
	return ret;
}

/* ---- a built-in program ---- */

/* the map's own BTF: the kernel wants a user BTF fd for a struct_ops map */
static int user_btf_load(void)
{
	struct btf *b = btf__new_empty();
	int fd = -ENOMEM;

	if (b && btf__add_int(b, "int", 4, BTF_INT_SIGNED) > 0 && !btf__load_into_kernel(b))
		fd = dup(btf__fd(b));
	else if (b)
		fd = -errno;
	btf__free(b);
	return fd;
}

/* SW_CALL_KFUNC(i): the BTF id of kfuncs[i] in the module's BTF, fd slot 1 */
static int resolve_kfuncs(const struct kbtf *k, const struct builtin *b, struct bpf_insn *in)
{
	unsigned int i;

	for (i = 0; i < b->cnt; i++) {
		int id;

		if (in[i].code != (BPF_JMP | BPF_CALL) || in[i].src_reg != BPF_PSEUDO_KFUNC_CALL)
			continue;
		id = btf__find_by_name_kind(k->mod, b->kfuncs[in[i].imm], BTF_KIND_FUNC);
		if (id <= 0) {
			sw_err("%s calls %s, which is not a kfunc of this module (an older module? smartwake bpf list)",
			       b->name, b->kfuncs[in[i].imm]);
			return EXIT_RUNTIME;
		}
		in[i].imm = id;
		in[i].off = 1;
	}
	return 0;
}

static void print_insns(const char *name, const struct bpf_insn *insns, unsigned int cnt)
{
	unsigned int i, j;

	printf("%s: %u instructions\n", name, cnt);
	for (i = 0; i < cnt; i++) {
		const unsigned char *p = (const unsigned char *)&insns[i];

		printf("%4u:", i);
		for (j = 0; j < sizeof(insns[i]); j++)
			printf(" %02x", p[j]);
		printf("\n");
	}
}

/* BPF_PROG_LOAD for member @idx of @type_id in BTF object @type_fd (0: vmlinux) */
static int prog_load(const struct kbtf *k, uint32_t type_id, int type_fd, uint32_t idx,
		     const char *name, const struct bpf_insn *insns, unsigned int cnt,
		     bool verbose)
{
	int fd_array[2] = { -1, k->fd };
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = idx,
		    .attach_btf_id = type_id, .attach_btf_obj_fd = type_fd,
		    .fd_array = fd_array);
	char *log;
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, name, "GPL", insns, cnt, &o);
	if (fd >= 0 || errno == EPERM)
		return fd >= 0 ? fd : -errno;
	err = -errno;
	log = calloc(1, LOG_SIZE);
	if (!log)
		sw_die("out of memory");
	o.log_level = 1;
	o.log_size = LOG_SIZE;
	o.log_buf = log;
	fd = bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, name, "GPL", insns, cnt, &o);
	if (fd < 0) {
		captured_len = 0;
		free(captured);
		captured = strdup(log);
		captured_len = strlen(captured);
		capture_all = verbose;
		{
			char why[128];

			snprintf(why, sizeof(why), "BPF_PROG_LOAD of %s (%u instructions): %s",
				 name, cnt, err_text(-err));
			libbpf_print_captured(why);
		}
		fd = err;
	}
	free(log);
	return fd;
}

int load_builtin(const struct builtin *b, const char *callback, const char *foreign,
		 bool verbose, bool dry)
{
	char name[BPF_OBJ_NAME_LEN];
	struct bpf_insn *insns;
	uint32_t idx, moff, key = 0;
	int ret, prog_fd = -1, map_fd = -1, btf_fd = -1;
	unsigned char *value = NULL;
	struct kbtf k;

	snprintf(name, sizeof(name), "sw_%s", b->name);
	if (dry) {
		print_insns(name, b->insns, b->cnt);
		return EXIT_OK;
	}
	insns = malloc(b->cnt * sizeof(*insns));
	if (!insns)
		sw_die("out of memory");
	memcpy(insns, b->insns, b->cnt * sizeof(*insns));
	ret = kbtf_open(&k);
	if (ret)
		goto out_free;
	ret = resolve_kfuncs(&k, b, insns);
	if (ret)
		goto out;
	if (foreign) {
		/* testing: the module's kfuncs must be refused to other types */
		int id = btf__find_by_name_kind(k.vml, foreign, BTF_KIND_STRUCT);
		const struct btf_type *t = id > 0 ? btf__type_by_id(k.vml, id) : NULL;
		const struct btf_member *m = t ? btf_members(t) : NULL;
		unsigned int i;

		for (i = 0; m && i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(k.vml, m[i].name_off), callback))
				break;
		if (!m || i == btf_vlen(t)) {
			sw_err("vmlinux's BTF has no struct %s with a member '%s'", foreign, callback);
			ret = EXIT_USAGE;
			goto out;
		}
		prog_fd = prog_load(&k, id, 0, i, name, insns, b->cnt, verbose);
		if (prog_fd < 0) {
			ret = prog_fd == -EPERM ? step_fail("BPF_PROG_LOAD", prog_fd) : EXIT_RUNTIME;
			goto out;
		}
		printf("%s loaded for %s.%s (prog id %u), not attached\n", name, foreign,
		       callback, obj_id(prog_fd, false));
		ret = EXIT_OK;
		goto out;
	}
	if (kbtf_member(&k, callback, &idx, &moff) ||
	    k.data_off + moff + 8 > k.value_size) {
		sw_err("struct " OPS_STRUCT " has no callback '%s'", callback);
		ret = EXIT_USAGE;
		goto out;
	}
	prog_fd = prog_load(&k, k.ops_id, k.fd, idx, name, insns, b->cnt, verbose);
	if (prog_fd < 0) {
		ret = prog_fd == -EPERM ? step_fail("BPF_PROG_LOAD", prog_fd) : EXIT_RUNTIME;
		goto out;
	}
	btf_fd = user_btf_load();
	if (btf_fd < 0) {
		ret = step_fail("BPF_BTF_LOAD (the map's BTF)", btf_fd);
		goto out;
	}
	{
		LIBBPF_OPTS(bpf_map_create_opts, mo, .btf_fd = btf_fd,
			    .btf_vmlinux_value_type_id = k.value_id,
			    .value_type_btf_obj_fd = k.fd,
			    .map_flags = BPF_F_VTYPE_BTF_OBJ_FD);

		map_fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, OPS_MAP_NAME, sizeof(key),
					k.value_size, 1, &mo);
	}
	if (map_fd < 0) {
		ret = step_fail("BPF_MAP_CREATE (struct_ops " OPS_MAP_NAME ")", -errno);
		goto out;
	}
	value = calloc(1, k.value_size);
	if (!value)
		sw_die("out of memory");
	*(uint64_t *)(value + k.data_off + moff) = (uint64_t)prog_fd;
	if (bpf_map_update_elem(map_fd, &key, value, 0)) {
		ret = errno == EEXIST || errno == EBUSY ?
			(sw_err("attach: %s: a smartwake BPF policy is attached already (smartwake bpf status; smartwake bpf unload)",
				err_text(errno)), EXIT_RUNTIME) :
			step_fail("BPF_MAP_UPDATE_ELEM (attach; the module's refusals: dmesg)", -errno);
		goto out;
	}
	printf("%s attached as %s: map id %u, prog id %u\n", name, callback,
	       obj_id(map_fd, true), obj_id(prog_fd, false));
	printf("attached map_id=%u prog=%s\n", obj_id(map_fd, true), name);
	ret = EXIT_OK;
out:
	free(value);
	if (map_fd >= 0)
		close(map_fd);
	if (prog_fd >= 0)
		close(prog_fd);
	if (btf_fd >= 0)
		close(btf_fd);
	kbtf_close(&k);
out_free:
	free(insns);
	return ret;
}
