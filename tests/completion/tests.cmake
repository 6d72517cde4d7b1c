# Shell completion: bash's completion functions driven with the generated script.
add_test(NAME completion_bash COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/complete.sh $<TARGET_FILE:dispatchctl> ${PROJECT_SOURCE_DIR})
