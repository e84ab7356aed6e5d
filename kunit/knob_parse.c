// SPDX-License-Identifier: GPL-2.0
/* Build the knobs' parser into the KUnit module (Kbuild cannot use ../ objects) */
#include "../module/knob_parse.c"
