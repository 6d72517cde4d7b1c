# explain, has-kernel and query through the real binary: exit codes, the
# first line people read, and the wording of errors (stderr).
# (A regex must not contain ";": CMake would split it; match it with ".".)
set(EXPLAIN_CHECK ${CMAKE_CURRENT_LIST_DIR}/check.sh)
set(EXPLAIN_SMALL ${CMAKE_CURRENT_LIST_DIR}/small.json)

function(explain_cli_test name code regex)
  add_test(NAME cli_explain_${name} COMMAND ${EXPLAIN_CHECK} ${code} "${regex}" $<TARGET_FILE:dispatchctl> ${ARGN})
endfunction()

# explain OP --key K (the issue's three "new user" commands first)
explain_cli_test(add_autogradcpu 0 "^aten::add.Tensor at AutogradCPU: autograd kernel$"
                 explain aten::add.Tensor --key AutogradCPU)
explain_cli_test(linear_meta 0 "^aten::linear at Meta: math kernel$" explain aten::linear --key Meta)
explain_cli_test(key_meta 0 "backend fallback \\(raises when called\\)" explain --key Meta)
explain_cli_test(blocked 0 "6\\. CompositeImplicitAutograd: blocked" explain test::foo --key AutogradCPU -m ${EXPLAIN_SMALL})
explain_cli_test(ambiguous 0 "^test::bar at AutogradOther: ambiguous autogradother \\(a call raises\\)$"
                 explain test::bar --key AutogradOther -m ${EXPLAIN_SMALL})
explain_cli_test(missing 0 "^  Could not run 'test::baz' with arguments from the 'Meta' backend"
                 explain test::baz --key Meta -m ${EXPLAIN_SMALL})
explain_cli_test(missing_fix 0 "^  - a kernel at CompositeExplicitAutograd -> default backend kernel"
                 explain test::baz --key Meta -m ${EXPLAIN_SMALL})
explain_cli_test(alias 0 "^test::foo at CompositeImplicitAutograd \\(alias\\): 103 runtime keys$"
                 explain test::foo --key CompositeImplicitAutograd -m ${EXPLAIN_SMALL})
explain_cli_test(json 0 "\"explanations\"" explain test::foo --key Meta --format json -m ${EXPLAIN_SMALL})
explain_cli_test(list 0 "^  test::baz$" explain --key AutogradCPU --list fallback -m ${EXPLAIN_SMALL})
explain_cli_test(bad_key 2 "^dispatchctl: error: --key: 'Meat' is not a dispatch key of PyTorch 2.14. did you mean 'Meta'\\?$"
                 explain aten::add.Tensor --key Meat)
explain_cli_test(unknown_op 2 "^dispatchctl: error: unknown operator 'aten::addd.Tensor'.*did you mean"
                 explain aten::addd.Tensor --key CPU)
explain_cli_test(bad_group 2 "--list: 'mising' is not an outcome group of Meta. did you mean 'missing'\\?"
                 explain --key Meta --list mising)
explain_cli_test(op_and_list 2 "drop OP, or drop them" explain aten::add.Tensor --key CPU --list missing)
explain_cli_test(block_key_report 2 "building block, not a table row. name one of its runtime keys, e.g. 'CPU'"
                 explain --key Dense)

# has-kernel: exit 0 yes, 1 no, 2 error
explain_cli_test(has_yes 0 "^yes: aten::add.Tensor has a kernel registered at CPU$" has-kernel aten::add.Tensor --key CPU)
explain_cli_test(has_no 1 "^no: " has-kernel aten::add.Tensor --key CUDA)
explain_cli_test(has_computed_yes 0 "^yes: the CUDA row" has-kernel aten::add.Tensor --key CUDA --computed)
explain_cli_test(has_computed_dense 0 "Dense answers for its CPU instance" has-kernel aten::add.Tensor --key Dense --computed)
explain_cli_test(has_computed_missing 1 "^no: the Meta row of test::baz is missing$"
                 has-kernel test::baz --key Meta --computed -m ${EXPLAIN_SMALL})
explain_cli_test(has_computed_alias 2 "^dispatchctl: error: Alias keys do not have runtime kernel registrations.$"
                 has-kernel aten::add.Tensor --key CompositeImplicitAutograd --computed)
explain_cli_test(has_many 2 "names [0-9]+ operators. has-kernel answers for one" has-kernel aten::add --key CPU)

# query
explain_cli_test(query_meta_registered 0 "^1623$" query --key Meta --registered --count)
explain_cli_test(query_meta_registered_113 0 "^1015$" query --key Meta --registered --count -m builtin:1.13.1)
explain_cli_test(query_meta_computed_113 0 "^2767$" query --key Meta --computed --count -m builtin:1.13.1)
explain_cli_test(query_none 1 "^0$" query --key Meta --tag missing --count)
explain_cli_test(query_and 0 "^test::bar$" query --registered-at CompositeImplicitAutograd --registered-at SparseCPU
                 -m ${EXPLAIN_SMALL})
explain_cli_test(query_without 0 "^test::baz$" query --key CPU --registered --without CompositeImplicitAutograd
                 -m ${EXPLAIN_SMALL})
explain_cli_test(query_no_key 2 "add --key K" query --registered)
explain_cli_test(query_key_only 2 "needs a question" query --key Meta)
explain_cli_test(query_bad_tag 2 "did you mean 'missing'" query --key Meta --tag mising)
explain_cli_test(query_alias_row 2 "Alias keys do not have runtime kernel registrations" query --key Autograd --computed)

# Python kernels (issue 11 item 7): aten::nonzero's Meta kernel on 2.14.1 is
# torch/_meta_registrations.py (the real registry); it raises for this data-dependent op.
explain_cli_test(has_works_python_unknown 1
                 "^unknown: the Meta row of aten::nonzero is a python kernel \\(_meta_registrations.py:53\\)"
                 has-kernel aten::nonzero --key Meta --works)
explain_cli_test(has_works_json 1 "\"answer\": \"unknown\"" has-kernel aten::nonzero --key Meta --works --json)
explain_cli_test(has_format_json 0 "\"language\": \"python\"" has-kernel aten::nonzero --key Meta --format json)
explain_cli_test(has_works_cpp 0 "^yes: the CPU row of aten::add.Tensor runs a C\\+\\+ kernel that returns$"
                 has-kernel aten::add.Tensor --key CPU --works)
explain_cli_test(has_works_missing_113 1 "^no: the Meta row of aten::nonzero is missing"
                 has-kernel aten::nonzero --key Meta --works -m builtin:1.13.1)
explain_cli_test(query_works_python_left_out 1 "^note: 1 operator whose Meta row is a python kernel not listed"
                 query --key Meta --works --op aten::nonzero)
explain_cli_test(query_unknown 0 "^aten::nonzero$" query --key Meta --unknown --op aten::nonzero)
explain_cli_test(query_works_exclusive 2 "exclude each other" query --key Meta --works --unknown)
explain_cli_test(show_python_kernel 0 "Meta  <- _meta_registrations.py:53 \\(python kernel\\)$" show aten::nonzero)
explain_cli_test(explain_python_kernel 0 "^  - python kernel: registered from Python" explain aten::nonzero --key Meta)

# CPU-only builds (issue 11 item 2)
explain_cli_test(registries_cpu_only 0 "^  CPU-only build \\(kernels for CPU Meta only\\): CUDA rows are what a CPU-only$"
                 registries)
explain_cli_test(registries_cpu_only_json 0 "\"cpu_only\": true" registries --json)
explain_cli_test(has_cuda_cpu_only 1 "^no: aten::add.Tensor has no kernel registered at exactly CUDA .*note: CPU-only build"
                 has-kernel aten::add.Tensor --key CUDA)
explain_cli_test(has_cuda_computed_cpu_only 0 "^yes: the CUDA row .*CPU-only build \\(no kernels for CUDA\\)"
                 has-kernel aten::add.Tensor --key CUDA --computed)
explain_cli_test(show_cpu_only_note 0 "^note: CPU-only build \\(no kernels for CUDA" show aten::add.Tensor)
