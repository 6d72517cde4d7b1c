# trace never overclaims (issue 22): real 1.13.1 calls recorded by
# record_real_calls.py (Debian's torch, not dispatchctl) against `trace`'s
# verdicts, through one `trace --calls` run per golden file (4,050 calls, about
# 4 s of CPU; one process per call, about 22 ms each, would take 90 s, several minutes under ASan).
# Needs no torch: the goldens are in the repository.
add_test(NAME trace_goldens_real_calls
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_verdicts.py $<TARGET_FILE:dispatchctl>)
set_tests_properties(trace_goldens_real_calls PROPERTIES TIMEOUT 300)
