# End-to-end runs for torchgen's YAML: `-m torchgen:PATH`, `import torchgen`,
# and bad YAML (one line naming file:line, exit 2, nothing written).
set(DCTL $<TARGET_FILE:dispatchctl>)
set(EXPECT ${PROJECT_SOURCE_DIR}/tests/cli_core/expect.sh)
set(TG_INVALID ${CMAKE_CURRENT_LIST_DIR}/invalid)

foreach(case import_matches_layer import_failure_leaves_no_file check_refusal_github check_require_meta)
  add_test(NAME cli_torchgen_${case}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cases.sh ${case} ${DCTL} ${PROJECT_SOURCE_DIR})
endforeach()

add_test(NAME cli_torchgen_yaml_syntax_error
         COMMAND ${EXPECT} 2 "syntax_error.yaml:4: YAML syntax error" -- ${DCTL} show "*" -m torchgen:${TG_INVALID}/syntax_error.yaml)
add_test(NAME cli_torchgen_unknown_field
         COMMAND ${EXPECT} 2 "unknown_field.yaml:5: unknown field 'dispach'.*did you mean 'dispatch'"
                 -- ${DCTL} show "*" -m torchgen:${TG_INVALID}/unknown_field.yaml)
add_test(NAME cli_torchgen_unknown_dispatch_key
         COMMAND ${EXPECT} 2 "unknown_key.yaml:4: unknown dispatch key 'CUAD'; did you mean 'CUDA'"
                 -- ${DCTL} show "*" -m torchgen:${TG_INVALID}/unknown_key.yaml)
add_test(NAME cli_torchgen_malformed_schema
         COMMAND ${EXPECT} 2 "malformed_schema.yaml:1: malformed schema" -- ${DCTL} show "*" -m torchgen:${TG_INVALID}/malformed_schema.yaml)
add_test(NAME cli_torchgen_bad_bool
         COMMAND ${EXPECT} 2 "bad_bool.yaml:4: 'structured' must be True or False" -- ${DCTL} show "*" -m torchgen:${TG_INVALID}/bad_bool.yaml)
add_test(NAME cli_torchgen_illegal_tag
         COMMAND ${EXPECT} 2 "native_functions.yaml:4: illegal tag pointwize; did you mean 'pointwise'"
                 -- ${DCTL} show "*" -m torchgen:${TG_INVALID}/bad_tag)
add_test(NAME cli_torchgen_unknown_backend
         COMMAND ${EXPECT} 2 "unknown backend 'CUDX'; did you mean 'CUDA'"
                 -- ${DCTL} import torchgen ${TG_INVALID}/unknown_field.yaml --build-backends CPU,CUDX)
add_test(NAME cli_torchgen_missing_path
         COMMAND ${EXPECT} 2 "/nonexistent: no such file or folder" -- ${DCTL} import torchgen /nonexistent)
add_test(NAME cli_torchgen_import_help COMMAND ${DCTL} import torchgen --help)

