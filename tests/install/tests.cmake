# `cmake --install` into a scratch prefix, used as a new user would; the .deb
# packages CPack builds and whether apt would accept them. Not under
# sanitizers: the consumer would link an ASan-instrumented library without ASan.
if(NOT DISPATCHCTL_SANITIZE)
  add_test(NAME install_prefix COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${PROJECT_SOURCE_DIR})
  add_test(NAME install_deb COMMAND ${CMAKE_CURRENT_LIST_DIR}/deb.sh ${CMAKE_BINARY_DIR})
  # Both read the build tree while cpack may refresh it: never at the same time.
  set_tests_properties(install_prefix install_deb PROPERTIES TIMEOUT 300 RESOURCE_LOCK dispatchctl_install_tree)
endif()
