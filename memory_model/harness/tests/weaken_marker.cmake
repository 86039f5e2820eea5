# SPDX-License-Identifier: BSD-3-Clause
# cmake -DLIBRARY=libshmem.so -DWEAKENED="copy;..." -P weaken_marker.cmake
# Fails when LIBRARY holds the marker of the test-only files that a weakened copy of the library
# links in place of a primitive's file (memory_model/harness/weak/), or when a weakened copy does
# not: the check must see it there.
set(marker "libshmem test build: weakened")
file(STRINGS "${LIBRARY}" hits REGEX "${marker}")
if(hits)
  message(FATAL_ERROR "${LIBRARY} holds a weakened primitive (memory_model/harness/weak/)")
endif()
foreach(copy ${WEAKENED})
  file(STRINGS "${copy}" hits REGEX "${marker}")
  if(NOT hits)
    message(FATAL_ERROR "no weakening marker in ${copy}: the check cannot tell a weakened build")
  endif()
endforeach()
list(LENGTH WEAKENED n)
message(STATUS "${LIBRARY}: not weakened; ${n} weakened copies carry the marker")
