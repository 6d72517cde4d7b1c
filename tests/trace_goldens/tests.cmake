# trace never overclaims (issue 22): real 1.13.1 calls recorded by
# record_real_calls.py (Debian's torch, not dispatchctl) against `trace`'s
# verdicts, through one `trace --calls` run per golden file (4,050 calls, about
# 4 s of CPU; one process per call, about 22 ms each, would take 90 s, several minutes under ASan).
# Needs no torch: the goldens are in the repository.
add_test(NAME trace_goldens_real_calls
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_verdicts.py $<TARGET_FILE:dispatchctl>)
set_tests_properties(trace_goldens_real_calls PROPERTIES TIMEOUT 300)

# The same checks on the composite sets (record_real_calls.py composite, from 1.13.1;
# composite-wide, from 2.14.1 in a sid chroot): operators whose rows hold hand-written
# composites, on every tensor kind. check_verdicts.py ratchets exactly how many
# composite-caused raises (a missing kernel of an operator the kernel called) trace
# predicts with PyTorch's first line (COMPOSITE_PREDICTED).
add_test(NAME trace_goldens_real_calls_composite_1_13_1
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_verdicts.py $<TARGET_FILE:dispatchctl>
                 ${PROJECT_SOURCE_DIR}/tests/composite_calls/real_calls_composite_1.13.1.json.gz)
set_tests_properties(trace_goldens_real_calls_composite_1_13_1 PROPERTIES TIMEOUT 300)
add_test(NAME trace_goldens_real_calls_composite_2_14_1
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_verdicts.py $<TARGET_FILE:dispatchctl>
                 ${PROJECT_SOURCE_DIR}/tests/composite_calls/real_calls_composite_2.14.1.json.gz)
set_tests_properties(trace_goldens_real_calls_composite_2_14_1 PROPERTIES TIMEOUT 300)
# The composite-wide set recorded from 2.6.0 (trixie's CPU-only build) against
# builtin:2.6.0+cuda, whose kinds sections come from the same build (2,106 calls, one
# trace --calls run: about 3 s wall, 1.2 s of CPU on a loaded machine).
add_test(NAME trace_goldens_real_calls_composite_2_6_0_cuda
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_verdicts.py $<TARGET_FILE:dispatchctl>
                 ${CMAKE_CURRENT_LIST_DIR}/real_calls_composite_2.6.0+cuda.json.gz)
set_tests_properties(trace_goldens_real_calls_composite_2_6_0_cuda PROPERTIES TIMEOUT 300)
