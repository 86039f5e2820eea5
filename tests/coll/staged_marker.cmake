# SPDX-License-Identifier: BSD-3-Clause
# cmake -DLIBRARY=libshmem.so -DSTAGED=libshmem-staged.so -P staged_marker.cmake
# Fails when LIBRARY holds the marker of the test-only copy of the library (tests/coll/stage_forced.c,
# linked in place of src/host/coll_stage_when.c), or when STAGED does not: the check must see it
# there.
set(marker "libshmem test build: staged collectives forced")
file(STRINGS "${LIBRARY}" hits REGEX "${marker}")
if(hits)
  message(FATAL_ERROR "${LIBRARY} holds tests/coll/stage_forced.c")
endif()
file(STRINGS "${STAGED}" hits REGEX "${marker}")
if(NOT hits)
  message(FATAL_ERROR "no marker in ${STAGED}: the check cannot tell a staged build")
endif()
message(STATUS "${LIBRARY}: collectives not forced through the staging area; ${STAGED} is")
