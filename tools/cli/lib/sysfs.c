// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: the module's debugfs files (read whole, written
 * in one write), whether the module is there, and the control interface
 * knobs and "reset" are written through: debugfs, or the module's
 * parameters when debugfs is locked down.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"

const char *dbg_dir = DEF_DEBUGFS;
bool dbg_dir_from_env;
const char *features_path = DEF_FEATURES;
const char *params_dir = DEF_PARAMS;
const char *lockdown_path = DEF_LOCKDOWN;
const char *schedstats_path = DEF_SCHEDSTATS;

/*
 * Read a whole file into a NUL-terminated buffer, its length in *@size
 * (if @size); NULL with errno set.
 */
char *read_file_size(const char *path, size_t *size)
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
	if (size)
		*size = len;
	return buf;
}

char *read_file(const char *path)
{
	return read_file_size(path, NULL);
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

static char ctl_probe[NAME_LEN];	/* a knob file to try opening */

/*
 * Name a knob whose debugfs file ctl_detect() may open to tell a locked
 * down debugfs (the knob list's first; "" for none).
 */
void ctl_set_probe(const char *knob)
{
	snprintf(ctl_probe, sizeof(ctl_probe), "%s", knob);
}

/* The level in brackets of the lockdown file ("integrity"), or "". */
void lockdown_level(char *lvl, size_t size)
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
	} else if (*ctl_probe) {
		/* a knob file (0644) opens, also for reading, unless locked down */
		path_of(path, sizeof(path), ctl_probe);
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
