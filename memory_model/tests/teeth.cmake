# SPDX-License-Identifier: BSD-3-Clause
# The suite has teeth: each change below to a scratch copy of the model must flip at least one
# verdict of expected.kinds, and the unchanged model must flip none.
# Pairs of (text of shmem.cat, replacement). Kept as separate variables: the texts contain ';'.
set(from0 "acyclic po-loc-coh | rf | co | fr as coherence")
set(from1 "empty rmw & ((fr & same-dom) ; (co & same-dom)) as atomicity")
set(from2 "acyclic hb | rf as causality")
set(from3 "irreflexive (fr | co) ; hb as observation")
set(from4 "acyclic cord | rf | co | fr as completion")
# A wait on a BYPASS context would also acquire for plain loads.
set(from5 "([AcqR & BypassCtx] ; po ; [M \\ PlainR])")
set(to5 "([AcqR & BypassCtx] ; po ; [M])")
# fence would order operations to different PEs.
set(from6 "(fence-pre ; fence-peer ; fence-post) & same-pe)")
set(to6 "(fence-pre ; fence-peer ; fence-post))")
# A put used as a flag would synchronize with wait_until.
set(from7 "let StrongW = W & (Amo | Sig)")
set(to7 "let StrongW = W")
set(nchanges 8)
file(READ ${MODEL_DIR}/shmem.cat model)
file(GLOB tests ${LITMUS_DIR}/*.litmus)
file(MAKE_DIRECTORY ${SCRATCH})
configure_file(${MODEL_DIR}/shmem.bell ${SCRATCH}/shmem.bell COPYONLY)

function(run_checker cat_text result_var)
  file(WRITE ${SCRATCH}/shmem.cat "${cat_text}")
  execute_process(COMMAND ${CHECKER} check --bell ${SCRATCH}/shmem.bell --cat ${SCRATCH}/shmem.cat
                          --expected ${LITMUS_DIR}/expected.kinds ${tests}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  string(REGEX MATCHALL "the model says" flips "${err}")
  list(LENGTH flips nflips)
  if(NOT rc EQUAL 0 AND NOT rc EQUAL 1)
    message(FATAL_ERROR "the checker failed (${rc}):\n${err}")
  endif()
  set(${result_var} ${nflips} PARENT_SCOPE)
endfunction()

run_checker("${model}" base)
if(NOT base EQUAL 0)
  message(FATAL_ERROR "the unchanged model flips ${base} verdicts")
endif()
math(EXPR last "${nchanges} - 1")
foreach(i RANGE 0 ${last})
  set(from "${from${i}}")
  set(to "${to${i}}")
  string(FIND "${model}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "shmem.cat no longer contains '${from}': update this test")
  endif()
  string(REPLACE "${from}" "${to}" changed "${model}")
  run_checker("${changed}" flipped)
  message("'${from}' -> '${to}': ${flipped} verdicts flip")
  if(flipped EQUAL 0)
    message(FATAL_ERROR "changing '${from}' flips no verdict: the suite has no test for it")
  endif()
endforeach()
