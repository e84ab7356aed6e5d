// SPDX-License-Identifier: GPL-2.0
/* Build the BTF reader into the KUnit module (Kbuild cannot use ../ objects) */
#include "../module/btf.c"
