/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: bpf(2) errors and ids, for the bpf command's
 * files (../bpf.h).
 */
#ifndef SMARTWAKE_BPFUTIL_H
#define SMARTWAKE_BPFUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"

#define SW_ENOTSUPP	524		/* the kernel's ENOTSUPP */

const char *err_text(int e);
/* a failed step (@err < 0): its message, EXIT_RUNTIME */
int step_fail(const char *step, int err);
/* the id of the map (@map) or program behind @fd, 0 when unknown */
uint32_t obj_id(int fd, bool map);

#endif /* SMARTWAKE_BPFUTIL_H */
