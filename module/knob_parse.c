// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs' parser: the bytes of one write against one row of the knob
 * table, nothing else (no knob state, no lock, no debugfs). The rules are
 * at the top of knobs.c.
 *
 * This file is built into smartwake.ko and, through kunit/knob_parse.c,
 * into the KUnit module, whose suite (kunit/knob_parse_kunit.c) holds the
 * rejection cases.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kstrtox.h>
#include <linux/string.h>
#include "knob_parse.h"

static int sw_parse_number(const char *s, size_t len, int *out)
{
	char tmp[SW_KNOB_MAX_LEN];
	size_t i;

	for (i = 0; i < len; i++)
		if (!isdigit(s[i]))
			return -EINVAL;
	/* canonical form only: "0" but not "00" or "01" */
	if (len > 1 && s[0] == '0')
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	/* kstrtoint reports overflow as -ERANGE; all bad input is -EINVAL. */
	return kstrtoint(tmp, 10, out) ? -EINVAL : 0;
}

/**
 * sw_knob_parse() - parse one write to a knob
 * @k:   the knob
 * @buf: the bytes written (not NUL-terminated)
 * @len: their number
 * @val: the new value on success
 * @num: the new number for a names+number knob that selected a number
 *
 * Return: 0 or -EINVAL; @val and @num are untouched on error.
 */
int sw_knob_parse(const struct sw_knob *k, const char *buf, size_t len,
		  int *val, int *num)
{
	int i, n;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len >= SW_KNOB_MAX_LEN)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isgraph(buf[i]))
			return -EINVAL;

	for (i = 0; i < k->nr_names; i++) {
		if (strlen(k->names[i]) == len && !memcmp(k->names[i], buf, len)) {
			if (k->numeric && i == k->fixed_idx)
				continue;	/* that slot is spelled as a number */
			*val = i;
			return 0;
		}
	}
	if (!k->numeric || sw_parse_number(buf, len, &n))
		return -EINVAL;
	if (n < k->min || n > k->max)
		return -EINVAL;
	if (k->nr_names) {
		*val = k->fixed_idx;
		*num = n;
	} else {
		*val = n;
	}
	return 0;
}

/**
 * sw_knob_check_str() - check the bytes of a write to a string knob
 * @buf: the bytes written (not NUL-terminated)
 * @len: their number; one trailing newline is dropped from it
 *
 * The byte rules of sw_knob_parse() with a longer limit (SW_KNOB_STR_MAX);
 * what the bytes mean is for the knob's write_str() to judge.
 *
 * Return: 0 or -EINVAL.
 */
int sw_knob_check_str(const char *buf, size_t *len)
{
	size_t i;

	if (*len && buf[*len - 1] == '\n')
		(*len)--;
	if (!*len || *len >= SW_KNOB_STR_MAX)
		return -EINVAL;
	for (i = 0; i < *len; i++)
		if (!isgraph(buf[i]))
			return -EINVAL;
	return 0;
}
