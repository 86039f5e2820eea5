# SPDX-License-Identifier: BSD-3-Clause
# Tests labelled nosan check what a sanitizer build does not change (formatting, installation, GPU
# builds, the network matrix) or what its instrumentation hides (the full litmus harness outlasts
# its time budget at the sanitizer's speed, and with every access going through the sanitizer's
# runtime no store-buffer window is left for the weak outcomes the teeth tests expect). The plain
# build runs them. In a sanitizer build they are disabled, so that a plain ctest there leaves them
# out and lists them as not run (./test passes -LE nosan for the same reason). Each folder that
# labels tests nosan defers a call to it (cmake_language(DEFER CALL ...)), which runs once the
# folder is read, after a return() too. tests/CMakeLists.txt checks that none is left enabled.
function(shmem_disable_nosan_tests)
  if(NOT SHMEM_SANITIZE)
    return()
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test ${tests})
    get_test_property(${test} LABELS labels)
    if("nosan" IN_LIST labels)
      set_tests_properties(${test} PROPERTIES DISABLED TRUE)
    endif()
  endforeach()
endfunction()
