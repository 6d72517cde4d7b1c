# cmake -DDISPATCHCTL=BIN -DOUTPUT_DIR=DIR -P completions.cmake
# Writes the shell completion scripts the binary prints (`dispatchctl
# completion bash|zsh|fish`) into DIR/{bash,zsh,fish}/. A binary without the
# completion subcommand yields empty folders, and nothing is installed.
foreach(shell bash zsh fish)
  file(REMOVE_RECURSE "${OUTPUT_DIR}/${shell}")
  file(MAKE_DIRECTORY "${OUTPUT_DIR}/${shell}")
endforeach()
set(file_bash "bash/dispatchctl")
set(file_zsh "zsh/_dispatchctl")
set(file_fish "fish/dispatchctl.fish")
foreach(shell bash zsh fish)
  execute_process(COMMAND ${DISPATCHCTL} completion ${shell}
                  OUTPUT_VARIABLE script ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND NOT script STREQUAL "")
    file(WRITE "${OUTPUT_DIR}/${file_${shell}}" "${script}")
  else()
    message(STATUS "dispatchctl has no 'completion ${shell}' subcommand: no ${shell} completion installed")
  endif()
endforeach()
file(WRITE "${OUTPUT_DIR}/stamp" "")
