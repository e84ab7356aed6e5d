/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake CLI library: a JSON writer (no knowledge of what it writes).
 */
#ifndef SMARTWAKE_JSON_H
#define SMARTWAKE_JSON_H

#include <stdio.h>

void json_string(FILE *f, const char *s);
void json_value(FILE *f, const char *v);

#endif /* SMARTWAKE_JSON_H */
