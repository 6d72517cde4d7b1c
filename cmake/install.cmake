# Installing dispatchctl like a real tool: the binary, the exporter, shell
# completions and a man page (both generated at build time by running the
# built binary), the JSON Schemas, and a CMake package for the library
# (find_package(dispatchctl) -> dispatchctl::lib). CPack builds .deb files.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# --- generated at build time from the binary itself ----------------------
set(DISPATCHCTL_MAN_PAGE ${CMAKE_BINARY_DIR}/man/dispatchctl.1)
add_custom_command(
  OUTPUT ${DISPATCHCTL_MAN_PAGE}
  COMMAND ${CMAKE_COMMAND} -DDISPATCHCTL=$<TARGET_FILE:dispatchctl> -DOUTPUT=${DISPATCHCTL_MAN_PAGE}
          -DVERSION=${PROJECT_VERSION} -P ${CMAKE_CURRENT_LIST_DIR}/manpage.cmake
  DEPENDS dispatchctl ${CMAKE_CURRENT_LIST_DIR}/manpage.cmake
  COMMENT "Writing the man page from dispatchctl's --help texts")
set(DISPATCHCTL_COMPLETIONS ${CMAKE_BINARY_DIR}/completions)
add_custom_command(
  OUTPUT ${DISPATCHCTL_COMPLETIONS}/stamp
  COMMAND ${CMAKE_COMMAND} -DDISPATCHCTL=$<TARGET_FILE:dispatchctl> -DOUTPUT_DIR=${DISPATCHCTL_COMPLETIONS}
          -P ${CMAKE_CURRENT_LIST_DIR}/completions.cmake
  DEPENDS dispatchctl ${CMAKE_CURRENT_LIST_DIR}/completions.cmake
  COMMENT "Writing shell completions with dispatchctl completion")
add_custom_target(dispatchctl_docs ALL DEPENDS ${DISPATCHCTL_MAN_PAGE} ${DISPATCHCTL_COMPLETIONS}/stamp)

# --- the command-line tool (component cli: the dispatchctl package) -------
install(TARGETS dispatchctl RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(PROGRAMS ${DISPATCHCTL_EXPORTER_SCRIPT} DESTINATION ${CMAKE_INSTALL_BINDIR}
        RENAME dispatchctl-export COMPONENT cli)
install(FILES ${DISPATCHCTL_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT cli)
install(DIRECTORY ${DISPATCHCTL_COMPLETIONS}/bash/ DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        COMPONENT cli)
install(DIRECTORY ${DISPATCHCTL_COMPLETIONS}/zsh/ DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions
        COMPONENT cli)
install(DIRECTORY ${DISPATCHCTL_COMPLETIONS}/fish/ DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d
        COMPONENT cli)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/schemas/ DESTINATION ${CMAKE_INSTALL_DATADIR}/dispatchctl/schemas
        COMPONENT cli FILES_MATCHING PATTERN "*.schema.json")

# --- the library (component dev: the dispatchctl-dev package) -------------
set(DISPATCHCTL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dispatchctl)
install(TARGETS dispatchctl_lib EXPORT dispatchctlTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dispatchctl)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dispatchctl COMPONENT dev
        FILES_MATCHING PATTERN "*.h" PATTERN "gen" EXCLUDE PATTERN "data" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/lib/generated/builtin/builtin/newest_release.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dispatchctl/builtin COMPONENT dev)
install(EXPORT dispatchctlTargets NAMESPACE dispatchctl:: DESTINATION ${DISPATCHCTL_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dispatchctlConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/dispatchctlConfig.cmake INSTALL_DESTINATION ${DISPATCHCTL_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dispatchctlConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dispatchctlConfig.cmake ${CMAKE_BINARY_DIR}/dispatchctlConfigVersion.cmake
        DESTINATION ${DISPATCHCTL_CMAKE_DIR} COMPONENT dev)

# --- .deb packages: cpack -G DEB in the build folder ----------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dispatchctl)
set(CPACK_PACKAGE_VENDOR "dispatchctl developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "inspect PyTorch dispatch tables: which kernel runs for which key, and why")
set(CPACK_PACKAGE_CONTACT "dispatchctl developers <dispatchctl@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL cli dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_CLI_PACKAGE_NAME dispatchctl)
set(CPACK_DEBIAN_CLI_PACKAGE_SHLIBDEPS ON)  # Depends from the binary's shared libraries
set(CPACK_DEBIAN_CLI_PACKAGE_SUGGESTS "python3-torch")  # for dispatchctl-export
set(CPACK_DEBIAN_CLI_DESCRIPTION "inspect PyTorch dispatch tables
 dispatchctl computes every operator's dispatch table exactly as PyTorch 1.13 and 2.14 do,
 explains why a key runs the kernel it runs, traces calls, diffs and lints registrations.
 The real registries of PyTorch 2.14.1 and 1.13.1 are built in.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME dispatchctl-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "nlohmann-json3-dev (>= 3.10), libfmt-dev, zlib1g-dev, libyaml-cpp-dev")
set(CPACK_DEBIAN_DEV_DESCRIPTION "dispatchctl's library for C++ tools (static, with CMake package)
 find_package(dispatchctl) gives the target dispatchctl::lib: the registries, the dispatch-table
 computation, explanations, diffs and checks that the dispatchctl command uses.")
# python3-dispatchctl: the Python module (python/, built with -DDISPATCHCTL_PYTHON=ON)
# where Debian's python3 finds it, for the python3 it was built against.
if(DISPATCHCTL_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-dispatchctl)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SHLIBDEPS ON)  # libc6, libstdc++6 … from the module's shared libraries
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
      "python3 (>= ${DISPATCHCTL_PYTHON_VERSION}), python3 (<< ${DISPATCHCTL_PYTHON_NEXT_VERSION})")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS "python3-pytest, python3-torch")
  set(CPACK_DEBIAN_PYTHON_DESCRIPTION "dispatchctl's library as the Python module dispatchctl
 import dispatchctl: PyTorch dispatch tables of the built-in releases, manifests or the
 running torch, has-kernel answers, explanations, traces, diffs and checks as Python
 objects, with typing stubs and pytest fixtures for a backend's op-coverage tests.")
endif()
include(CPack)
