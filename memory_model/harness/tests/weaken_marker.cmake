# SPDX-License-Identifier: BSD-3-Clause
# cmake -DLIBRARY=libshmem.so -DWEAKENED="copy;..." -P weaken_marker.cmake
# Fails when LIBRARY holds the marker that SHMEMI_TEST_WEAKEN_* compiles into a weakened copy of
# the library (src/host/order.c), or when a weakened copy does not: the check must see it there.
set(marker "libshmem test build: weakened")
file(STRINGS "${LIBRARY}" hits REGEX "${marker}")
if(hits)
  message(FATAL_ERROR "${LIBRARY} was built with a SHMEMI_TEST_WEAKEN_* definition")
endif()
foreach(copy ${WEAKENED})
  file(STRINGS "${copy}" hits REGEX "${marker}")
  if(NOT hits)
    message(FATAL_ERROR "no weakening marker in ${copy}: the check cannot tell a weakened build")
  endif()
endforeach()
list(LENGTH WEAKENED n)
message(STATUS "${LIBRARY}: not weakened; ${n} weakened copies carry the marker")
