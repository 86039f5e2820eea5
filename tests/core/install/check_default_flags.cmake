# SPDX-License-Identifier: BSD-3-Clause
# A user's build (no options) does not turn warnings into errors; SHMEM_WERROR=ON does.
# cmake -DSOURCE_DIR=... -DWORK_DIR=... -P check_default_flags.cmake
foreach(mode default werror)
  set(dir ${WORK_DIR}/${mode})
  file(REMOVE_RECURSE ${dir})
  set(extra "")
  if(mode STREQUAL "werror")
    set(extra -DSHMEM_WERROR=ON)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${dir} -DSHMEM_GPU=none
                          -DSHMEM_BUILD_TESTS=OFF -DSHMEM_PMIX=off ${extra}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configure (${mode}) failed:\n${out}\n${err}")
  endif()
  file(READ ${dir}/CMakeFiles/shmem.dir/flags.make flags)
  if(mode STREQUAL "default" AND flags MATCHES "-Werror")
    message(FATAL_ERROR "a build without options compiles with -Werror:\n${flags}")
  endif()
  if(mode STREQUAL "werror" AND NOT flags MATCHES "-Werror")
    message(FATAL_ERROR "SHMEM_WERROR=ON does not add -Werror:\n${flags}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
message(STATUS "default flags: ok")
