# Shell completion: bash's completion functions driven with the generated script.
add_test(NAME completion_bash COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/complete.sh $<TARGET_FILE:dispatchctl> ${PROJECT_SOURCE_DIR})
# zsh (compinit + bashcompinit in a pseudo-terminal) and fish (complete -C) drive their own scripts.
add_test(NAME completion_zsh COMMAND zsh -f ${CMAKE_CURRENT_LIST_DIR}/complete.zsh $<TARGET_FILE:dispatchctl> ${PROJECT_SOURCE_DIR})
add_test(NAME completion_fish COMMAND fish ${CMAKE_CURRENT_LIST_DIR}/complete.fish $<TARGET_FILE:dispatchctl> ${PROJECT_SOURCE_DIR})
