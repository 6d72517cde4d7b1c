# The Python module (python/, issue 34) under Debian's pytest, run by
# /usr/bin/python3 (Debian's torch 1.13.1 for from_torch) with the module from
# the build tree (build/python). Only with -DDISPATCHCTL_PYTHON=ON
# (tools/bootstrap --test turns it on).
if(DISPATCHCTL_PYTHON AND NOT DISPATCHCTL_SANITIZE)
  set(DISPATCHCTL_PYTEST_ENV
      PYTHONPATH=${CMAKE_BINARY_DIR}/python
      DISPATCHCTL_BIN=$<TARGET_FILE:dispatchctl>
      DISPATCHCTL_SOURCE_DIR=${PROJECT_SOURCE_DIR}
      DISPATCHCTL_BUILD_DIR=${CMAKE_BINARY_DIR}
      XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/xdg-cache-of-python-tests
      PYTHONDONTWRITEBYTECODE=1)
  # One ctest test per file of tests/python/ (python_FILE), each a pytest run.
  function(dispatchctl_pytest name file timeout)
    add_test(NAME ${name}
             COMMAND /usr/bin/python3 -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_LIST_DIR}/${file}
             WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout} ENVIRONMENT "${DISPATCHCTL_PYTEST_ENV}")
  endfunction()
  dispatchctl_pytest(python_api test_api.py 120)
  dispatchctl_pytest(python_tables test_tables.py 300)
  dispatchctl_pytest(python_cli_cases test_cli_cases.py 300)
  dispatchctl_pytest(python_from_torch test_from_torch.py 300)
  dispatchctl_pytest(python_example test_example.py 120)
  dispatchctl_pytest(python_pip_install test_pip_install.py 300)
  dispatchctl_pytest(python_mypy test_mypy.py 180)
  # pip builds the module in the build tree the install tests package.
  set_tests_properties(python_pip_install PROPERTIES RESOURCE_LOCK dispatchctl_install_tree)
endif()
