# SPDX-License-Identifier: BSD-3-Clause
# The UCX network transport, a plug-in (libshmem-ucx.so beside libshmem.so) that libshmem loads
# at shmem_init only when a job spans nodes (or SHMEM_DISABLE_P2P=1), so libshmem.so itself needs
# no UCX. SHMEM_UCX: auto (build it when UCX is found), on (UCX is required) or off.
# Sets SHMEM_HAVE_UCX (0 or 1).
set(SHMEM_UCX "auto" CACHE STRING "UCX network transport plug-in: auto, on or off")
set_property(CACHE SHMEM_UCX PROPERTY STRINGS auto on off)

set(SHMEM_HAVE_UCX 0)
if(NOT SHMEM_UCX MATCHES "^(auto|on|off)$")
  message(FATAL_ERROR "SHMEM_UCX='${SHMEM_UCX}': use auto, on or off")
endif()
if(NOT SHMEM_UCX STREQUAL "off")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(UCX QUIET IMPORTED_TARGET ucx)
  endif()
  # Without pkg-config or its module (UCX built by hand, a cluster's module): the headers and
  # libucp under the CMake variable UCX_ROOT, else the default places. (Not an environment
  # variable: UCX warns about every UCX_* variable it does not know.)
  if(NOT UCX_FOUND)
    set(_ucx_hints ${UCX_ROOT})
    find_path(UCX_API_INCLUDE_DIR ucp/api/ucp.h HINTS ${_ucx_hints} PATH_SUFFIXES include)
    find_library(UCX_UCP_LIBRARY ucp HINTS ${_ucx_hints} PATH_SUFFIXES lib lib64)
    find_library(UCX_UCS_LIBRARY ucs HINTS ${_ucx_hints} PATH_SUFFIXES lib lib64)
    if(UCX_API_INCLUDE_DIR AND UCX_UCP_LIBRARY AND UCX_UCS_LIBRARY)
      add_library(_shmem_ucx_found INTERFACE IMPORTED)
      target_include_directories(_shmem_ucx_found INTERFACE ${UCX_API_INCLUDE_DIR})
      target_link_libraries(_shmem_ucx_found INTERFACE ${UCX_UCP_LIBRARY} ${UCX_UCS_LIBRARY})
      add_library(PkgConfig::UCX ALIAS _shmem_ucx_found)
      set(UCX_FOUND 1)
      set(UCX_VERSION "at ${UCX_API_INCLUDE_DIR}")
    endif()
  endif()
  if(UCX_FOUND)
    set(SHMEM_HAVE_UCX 1)
    message(STATUS "UCX transport: on (UCX ${UCX_VERSION})")
  elseif(SHMEM_UCX STREQUAL "on")
    message(FATAL_ERROR "SHMEM_UCX=on but UCX (pkg-config module ucx) was not found; "
                        "on Debian: apt-get install libucx-dev")
  else()
    message(STATUS "UCX transport: off (UCX not found; on Debian: apt-get install libucx-dev)")
  endif()
else()
  message(STATUS "UCX transport: off (SHMEM_UCX=off)")
endif()

if(SHMEM_HAVE_UCX)
  file(GLOB _ucx_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/transport/ucx/*.c)
  add_library(shmem-ucx MODULE ${_ucx_sources})
  target_include_directories(shmem-ucx PRIVATE ${PROJECT_SOURCE_DIR}/src
                                               ${PROJECT_SOURCE_DIR}/include
                                               ${PROJECT_BINARY_DIR}/include)
  target_compile_definitions(shmem-ucx PRIVATE _GNU_SOURCE)
  target_link_libraries(shmem-ucx PRIVATE PkgConfig::UCX Threads::Threads)
  # Beside libshmem.so, where shmem_init looks for it; only its entry point is exported.
  set_target_properties(shmem-ucx PROPERTIES PREFIX "lib" C_VISIBILITY_PRESET hidden
                                             LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
  add_dependencies(shmem shmem-ucx)
  install(TARGETS shmem-ucx LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
