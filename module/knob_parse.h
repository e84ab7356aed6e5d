/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the knobs' byte-level parser (knob_parse.c), shared by the
 * module and the KUnit suite (kunit/knob_parse_kunit.c).
 */
#ifndef _SMARTWAKE_KNOB_PARSE_H
#define _SMARTWAKE_KNOB_PARSE_H

#include <linux/types.h>
#include "knob_defs.h"

/* Longest accepted write, newline included. */
#define SW_KNOB_MAX_LEN 32

int sw_knob_parse(const struct sw_knob *k, const char *buf, size_t len,
		  int *val, int *num);
int sw_knob_check_str(const char *buf, size_t *len);

#endif /* _SMARTWAKE_KNOB_PARSE_H */
