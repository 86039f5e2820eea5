/* SPDX-License-Identifier: BSD-3-Clause */
/* A translation unit of the multi-module test (see part.h). */
#include <shmem.h>

#include "part.h"

MULTI_PART_DEFINE(multi_lib_a, 2)
