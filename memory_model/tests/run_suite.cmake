# SPDX-License-Identifier: BSD-3-Clause
# Runs the checker on every litmus test and compares each verdict with expected.kinds.
file(GLOB tests ${LITMUS_DIR}/*.litmus)
list(LENGTH tests count)
if(count LESS 40)
  message(FATAL_ERROR "only ${count} litmus tests in ${LITMUS_DIR}")
endif()
execute_process(COMMAND ${CHECKER} check --expected ${LITMUS_DIR}/expected.kinds ${tests}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "shmem-litmus check failed (${rc})")
endif()
string(REGEX MATCHALL "\nObservation " observations "\n${out}")
list(LENGTH observations nobs)
if(NOT nobs EQUAL count)
  message(FATAL_ERROR "${nobs} result blocks for ${count} tests")
endif()
