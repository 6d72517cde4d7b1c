# The recorded composite calls of 2.14.1 (lib/builtin/data/torch-2.14.1/
# composite_calls.json.gz) against 2,340 real forward calls on six real PrivateUse1 backends
# (record_backends.py, live 2.14.1 in a sid chroot), through a predictor written from
# the recording alone (check_recording.py): no definite prediction may be wrong.
# Needs no torch and no dispatchctl: a check of the data, well under a second.
add_test(NAME composite_calls_recording_2_14_1
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_recording.py ${PROJECT_SOURCE_DIR})
set_tests_properties(composite_calls_recording_2_14_1 PROPERTIES TIMEOUT 60)

# dispatchctl's own verdicts on the same 2,340 real calls (check_verdicts.py): `trace --calls`
# and `has-kernel --works` per backend; no definite verdict wrong, and an exact ratchet
# on the raises on composite rows predicted with PyTorch's first line.
add_test(NAME composite_calls_verdicts_2_14_1
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_verdicts.py $<TARGET_FILE:dispatchctl>)
set_tests_properties(composite_calls_verdicts_2_14_1 PROPERTIES TIMEOUT 600)
