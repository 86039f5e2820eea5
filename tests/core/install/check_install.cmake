# SPDX-License-Identifier: BSD-3-Clause
# Installs the build into a temporary prefix, moves it, and builds programs against the moved
# copy with oshcc, oshc++, pkg-config and find_package(shmem); runs them with shmemrun/oshrun.
# Every installed program must start without LD_LIBRARY_PATH.
# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P check_install.cmake

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK_DIR})
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
file(RENAME ${WORK_DIR}/prefix ${WORK_DIR}/moved)
set(P ${WORK_DIR}/moved)

foreach(f bin/shmemrun bin/oshrun bin/oshcc bin/oshc++ bin/shmem_info bin/shmem-litmus
          include/shmem.h include/shmemx.h include/shmem/setup.h include/shmem/config.h lib/libshmem.so
          lib/pkgconfig/shmem.pc lib/cmake/shmem/shmemConfig.cmake share/man/man1/shmemrun.1
          share/man/man1/oshcc.1 share/man/man1/shmem_info.1 share/man/man1/shmem-litmus.1
          share/man/man3/shmem_putmem.3 share/man/man3/shmem_put.3
          share/man/man3/shmem_int_sum_reduce.3 share/man/man3/shmemx_ctx_signal_wait_until.3
          share/man/man3/shmemx_putmem_nbi_block.3 share/libshmem/shmem.bell
          share/libshmem/shmem.cat share/libshmem/litmus/expected.kinds
          lib/pkgconfig/shmem-nvcc.pc bin/shmem-litmus)
  if(NOT EXISTS ${P}/${f})
    message(FATAL_ERROR "missing ${P}/${f}")
  endif()
endforeach()

# Every installed program starts from the moved prefix without LD_LIBRARY_PATH: its --help (the
# compiler wrappers: their compiler's --version).
unset(ENV{LD_LIBRARY_PATH})
file(GLOB programs ${P}/bin/*)
foreach(prog ${programs})
  get_filename_component(name ${prog} NAME)
  if(name MATCHES "^osh(cc|c\\+\\+)$")
    run(${prog} --version)
  else()
    run(${prog} --help)
  endif()
  if(NOT "${out}${err}" MATCHES "[a-zA-Z]")
    message(FATAL_ERROR "${name} printed nothing")
  endif()
endforeach()
run(${P}/bin/shmem_info)
if(NOT out MATCHES "SHMEM_SYMMETRIC_SIZE")
  message(FATAL_ERROR "shmem_info printed:\n${out}")
endif()

# shmem_global_exit is declared as not returning.
run(${P}/bin/oshcc -Werror=return-type -c ${SOURCE_DIR}/global_exit.c -o global_exit.o)

# oshcc and oshc++: compile and link in one step, run with both launchers.
run(${P}/bin/oshcc ${SOURCE_DIR}/hello.c -o hello_oshcc)
run(${P}/bin/shmemrun -n 2 ./hello_oshcc)
if(NOT out MATCHES "hello from PE 1 of 2, left is 0")
  message(FATAL_ERROR "hello_oshcc printed:\n${out}")
endif()
run(${P}/bin/oshrun -np 2 ./hello_oshcc)
run(${P}/bin/oshcc -c ${SOURCE_DIR}/hello.c -o hello.o)
run(${P}/bin/oshcc hello.o -o hello_two_steps)
run(${P}/bin/shmemrun -n 2 ./hello_two_steps)
run(${P}/bin/oshc++ ${SOURCE_DIR}/hello.cc -o hello_oshcxx)
run(${P}/bin/oshrun -n 2 ./hello_oshcxx)
if(NOT out MATCHES "C\\+\\+ PE 1 of 2")
  message(FATAL_ERROR "hello_oshcxx printed:\n${out}")
endif()

# The wrappers' flags alone, as Open MPI's print them; nvcc's form when the compiler is nvcc.
run(${P}/bin/oshcc --showme:compile)
if(NOT out STREQUAL "-I${P}/include\n")
  message(FATAL_ERROR "oshcc --showme:compile printed '${out}'")
endif()
run(${P}/bin/oshc++ --showme:link)
if(NOT out MATCHES "^-L${P}/lib -Wl,-rpath,${P}/lib -lshmem -pthread\n$")
  message(FATAL_ERROR "oshc++ --showme:link printed '${out}'")
endif()
set(ENV{SHMEM_CXX} nvcc)
run(${P}/bin/oshc++ --showme:link)
unset(ENV{SHMEM_CXX})
if(NOT out MATCHES "^-L${P}/lib -Xlinker -rpath,${P}/lib -lshmem -Xcompiler -pthread\n$")
  message(FATAL_ERROR "SHMEM_CXX=nvcc oshc++ --showme:link printed '${out}'")
endif()
set(ENV{SHMEM_CC} nvcc)
run(${P}/bin/oshcc --showme -c x.c)
unset(ENV{SHMEM_CC})
if(NOT out STREQUAL "nvcc -I${P}/include -c x.c\n")
  message(FATAL_ERROR "SHMEM_CC=nvcc oshcc --showme -c x.c printed '${out}'")
endif()

# oshrun without -np says how many PEs it starts.
execute_process(COMMAND ${P}/bin/oshrun ./hello_oshcc WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err MATCHES "oshrun: no -np given: starting 1 PE")
  message(FATAL_ERROR "oshrun ./hello_oshcc (${rc}):\n${out}\n${err}")
endif()

# The installed shmem-litmus finds the installed model for a test anywhere.
file(COPY ${P}/share/libshmem/litmus/MP+fence+amo.litmus DESTINATION ${WORK_DIR}/mine)
run(${P}/bin/shmem-litmus check ${WORK_DIR}/mine/MP+fence+amo.litmus)
if(NOT out MATCHES "Observation MP\\+fence\\+amo Never")
  message(FATAL_ERROR "shmem-litmus check printed:\n${out}")
endif()

# pkg-config
find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${P}/lib/pkgconfig)
run(${PKG_CONFIG} --cflags --libs shmem)
string(STRIP "${out}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(cc ${SOURCE_DIR}/hello.c -o hello_pkgconfig ${flags})
run(${P}/bin/shmemrun -n 2 ./hello_pkgconfig)

# find_package(shmem) from a CMake project
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/consumer -DCMAKE_PREFIX_PATH=${P})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${P}/bin/shmemrun -n 2 ${WORK_DIR}/consumer/hello_c)
run(${P}/bin/shmemrun -n 2 ${WORK_DIR}/consumer/hello_cxx)
message(STATUS "install: ok")
