// SPDX-License-Identifier: GPL-2.0
/* Build the policy core into the KUnit module (Kbuild cannot use ../ objects) */
#include "../module/policy.c"
