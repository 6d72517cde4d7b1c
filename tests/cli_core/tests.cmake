# End-to-end runs of the real binary for the core commands: byte-identity
# of whole registries, exit codes and one-line errors.
set(DCTL $<TARGET_FILE:dispatchctl>)
set(EXPECT ${CMAKE_CURRENT_LIST_DIR}/expect.sh)
set(INVALID ${CMAKE_CURRENT_LIST_DIR}/invalid)

foreach(case all_tables_2.14.1 all_tables_1.13.1 all_states_2.14.1 all_states_1.13.1
             import_round_trip_2.14.1 import_round_trip_1.13.1 import_single_pasted_block
             import_failure_leaves_no_file no_color_when_piped keys_alias_json
             text_fits_80_columns columns_env_width)
  add_test(NAME cli_${case} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cases.sh ${case} ${DCTL} ${PROJECT_SOURCE_DIR})
endforeach()

add_test(NAME cli_unknown_operator_did_you_mean
         COMMAND ${EXPECT} 2 "unknown operator 'aten::ad'.*did you mean 'aten::add'" -- ${DCTL} show aten::ad)
add_test(NAME cli_unknown_key_did_you_mean
         COMMAND ${EXPECT} 2 "/operators/0/kernels/0/key: 'Meat' is not a dispatch key of PyTorch 2.14; did you mean 'Meta'"
                 -- ${DCTL} show demo::op -m ${INVALID}/meat_key.json)
add_test(NAME cli_json_syntax_error_line_column
         COMMAND ${EXPECT} 2 "truncated.json:5:[0-9]+: invalid JSON" -- ${DCTL} show "*" -m ${INVALID}/truncated.json)
add_test(NAME cli_missing_file
         COMMAND ${EXPECT} 2 "/nonexistent.json: cannot open" -- ${DCTL} show "*" -m /nonexistent.json)
add_test(NAME cli_directory_as_manifest
         COMMAND ${EXPECT} 2 "is a directory" -- ${DCTL} show "*" -m ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME cli_mismatched_releases
         COMMAND ${EXPECT} 2 "does not match" -- ${DCTL} show "*" -m builtin:2.14.1 -m builtin:1.13.1)
add_test(NAME cli_bad_format_is_usage_error
         COMMAND ${EXPECT} 2 "format" -- ${DCTL} show aten::add --format yaml)
add_test(NAME cli_keys_bad_alias
         COMMAND ${EXPECT} 2 "did you mean 'CompositeExplicitAutograd'" -- ${DCTL} keys --alias CompositeExplictAutograd)
add_test(NAME cli_help_exit_zero COMMAND ${DCTL} show --help)

# Rough edges (issue 11 item 10): globs, bare names, Python spellings, shell-expanded '*', typos.
add_test(NAME cli_glob_matching_nothing_is_exit_2
         COMMAND ${EXPECT} 2 "no operator matches 'aten::nonzeor\\*'.*did you mean 'aten::nonzero'" -- ${DCTL} show "aten::nonzeor*")
add_test(NAME cli_bare_name_selects_every_overload
         COMMAND bash -c "test \"$(${DCTL} show aten::nonzero --format torch-state | grep -c '^=== ')\" = 2")
add_test(NAME cli_python_spellings
         COMMAND bash -c "for p in torch.ops.aten.add.Tensor aten.add.Tensor; do ${DCTL} show $p --format torch-table | cmp - <(${DCTL} show aten::add.Tensor --format torch-table) || exit 1; done; test \"$(${DCTL} show aten::nonzero.default | head -1)\" = aten::nonzero")
add_test(NAME cli_shell_expanded_star
         COMMAND ${EXPECT} 2 "'cases.sh' is a file in the current directory.*quote the pattern" -- ${DCTL} show cases.sh expect.sh)
set_tests_properties(cli_shell_expanded_star PROPERTIES WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME cli_unknown_command_did_you_mean
         COMMAND ${EXPECT} 2 "unknown command 'showw'. did you mean 'show'" -- ${DCTL} showw aten::add)
add_test(NAME cli_unknown_flag_did_you_mean
         COMMAND ${EXPECT} 2 "--formt. did you mean '--format'" -- ${DCTL} show aten::add --formt json)
add_test(NAME cli_keys_alias_prefix_did_you_mean
         COMMAND ${EXPECT} 2 "did you mean 'CompositeExplicitAutograd'" -- ${DCTL} keys --alias CompositeExplicit)
add_test(NAME cli_trace_tensor_count_checked
         COMMAND ${EXPECT} 2 "aten::add.Tensor takes 2 Tensor arguments \\(self, other\\) but 1 were given" -- ${DCTL} trace aten::add.Tensor --tensor cpu)
add_test(NAME cli_trace_bare_name_is_default_overload
         COMMAND ${EXPECT} 0 "" -- ${DCTL} trace aten::nonzero --tensor cpu)
add_test(NAME cli_output_cites_no_design_docs
         COMMAND bash -c "! { ${DCTL} explain aten::add.Tensor --key AutogradCPU; ${DCTL} explain --key Meta; ${DCTL} show aten::add; ${DCTL} has-kernel --help; ${DCTL} explain --help; ${DCTL} trace aten::add.Tensor --tensor cpu --tensor cpu; } | grep -E '§|dispatch-semantics|manifest-format|json lists them|\\(overrides [0-9]'")
