# trace and show --live through the real binary: exit codes, output shapes, stderr wording.
set(DCTL $<TARGET_FILE:dispatchctl>)
set(EXPECT /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli_check/expect.py)
set(TRACE_DIR ${CMAKE_CURRENT_LIST_DIR})

add_test(NAME cli_trace_worked_example
         COMMAND ${EXPECT} --exit 0
                 --stdout "= dispatch key set +DispatchKeySet\\(CPU, AutogradCPU\\)"
                 --stdout "^  1\\. AutogradCPU: .*VariableType_2.cpp.*\\[autograd kernel\\]"
                 --stdout "-> redispatch with FULL_AFTER\\(AutogradOther\\): DispatchKeySet\\(CPU\\)"
                 --stdout "^  2\\. CPU: .*RegisterCPU_0.cpp"
                 --stdout "^result: completed after 2 hops"
                 -- ${DCTL} trace aten::add.Tensor --tensor cpu:requires_grad --tensor cpu)
add_test(NAME cli_trace_inference_mode
         COMMAND ${EXPECT} --exit 0 --stdout "^  1\\. CPU: " --no-stdout "^  2\\."
                 -- ${DCTL} trace aten::add.Tensor --tensor cpu:inference --inference-mode)
add_test(NAME cli_trace_autocast_json
         COMMAND ${EXPECT} --exit 0 --json --stdout "\"row\": \"AutocastCPU\"" --stdout "\"action\": \"fresh_call\""
                 -- ${DCTL} trace aten::matmul --tensor cpu --tensor cpu --autocast cpu --format json)
add_test(NAME cli_trace_meta_fallback_raises
         COMMAND ${EXPECT} --exit 1 --stdout "raises NotImplementedError"
                 --stdout "demo::cpu_only: attempted to run this operator with Meta tensors"
                 -- ${DCTL} trace demo::cpu_only -m builtin:2.14.1 -m ${TRACE_DIR}/stale.json --tensor meta)
add_test(NAME cli_trace_stale_row
         COMMAND ${EXPECT} --exit 0 --stdout "^  1\\. AutogradCPU: stale_math \\[math kernel\\]"
                 --stdout "STALE: _dispatch_dump_table shows"
                 -- ${DCTL} trace demo::stale -m builtin:2.14.1 -m ${TRACE_DIR}/stale.json --tensor cpu)
add_test(NAME cli_show_live_marks_stale
         COMMAND ${EXPECT} --exit 0 --stdout "live table: 34 stale rows" --stdout "^  AutogradCPU$"
                 -- ${DCTL} show demo::stale --live -m builtin:2.14.1 -m ${TRACE_DIR}/stale.json)
add_test(NAME cli_show_live_other_order_clean
         COMMAND ${EXPECT} --exit 0 --stdout "live table: no stale rows"
                 -- ${DCTL} show demo::fresh --live -m builtin:2.14.1 -m ${TRACE_DIR}/stale.json)
add_test(NAME cli_show_live_torch_table
         COMMAND ${EXPECT} --exit 0 --stdout "^AutogradCPU: stale_math \\[math kernel\\]$"
                 -- ${DCTL} show demo::stale --live --format torch-table -m builtin:2.14.1 -m ${TRACE_DIR}/stale.json)
add_test(NAME cli_show_live_json
         COMMAND ${EXPECT} --exit 0 --json --stdout "\"stale\": true" --stdout "\"stale_rows\": \\["
                 -- ${DCTL} show demo::stale --live --format json -m builtin:2.14.1 -m ${TRACE_DIR}/stale.json)
add_test(NAME cli_trace_bad_preset_is_exit_2
         COMMAND ${EXPECT} --exit 2 --stderr-lines 1 --stderr "did you mean 'cpu'"
                 -- ${DCTL} trace aten::add.Tensor --tensor cpy)
add_test(NAME cli_trace_bad_key_is_exit_2
         COMMAND ${EXPECT} --exit 2 --stderr-lines 1 --stderr "did you mean 'Functionalize'"
                 -- ${DCTL} trace aten::add.Tensor --tensor cpu --tls-include Functionalise)
add_test(NAME cli_trace_several_overloads_is_exit_2
         COMMAND ${EXPECT} --exit 2 --stderr-lines 1 --stderr "name one overload"
                 -- ${DCTL} trace aten::add --tensor cpu)
# Item: the TLS guards of kernels up the stack (VariableType's
# AutoDispatchBelowADInplaceOrView): the README example runs AutogradCPU once.
add_test(NAME cli_trace_guard_keeps_autograd_out_of_fresh_call
         COMMAND ${EXPECT} --exit 0
                 --stdout "^  1\\. AutogradCPU: .*VariableType"
                 --stdout "holds AutoDispatchBelowADInplaceOrView meanwhile: TLS excluded adds AutogradFunctionality,"
                 --stdout "-- fresh call from Functionalize \\(under AutoDispatchSkipFunctionalize"
                 --no-stdout "AutogradCPU:[^\\n]*\\n(.*\\n)*  [0-9]+\\. AutogradCPU:"
                 -- ${DCTL} trace aten::add.Tensor --tensor cpu:conj --tls-include Functionalize)
add_test(NAME cli_trace_json_has_tls_per_hop
         COMMAND ${EXPECT} --exit 0 --json --stdout "\"tls_excluded\": \\[" --stdout "\"action_source\": \"default\""
                 --stdout "\"name\": \"AutoDispatchSkipFunctionalize\""
                 -- ${DCTL} trace aten::add.Tensor --tensor cpu:conj --tls-include Functionalize --format json)
add_test(NAME cli_trace_autograd_fallback_loses_gradients
         COMMAND ${EXPECT} --exit 0 --stdout "autograd-not-implemented fallback"
                 --stdout "NOTE: gradients are missing: if an input requires grad, backward warns"
                 --stdout "register a kernel at Autograd"
                 --no-stdout "records autograd history"
                 -- ${DCTL} trace myops::fused -m builtin:2.14.1 -m ${PROJECT_SOURCE_DIR}/tests/manifests/check/no_autograd.json
                    --tensor cpu:requires_grad --tensor cpu)
add_test(NAME cli_trace_then_declared
         COMMAND ${EXPECT} --exit 0
                 --stdout "assumed: redispatch, declared in the manifest \\(\"then\": \"redispatch\"\\)"
                 --stdout "^  2\\. CPU: passes_on_math \\[math kernel\\]"
                 --stdout "assumed: return, declared in the manifest"
                 -- ${DCTL} trace demo::passes_on -m builtin:2.14.1 -m ${TRACE_DIR}/then.json --tensor cpu)
add_test(NAME cli_explain_autograd_fallback_names_the_fix
         COMMAND ${EXPECT} --exit 0 --stdout "autograd-not-implemented fallback, not an autograd"
                 --stdout "fix: register a kernel at Autograd"
                 -- ${DCTL} explain myops::fused --key AutogradCPU -m builtin:2.14.1
                    -m ${PROJECT_SOURCE_DIR}/tests/manifests/check/no_autograd.json)
