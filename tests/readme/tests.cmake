# Every dispatchctl command of README.md runs as written (run_readme_commands.py says how).
add_test(NAME readme_commands
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/run_readme_commands.py --dispatchctl $<TARGET_FILE:dispatchctl>
                 --root ${PROJECT_SOURCE_DIR})
