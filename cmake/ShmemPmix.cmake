# SPDX-License-Identifier: BSD-3-Clause
# The PMIx bootstrap (src/core/bootstrap_pmix.c), so that mpirun and srun --mpi=pmix start jobs.
# SHMEM_PMIX: auto (build it when PMIx is found), on (PMIx is required) or off.
# Sets SHMEM_HAVE_PMIX (0 or 1) and removes the bootstrap from SHMEM_LIB_SOURCES when off.
set(SHMEM_PMIX "auto" CACHE STRING "PMIx bootstrap: auto, on or off")
set_property(CACHE SHMEM_PMIX PROPERTY STRINGS auto on off)

set(SHMEM_HAVE_PMIX 0)
if(NOT SHMEM_PMIX MATCHES "^(auto|on|off)$")
  message(FATAL_ERROR "SHMEM_PMIX='${SHMEM_PMIX}': use auto, on or off")
endif()
if(NOT SHMEM_PMIX STREQUAL "off")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(PMIX QUIET IMPORTED_TARGET pmix)
  endif()
  if(PMIX_FOUND)
    set(SHMEM_HAVE_PMIX 1)
    message(STATUS "PMIx bootstrap: on (PMIx ${PMIX_VERSION})")
  elseif(SHMEM_PMIX STREQUAL "on")
    message(FATAL_ERROR "SHMEM_PMIX=on but PMIx (pkg-config module pmix) was not found; "
                        "on Debian: apt-get install libpmix-dev")
  else()
    message(STATUS "PMIx bootstrap: off (PMIx not found; on Debian: apt-get install libpmix-dev)")
  endif()
else()
  message(STATUS "PMIx bootstrap: off (SHMEM_PMIX=off)")
endif()
if(NOT SHMEM_HAVE_PMIX)
  list(REMOVE_ITEM SHMEM_LIB_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/core/bootstrap_pmix.c)
endif()
