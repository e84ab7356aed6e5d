/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smartwake: the debugfs directory (debugfs.c).
 */
#ifndef _SMARTWAKE_DEBUGFS_H
#define _SMARTWAKE_DEBUGFS_H

/* ---- debugfs (debugfs.c) ----------------------------------------------- */
int sw_debugfs_init(void);
void sw_debugfs_exit(void);

#endif /* _SMARTWAKE_DEBUGFS_H */
