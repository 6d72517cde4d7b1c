# The JSON Schema and every manifest in the repository agree.
add_test(NAME schema_validates_manifests
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/validate_manifests.py ${PROJECT_SOURCE_DIR}
                 $<TARGET_FILE:dispatchctl>)
# Every JSON output of the binary validates against its schema in schemas/,
# and the schemas refuse mutated outputs (unknown fields, wrong types).
add_test(NAME schema_validates_outputs
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/validate_outputs.py ${PROJECT_SOURCE_DIR}
                 $<TARGET_FILE:dispatchctl>)
