# End-to-end tests against a live PyTorch: Debian's python3-torch (1.13.1) for
# /usr/bin/python3 (tools/bootstrap --test installs it). They fail, never skip,
# when torch cannot be imported.
set(DISPATCHCTL_E2E_PYTHON /usr/bin/python3)
set(DISPATCHCTL_E2E_ARGS --dispatchctl $<TARGET_FILE:dispatchctl>
                         --exporter ${DISPATCHCTL_EXPORTER_SCRIPT})

# Export the whole live registry (plus custom ops registered from Python) and
# compare torch-table / torch-state of every operator with the live PyTorch.
add_test(NAME e2e_export_live
         COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_export_live.py
                 ${DISPATCHCTL_E2E_ARGS} --workdir ${CMAKE_CURRENT_BINARY_DIR}/e2e_export_live)

# Seeded random registration scenarios replayed on the live PyTorch and compared
# with dispatchctl on the export (DISPATCHCTL_DIFF_SEED / _COUNT override).
add_test(NAME e2e_differential_random
         COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_differential_random.py
                 ${DISPATCHCTL_E2E_ARGS} --workdir ${CMAKE_CURRENT_BINARY_DIR}/e2e_differential)

# The exporter on the recorded dumps of 2.14.1 and 1.13.1 (a stand-in torch
# module answers its torch._C calls): covers the 2.x API path without torch.
add_test(NAME e2e_export_recorded_dumps
         COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_export_recorded_dumps.py
                 ${DISPATCHCTL_E2E_ARGS} --workdir ${CMAKE_CURRENT_BINARY_DIR}/e2e_recorded)

# Real call chains (logging kernels under PyTorch's own VariableType, Autocast,
# Functionalize and Conjugate kernels) against `trace`: hits and the TLS at each.
add_test(NAME e2e_trace_live
         COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_trace_live.py
                 ${DISPATCHCTL_E2E_ARGS} --workdir ${CMAKE_CURRENT_BINARY_DIR}/e2e_trace_live)

set_tests_properties(e2e_export_live e2e_differential_random e2e_export_recorded_dumps e2e_trace_live
                     PROPERTIES TIMEOUT 300)

# Issue 10: the live 1.13.1 export renamed to a release nothing is built in for;
# tables and states from its release profile alone, verify, probes, keys -m.
add_test(NAME e2e_profile_live
         COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_profile_live.py
                 ${DISPATCHCTL_E2E_ARGS} --workdir ${CMAKE_CURRENT_BINARY_DIR}/e2e_profile_live)
set_tests_properties(e2e_profile_live PROPERTIES TIMEOUT 600)

# Issue 10: the exporter's call probes (fallthrough mask before/after TLS, the
# ambiguous-AutogradOther assert, tensor presets and modifiers, the Autograd
# fallback) against what the live 1.13.1 does, and trace following each.
add_test(NAME e2e_probes_live
         COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_probes_live.py
                 ${DISPATCHCTL_E2E_ARGS} --workdir ${CMAKE_CURRENT_BINARY_DIR}/e2e_probes_live)
set_tests_properties(e2e_probes_live PROPERTIES TIMEOUT 300)

# Issue 10: `dispatchctl export` (schema-valid, verify passes) and `-m python`
# (equals builtin:1.13.1, cached under XDG_CACHE_HOME, key changes, broken Pythons).
add_test(NAME e2e_export_cli_live
         COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_export_cli_live.py
                 ${DISPATCHCTL_E2E_ARGS} --workdir ${CMAKE_CURRENT_BINARY_DIR}/e2e_export_cli_live)
set_tests_properties(e2e_export_cli_live PROPERTIES TIMEOUT 600)

# The exporter's modules inline into one script without clashing names, and
# its source form runs like the built one (no torch needed).
add_test(NAME exporter_modules
         COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_exporter_modules.py
                 --source ${PROJECT_SOURCE_DIR}/tools/dispatchctl-export.py
                 --built ${DISPATCHCTL_EXPORTER_SCRIPT})
