# SPDX-License-Identifier: BSD-3-Clause
# cmake -DLIBRARY=libshmem.so -DSTAGED=libshmem-staged.so -P staged_marker.cmake
# Fails when LIBRARY holds the marker that SHMEMI_TEST_FORCE_STAGE compiles into the test-only
# copy of the library (src/host/coll_stage.c), or when STAGED does not: the check must see it there.
set(marker "libshmem test build: staged collectives forced")
file(STRINGS "${LIBRARY}" hits REGEX "${marker}")
if(hits)
  message(FATAL_ERROR "${LIBRARY} was built with SHMEMI_TEST_FORCE_STAGE")
endif()
file(STRINGS "${STAGED}" hits REGEX "${marker}")
if(NOT hits)
  message(FATAL_ERROR "no marker in ${STAGED}: the check cannot tell a staged build")
endif()
message(STATUS "${LIBRARY}: collectives not forced through the staging area; ${STAGED} is")
