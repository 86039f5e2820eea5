# SPDX-License-Identifier: BSD-3-Clause
# A malformed test gives FILE:LINE:COL and exit status 2; a malformed model likewise.
execute_process(COMMAND ${CHECKER} check --bell ${MODEL_DIR}/shmem.bell --cat ${MODEL_DIR}/shmem.cat
                        ${BAD}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad.litmus:5:2: error: unknown instruction 'q'")
  message(FATAL_ERROR "expected bad.litmus:5:2 and status 2, got ${rc}: ${err}")
endif()
execute_process(COMMAND ${CHECKER} check --bell ${MODEL_DIR}/shmem.bell --cat ${BAD} ${BAD}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad.litmus:1:1: error: ")
  message(FATAL_ERROR "expected an error at bad.litmus:1:1 and status 2, got ${rc}: ${err}")
endif()
execute_process(COMMAND ${CHECKER} frobnicate RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "unknown command")
  message(FATAL_ERROR "expected an unknown-command error, got ${rc}: ${err}")
endif()
