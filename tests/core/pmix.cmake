# SPDX-License-Identifier: BSD-3-Clause
# Jobs started by mpirun (Open MPI) through the PMIx bootstrap: setup, collectives of the
# allocator, RMA, a failing PE and shmem_global_exit. Registered only when the PMIx bootstrap is
# built and mpirun exists.
find_program(SHMEM_MPIRUN mpirun)
if(NOT SHMEM_HAVE_PMIX OR NOT SHMEM_MPIRUN)
  message(STATUS "PMIx tests: off (they need the PMIx bootstrap and mpirun; "
                 "on Debian: apt-get install libpmix-dev openmpi-bin)")
  return()
endif()
message(STATUS "PMIx tests: on (${SHMEM_MPIRUN})")

# One node without ssh, several PEs per core, no process binding, and as root in containers.
set(_pmix_mpirun ${SHMEM_MPIRUN} --mca plm isolated --oversubscribe --bind-to none)
# In the sanitizer builds: leaks inside libpmix are not libshmem's (pmix.supp).
set(_pmix_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
              LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/pmix.supp)

function(pmix_test name np)
  add_test(NAME core_pmix.${name}.np${np} COMMAND ${_pmix_mpirun} -np ${np} ${ARGN})
  set_tests_properties(core_pmix.${name}.np${np} PROPERTIES ENVIRONMENT "${_pmix_env}"
                                                            TIMEOUT 60 LABELS "pe;pmix")
endfunction()
foreach(np 2 4)
  pmix_test(setup ${np} $<TARGET_FILE:core_setup>)
  pmix_test(rma_types ${np} $<TARGET_FILE:host_rma_types>)
endforeach()
if(SHMEM_GPU STREQUAL "none")
  pmix_test(malloc 4 $<TARGET_FILE:core_malloc>)
endif()

# A process started by a PE (fork + exec) inherits the job's PMIX_* variables; it runs as a job of
# one PE instead of joining the job again, and the job goes on.
add_executable(core_pmix_child pmix_child.c)
target_link_libraries(core_pmix_child PRIVATE shmem)
add_test(NAME core_pmix.child COMMAND ${_pmix_mpirun} -np 2 $<TARGET_FILE:core_pmix_child>)
set_tests_properties(core_pmix.child PROPERTIES
  PASS_REGULAR_EXPRESSION "child: PE 0 of 1.*parent: the child ran as a job of its own"
  ENVIRONMENT "${_pmix_env}" TIMEOUT 60 LABELS "pe;pmix")

# The bootstrap in use is PMIx, not a job of single PEs.
add_test(NAME core_pmix.info COMMAND ${_pmix_mpirun} -np 2 $<TARGET_FILE:core_setup>)
set_tests_properties(core_pmix.info PROPERTIES
  PASS_REGULAR_EXPRESSION "PEs 2, bootstrap pmix" ENVIRONMENT "${_pmix_env};SHMEM_INFO=1"
  TIMEOUT 60 LABELS "pe;pmix")

# shmem_global_exit(7) on PE 1, also while a thread of the PE waits in a collective: the job ends
# at once with that status.
# A PE that exits with status 3 ends the job too.
function(pmix_exit_test mode status)
  add_test(NAME core_pmix.${mode}
           COMMAND sh -c "\"$@\"; s=$?; echo \"exit status $s\"; test $s -eq ${status}" sh
                   ${_pmix_mpirun} -np 2 $<TARGET_FILE:core_launch_helper> ${mode})
  set_tests_properties(core_pmix.${mode} PROPERTIES ENVIRONMENT "${_pmix_env}" TIMEOUT 30
                                                    LABELS "pe;pmix")
endfunction()
pmix_exit_test(global_exit7 7)
pmix_exit_test(global_exit_while_waiting 5)
# The PE that calls shmem_global_exit leaves at once, running no exit handlers: mpirun of Open MPI
# 4.1 can deadlock when it must kill a process whose thread waits in a PMIx fence.
pmix_exit_test(global_exit_slow_exit_while_waiting 5)
set_tests_properties(core_pmix.global_exit_slow_exit_while_waiting PROPERTIES
                     FAIL_REGULAR_EXPRESSION "exit handler ran")
pmix_exit_test(exit3 3)

# SHMEM_HANG_TIMEOUT under mpirun: a PE that waits that long in a barrier for a PE stuck in the
# program reports where every PE is and ends the job.
add_test(NAME core_pmix.hang_timeout
         COMMAND sh -c "\"$@\"; s=$?; echo \"exit status $s\"; test $s -ne 0" sh
                 ${_pmix_mpirun} -np 3 $<TARGET_FILE:core_launch_helper> stuck_in_program)
set_tests_properties(core_pmix.hang_timeout PROPERTIES
  PASS_REGULAR_EXPRESSION "shmem_barrier_all: has waited [0-9.]+ s for PE 0 \\(SHMEM_HANG_TIMEOUT=1\\).*PE 0: running the program.*the job hangs.*exit status [1-9]"
  ENVIRONMENT "${_pmix_env};SHMEM_HANG_TIMEOUT=1" TIMEOUT 30 LABELS "pe;pmix")

# PEs on two hosts, and no network transport may load: the job fails at shmem_init, saying why.
add_test(NAME core_pmix.two_nodes_no_transport
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/pmix_two_hosts.sh ${_pmix_mpirun} -np 2
                 ${CMAKE_CURRENT_SOURCE_DIR}/pmix_two_hosts.sh $<TARGET_FILE:core_setup>)
set_tests_properties(core_pmix.two_nodes_no_transport PROPERTIES
  PASS_REGULAR_EXPRESSION "PE [01]: shmem_init[a-z_]*: PE [01] is on node [01] and this PE on node [01] .*needs a network transport, and none is available: transport ucx is not in SHMEM_TRANSPORTS='none'"
  SKIP_RETURN_CODE 77 ENVIRONMENT "${_pmix_env};SHMEM_TRANSPORTS=none" TIMEOUT 30
  LABELS "pe;pmix")

add_test(NAME core_pmix.shmem_info COMMAND shmem_info)
set_tests_properties(core_pmix.shmem_info PROPERTIES
  PASS_REGULAR_EXPRESSION "bootstraps: +shmemrun, pmix" LABELS "unit;pmix")

# PEs on two hosts with the network transport built: the job runs, PE 1 reached over UCX.
if(SHMEM_HAVE_UCX)
  add_test(NAME core_pmix.two_nodes
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/pmix_two_hosts.sh ${_pmix_mpirun} -np 2
                   ${CMAKE_CURRENT_SOURCE_DIR}/pmix_two_hosts.sh $<TARGET_FILE:core_setup>)
  set_tests_properties(core_pmix.two_nodes PROPERTIES
    PASS_REGULAR_EXPRESSION "nodes 2; peers on this node: load/store; other nodes and AMOs: ucx.*setup: ok on 2 PEs"
    SKIP_RETURN_CODE 77 ENVIRONMENT "${_pmix_env};SHMEM_INFO=1;UCX_NET_DEVICES=lo" TIMEOUT 60
    LABELS "pe;pmix;net")
endif()
