// SPDX-License-Identifier: GPL-2.0
/*
 * smartwake CLI library: a JSON writer. Strings are escaped; a value that
 * is a JSON number by its text is written as a number, any other as a
 * string. It knows nothing of what it writes.
 */
#include <ctype.h>
#include <stdbool.h>

#include "json.h"

/* @s as a JSON string, quoted and escaped */
void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Strict JSON number syntax: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (isdigit((unsigned char)*s))
		while (isdigit((unsigned char)*s))
			s++;
	else
		return false;
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return !*s;
}

/* @v as a number if it is one, else as a string */
void json_value(FILE *f, const char *v)
{
	if (json_number(v))
		fputs(v, f);
	else
		json_string(f, v);
}
