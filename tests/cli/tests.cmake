# End-to-end runs of the real binary, one harness for every command group:
# run.py executes one [[case]] of a cases/*.toml file; each case is a ctest
# test of the same name.
file(GLOB DISPATCHCTL_CLI_CASE_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/cases/*.toml)
foreach(case_file ${DISPATCHCTL_CLI_CASE_FILES})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${case_file})
  file(STRINGS ${case_file} name_lines REGEX "^name = \"[^\"]+\"$")
  foreach(line ${name_lines})
    string(REGEX REPLACE "^name = \"([^\"]+)\"$" "\\1" name "${line}")
    add_test(NAME ${name}
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/run.py --dispatchctl $<TARGET_FILE:dispatchctl>
                     --root ${PROJECT_SOURCE_DIR} ${case_file} ${name})
  endforeach()
endforeach()
