# trace and show --live through the real binary: exit codes, output shapes, stderr wording.
set(DCTL $<TARGET_FILE:dispatchctl>)
set(EXPECT /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli_check/expect.py)
set(TRACE_DIR ${CMAKE_CURRENT_LIST_DIR})

add_test(NAME cli_trace_worked_example
         COMMAND ${EXPECT} --exit 0
                 --stdout "= dispatch key set +DispatchKeySet\\(CPU, AutogradCPU\\)"
                 --stdout "^  1\\. AutogradCPU: registered at"
                 --stdout "VariableType_2.cpp:[0-9]+ \\[autograd"
                 --stdout "-> redispatch with FULL_AFTER\\(AutogradOther\\): DispatchKeySet\\(CPU\\)"
                 --stdout "^  2\\. CPU: .*RegisterCPU_0.cpp"
                 --stdout "^result: completed after 2 hops"
                 -- ${DCTL} trace aten::add.Tensor --tensor cpu:requires_grad --tensor cpu)
add_test(NAME cli_trace_inference_mode
         COMMAND ${EXPECT} --exit 0 --stdout "^  1\\. CPU: " --no-stdout "^  2\\."
                 -- ${DCTL} trace aten::add.Tensor --tensor cpu:inference --tensor cpu:inference --inference-mode)
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
