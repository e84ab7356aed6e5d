// SPDX-License-Identifier: GPL-2.0
/*
 * Instantiates the smartwake trace events declared in trace.h. Kbuild adds
 * this directory to trace.o's include path for define_trace.h.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
