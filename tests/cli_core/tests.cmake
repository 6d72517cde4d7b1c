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
