// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: what the bpf command's files share of bpf(2)
 * through libbpf: an error's text (the kernel's ENOTSUPP too), a failed
 * step's message, an object's id.
 */
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>

#include "bpfutil.h"

const char *err_text(int e)
{
	return e == SW_ENOTSUPP ? "operation not supported (ENOTSUPP)" : strerror(e);
}

int step_fail(const char *step, int err)
{
	if (err == -EPERM)
		sw_err("%s: %s: needs root (CAP_BPF, CAP_PERFMON; CAP_SYS_ADMIN to find objects by id)",
		       step, err_text(-err));
	else
		sw_err("%s: %s", step, err_text(-err));
	return EXIT_RUNTIME;
}

uint32_t obj_id(int fd, bool map)
{
	struct bpf_map_info mi;
	struct bpf_prog_info pi;
	uint32_t len;

	memset(&mi, 0, sizeof(mi));
	memset(&pi, 0, sizeof(pi));
	if (map) {
		len = sizeof(mi);
		return bpf_map_get_info_by_fd(fd, &mi, &len) ? 0 : mi.id;
	}
	len = sizeof(pi);
	return bpf_prog_get_info_by_fd(fd, &pi, &len) ? 0 : pi.id;
}
