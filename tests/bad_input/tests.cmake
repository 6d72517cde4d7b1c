# Broken inputs through the real CLI (cases.txt; run.sh checks exit 2, one
# stderr line, no stdout, no file left by import -o, bounded time/memory).
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/cases.txt BAD_INPUT_CASES REGEX "^[^#]")
# The big cases' time limit is a speed requirement of the Release build; under
# ASan+UBSan (several times slower) they are checked for bounded time only.
set(BAD_INPUT_BIG_SECONDS 30)
if(DISPATCHCTL_SANITIZE)
  set(BAD_INPUT_BIG_SECONDS 100)
endif()
foreach(line ${BAD_INPUT_CASES})
  string(REGEX REPLACE "\t.*" "" case "${line}")
  add_test(NAME bad_input_${case}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${case} $<TARGET_FILE:dispatchctl> ${BAD_INPUT_BIG_SECONDS})
  set_tests_properties(bad_input_${case} PROPERTIES TIMEOUT 300)
endforeach()
# The generated giants need memory and a core each: never run them side by side.
set_tests_properties(bad_input_manifest_200mb bad_input_gzip_bomb_manifest bad_input_gzip_bomb_dump
                     PROPERTIES RUN_SERIAL TRUE LABELS big)
