# `then: "redispatch"` is the manifest contract (issue 22): chains real PyTorch
# 2.14.1 ran with logging kernels (record_chains.py, in a sid chroot) against
# trace's. Needs no torch: the goldens are in the repository.
add_test(NAME redispatch_chains_real_2_14_1
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check_chains.py $<TARGET_FILE:dispatchctl>
                 ${CMAKE_CURRENT_BINARY_DIR}/redispatch_chains)
set_tests_properties(redispatch_chains_real_2_14_1 PROPERTIES TIMEOUT 120)
