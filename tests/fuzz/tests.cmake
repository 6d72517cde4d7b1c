# Replays the fuzz seed corpora and every crash the fuzzers found
# (tests/fuzz/regressions/TARGET/) through the fuzz targets, with a plain
# main instead of libFuzzer: runs in every build, sanitizers included.
foreach(target manifest torch_dump op_select torchgen_yaml torchgen_rules schema pack)
  add_executable(fuzz_replay_${target} ${CMAKE_CURRENT_LIST_DIR}/fuzz_${target}.cpp
                                       ${CMAKE_CURRENT_LIST_DIR}/replay_main.cpp)
  target_link_libraries(fuzz_replay_${target} PRIVATE dispatchctl_lib)
  target_compile_options(fuzz_replay_${target} PRIVATE ${DISPATCHCTL_WARNINGS})
  set(dirs ${CMAKE_CURRENT_LIST_DIR}/corpus/${target})
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/regressions/${target})
    list(APPEND dirs ${CMAKE_CURRENT_LIST_DIR}/regressions/${target})
  endif()
  add_test(NAME fuzz_replay_${target} COMMAND fuzz_replay_${target} ${dirs})
endforeach()
