# diff and check through the real binary: exit codes, output shapes, stderr wording.
set(DCTL $<TARGET_FILE:dispatchctl>)
set(EXPECT /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/expect.py)
set(CHECK_MANIFESTS ${PROJECT_SOURCE_DIR}/tests/manifests/check)
set(DIFF_MANIFESTS ${PROJECT_SOURCE_DIR}/tests/manifests/diff)

# --- diff ---------------------------------------------------------------
add_test(NAME cli_diff_same_builtin_is_empty
         COMMAND ${EXPECT} --exit 0 --stdout "^no differences$" -- ${DCTL} diff builtin:2.14.1 builtin:2.14.1)
add_test(NAME cli_diff_layered_cea_flips_rows
         COMMAND ${EXPECT} --exit 1
                 --stdout "^aten::get_gradients: CompositeExplicitAutograd now fills 70 keys that were math kernel$"
                 --stdout "^  \\+ CompositeExplicitAutograd: get_gradients_explicit"
                 -- ${DCTL} diff --old builtin:2.14.1 --new builtin:2.14.1 --new ${DIFF_MANIFESTS}/add_cea_to_cia_op.json)
add_test(NAME cli_diff_json
         COMMAND ${EXPECT} --exit 1 --json --stdout "\"rows_changed\": 104"
                 -- ${DCTL} diff --format json --old builtin:2.14.1
                    --new builtin:2.14.1 --new ${DIFF_MANIFESTS}/add_cea_to_cia_op.json)
add_test(NAME cli_diff_summary_and_filters
         COMMAND ${EXPECT} --exit 1 --stdout "^  AutogradCPU: math kernel -> backend fallback: 1$"
                 --no-stdout "^myops::" --no-stdout "^  \\+"
                 -- ${DCTL} diff ${DIFF_MANIFESTS}/small_old.json ${DIFF_MANIFESTS}/small_new.json --summary
                    --op "myops::k*" --key AutogradCPU)
add_test(NAME cli_diff_bad_key_is_exit_2
         COMMAND ${EXPECT} --exit 2 --stderr-lines 1 --stderr "did you mean 'AutogradCPU'"
                 -- ${DCTL} diff builtin:2.14.1 builtin:2.14.1 --key AutogradCPX)
add_test(NAME cli_diff_needs_two_sides
         COMMAND ${EXPECT} --exit 2 --stderr-lines 1 -- ${DCTL} diff builtin:2.14.1)
add_test(NAME cli_diff_across_releases
         COMMAND ${EXPECT} --exit 1 --stdout "^  Meta: kernel -> kernel \\(python\\): 1$"
                 --stdout "^keys only in builtin:2.14.1 \\(not compared\\): MTIA"
                 --no-stdout "^aten::add.Tensor: " -- ${DCTL} diff builtin:1.13.1 builtin:2.14.1
                    --op aten::add.Tensor --summary)
add_test(NAME cli_diff_release_summary_json
         COMMAND ${EXPECT} --exit 1 --json --stdout "\"fallbacks_changed\": 9" --no-stdout "\"rows\": \\["
                 -- ${DCTL} diff builtin:1.13.1 builtin:2.14.1 --summary --format json)
add_test(NAME cli_diff_python_meta_kernel
         COMMAND ${EXPECT} --exit 1
                 --stdout "^aten::nonzero: a direct python kernel now fills 1 key \\(Meta\\) that had no kernel$"
                 -- ${DCTL} diff builtin:1.13.1 builtin:2.14.1 --op aten::nonzero --key Meta)

# --- check --------------------------------------------------------------
add_test(NAME cli_check_clean
         COMMAND ${EXPECT} --exit 0 --stdout "^0 errors, 0 warnings, 0 notes in 1 operator$"
                 -- ${DCTL} check ${CHECK_MANIFESTS}/clean.json --no-config)
add_test(NAME cli_check_text_line_format
         COMMAND ${EXPECT} --exit 1
                 --stdout "duplicate_definition.json:7:[0-9]+: error: Tried to register an operator .* \\[duplicate-definition\\]$"
                 -- ${DCTL} check ${CHECK_MANIFESTS}/duplicate_definition.json --no-config)
add_test(NAME cli_check_warning_exit_0_unless_warnings_as_errors
         COMMAND ${EXPECT} --exit 0 --stdout "dangling_impl.json:9:9: warning: .*\\[dangling-impl\\]$"
                 -- ${DCTL} check ${CHECK_MANIFESTS}/dangling_impl.json --no-config)
add_test(NAME cli_check_warnings_as_errors
         COMMAND ${EXPECT} --exit 1 --stdout ": error: .*\\[dangling-impl\\]$"
                 -- ${DCTL} check ${CHECK_MANIFESTS}/dangling_impl.json --no-config --warnings-as-errors)
add_test(NAME cli_check_github
         COMMAND ${EXPECT} --exit 1 --stdout "^::error file=.*autogradother_ambiguity.json,line=[0-9]+,col=[0-9]+,title=autogradother-ambiguity::"
                 -- ${DCTL} check ${CHECK_MANIFESTS}/autogradother_ambiguity.json --format github --no-config)
add_test(NAME cli_check_sarif
         COMMAND ${EXPECT} --exit 0 --json --stdout "\"version\": \"2.1.0\"" --stdout "\"ruleId\": \"kernel-override\""
                 -- ${DCTL} check ${CHECK_MANIFESTS}/kernel_override_1_13.json --format sarif --no-config)
add_test(NAME cli_check_json
         COMMAND ${EXPECT} --exit 0 --json --stdout "\"rule\": \"cia-with-backend-kernel\""
                 -- ${DCTL} check ${CHECK_MANIFESTS}/cia_with_cpu.json --format json --no-config)
add_test(NAME cli_check_config_file_in_cwd
         COMMAND ${EXPECT} --exit 1 --cwd ${CHECK_MANIFESTS}
                 --stdout "error: .*\\[cia-with-backend-kernel\\]$" --stdout "\\[required-key\\]$"
                 -- ${DCTL} check cia_with_cea.json dangling_impl.json)
add_test(NAME cli_check_require_bad_key_is_exit_2
         COMMAND ${EXPECT} --exit 2 --stderr-lines 1 --stderr "did you mean 'Meta'"
                 -- ${DCTL} check ${CHECK_MANIFESTS}/clean.json --require Meat --no-config)
add_test(NAME cli_check_load_error_is_a_finding
         COMMAND ${EXPECT} --exit 1 --stdout "syntax.json:5:[0-9]+: error: invalid JSON: .*\\[load-error\\]$"
                 -- ${DCTL} check ${CHECK_MANIFESTS}/invalid/syntax.json --no-config)
add_test(NAME cli_check_list_checks
         COMMAND ${EXPECT} --exit 0 --stdout "^kernel-override +warning " --stdout "^autogradother-ambiguity +error "
                 -- ${DCTL} check --list-checks)
add_test(NAME cli_check_real_registries
         COMMAND ${EXPECT} --exit 1 --stdout "^9 errors, [0-9]+ warnings"
                 -- ${DCTL} check builtin:2.14.1 --no-config)
set_tests_properties(cli_check_real_registries cli_diff_same_builtin_is_empty PROPERTIES TIMEOUT 60)
