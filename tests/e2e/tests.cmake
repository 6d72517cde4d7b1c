# End-to-end tests against a live PyTorch: Debian's python3-torch (1.13.1) for
# /usr/bin/python3 (tools/bootstrap --test installs it). They fail, never skip,
# when torch cannot be imported.
set(DISPATCHCTL_E2E_PYTHON /usr/bin/python3)
set(DISPATCHCTL_E2E_ARGS --dispatchctl $<TARGET_FILE:dispatchctl>
                         --exporter ${DISPATCHCTL_EXPORTER_SCRIPT})

# One test: SCRIPT run by that Python against the binary and the exporter, in a
# scratch folder named after the test, for at most TIMEOUT seconds.
function(dispatchctl_e2e_test name script timeout)
  add_test(NAME ${name}
           COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${script}
                   ${DISPATCHCTL_E2E_ARGS} --workdir ${CMAKE_CURRENT_BINARY_DIR}/${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout})
endfunction()

# Export the whole live registry (plus custom ops registered from Python) and
# compare torch-table / torch-state of every operator with the live PyTorch.
dispatchctl_e2e_test(e2e_export_live test_export_live.py 300)

# Seeded random registration scenarios replayed on the live PyTorch and compared
# with dispatchctl on the export (DISPATCHCTL_DIFF_SEED / _COUNT override).
dispatchctl_e2e_test(e2e_differential_random test_differential_random.py 300)

# The exporter on the recorded dumps of 2.14.1 and 1.13.1 (a stand-in torch
# module answers its torch._C calls): covers the 2.x API path without torch.
dispatchctl_e2e_test(e2e_export_recorded_dumps test_export_recorded_dumps.py 300)

# Real call chains (logging kernels under PyTorch's own VariableType, Autocast,
# Functionalize and Conjugate kernels) against `trace`: hits and the TLS at each.
dispatchctl_e2e_test(e2e_trace_live test_trace_live.py 300)

# Issue 10: the live 1.13.1 export renamed to a release nothing is built in for;
# tables and states from its release profile alone, verify, probes, keys -m.
dispatchctl_e2e_test(e2e_profile_live test_profile_live.py 600)

# Issue 10: the exporter's call probes (fallthrough mask before/after TLS, the
# ambiguous-AutogradOther assert, tensor presets and modifiers, the Autograd
# fallback) against what the live 1.13.1 does, and trace following each.
dispatchctl_e2e_test(e2e_probes_live test_probes_live.py 300)

# Issue 10: `dispatchctl export` (schema-valid, verify passes) and `-m python`
# (equals builtin:1.13.1, cached under XDG_CACHE_HOME, key changes, broken Pythons).
dispatchctl_e2e_test(e2e_export_cli_live test_export_cli_live.py 600)

# The exporter's modules inline into one script without clashing names, and
# its source form runs like the built one (no torch needed).
add_test(NAME exporter_modules
         COMMAND ${DISPATCHCTL_E2E_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_exporter_modules.py
                 --source ${PROJECT_SOURCE_DIR}/tools/dispatchctl-export.py
                 --built ${DISPATCHCTL_EXPORTER_SCRIPT})

# Issue 33: tools/record-model-ops.py records a training step's operators with
# the live 1.13.1 (exact overloads, below autograd), which --ops-from reads.
dispatchctl_e2e_test(e2e_record_model_ops_live test_record_model_ops_live.py 120)

# Issue 33: -m 'python:WRAPPER' (a chroot, a container): the exporter fed on
# stdin to an interpreter that cannot open host files (fixtures/python_elsewhere.sh).
dispatchctl_e2e_test(e2e_python_wrapper_live test_python_wrapper_live.py 300)
