# The HTML pages of `report` and `diff --format html` in a real browser:
# Debian's chromium, headless, driven over the DevTools protocol
# (check_page.py). Screenshots are kept in build/tests/report/ to look at.
set(BROWSER_RUN ${CMAKE_CURRENT_LIST_DIR}/run.sh)
set(BROWSER_OUT ${PROJECT_BINARY_DIR}/tests/report)
set(BROWSER_DATA ${CMAKE_CURRENT_SOURCE_DIR}/data)

function(browser_test name)
  add_test(NAME browser_${name} COMMAND ${BROWSER_RUN} ${BROWSER_OUT}/${name}.html $<TARGET_FILE:dispatchctl> ${ARGN})
  set_tests_properties(browser_${name} PROPERTIES TIMEOUT 600 RESOURCE_LOCK chromium)
endfunction()

# The page of the issue: Meta and CPU over the whole built-in 2.14.1 registry.
browser_test(report_meta_cpu report --key Meta --key CPU --
             --screenshot ${BROWSER_OUT}/coverage.png --golden ${BROWSER_DATA}/torch-2.14.1/computed_tables.txt.gz
             --state ${PROJECT_SOURCE_DIR}/lib/builtin/data/torch-2.14.1/registry_state.txt.gz
             --expect-rows 3640 --expect-keys Meta,CPU --filter "aten::add*" --click aten::add.Tensor,CPU)
# Every default key of 2.14.1 (3,640 x ~20): every cell against PyTorch, timings.
browser_test(report_full_2.14.1 report --
             --screenshot ${BROWSER_OUT}/coverage_full_2.14.1.png --golden ${BROWSER_DATA}/torch-2.14.1/computed_tables.txt.gz
             --state ${PROJECT_SOURCE_DIR}/lib/builtin/data/torch-2.14.1/registry_state.txt.gz
             --expect-rows 3640 --filter conv --click aten::linear,AutogradMeta)
browser_test(report_full_1.13.1 report -m builtin:1.13.1 --
             --screenshot ${BROWSER_OUT}/coverage_full_1.13.1.png --golden ${BROWSER_DATA}/torch-1.13.1/computed_tables.txt.gz
             --state ${PROJECT_SOURCE_DIR}/lib/builtin/data/torch-1.13.1/registry_state.txt.gz
             --filter "*_foreach_*" --click aten::add.Tensor,Meta)
# A registration change: Python Meta kernels layered over 2.14.1.
browser_test(diff_python_meta diff --old builtin:2.14.1 --new builtin:2.14.1 --new ${PROJECT_SOURCE_DIR}/examples/python_meta_override.json
             --format html --
             --screenshot ${BROWSER_OUT}/diff_python_meta.png --expect-rows 2 --filter conj --expect-visible 1
             --click aten::_conj_physical,Meta --expect-line "Meta: registered at /src/mylib/mylib/meta.py:31 [kernel]")

# report's bad-input cases (one line, exit 2, no file) are in tests/cli/cases/report.toml.
# A backend's change (issue 22 item 5), each layered over builtin:2.14.1:
# operators added and removed are listed. Marked "kernel changed, same outcome"
# (the colour cannot show it): aten::mm's PrivateUse1 kernel moved to another
# file (C++ kernel before and after), and aten::linear's AutogradPrivateUse1 row,
# once the backend has a PrivateUse1 kernel, goes from the math kernel to
# PyTorch's generated autograd kernel (VariableType_5.cpp: both the composite
# outcome, as check_page.py's outcome_from_pytorch reads PyTorch's tags).
# aten::linear's PrivateUse1 row goes from the math kernel to the backend's
# kernel: the colour changes, no mark.
browser_test(diff_backend_change diff --old ${CMAKE_CURRENT_LIST_DIR}/fixtures/npu_v1.json
             --new ${CMAKE_CURRENT_LIST_DIR}/fixtures/npu_v2.json --format html --
             --screenshot ${BROWSER_OUT}/diff_backend_change.png --expect-rows 2
             --expect-added npu::fused_gelu --expect-removed npu::old_gelu
             --expect-kernel-changed aten::mm,PrivateUse1
             --click aten::linear,PrivateUse1
             --expect-line "PrivateUse1: registered at /src/npu_backend/csrc/ops/linear.cpp:20 [kernel]")
# Generated composites followed on a diff page (issue 22 item 2), layered over
# builtin:2.14.1: the backend moves its kernel from addmm to addmm.out and from
# mul.out to mul.Tensor, and drops sub.Tensor. addmm (structured, delegate addmm.out) then runs
# torchgen's generated CompositeExplicitAutogradNonFunctional kernel, which calls
# addmm.out, now the backend's: a working composite, labelled by what it needs;
# before, mul.Tensor's generated composite needed mul.out, the backend's then;
# sub.Tensor's generated composite needs sub.out, which no PrivateUse1 kernel
# implements: it fails (PyTorch: Could not run 'aten::sub.out' … 'PrivateUse1').
# Both cells are coloured by the one outcome model, as the coverage page's.
browser_test(diff_generated_composite diff --old ${CMAKE_CURRENT_LIST_DIR}/fixtures/npu_structured_v1.json
             --new ${CMAKE_CURRENT_LIST_DIR}/fixtures/npu_structured_v2.json --format html --
             --screenshot ${BROWSER_OUT}/diff_generated_composite.png --expect-rows 5
             --expect-cell aten::addmm,PrivateUse1,direct,composite
             --expect-panel "aten::addmm,PrivateUse1,needs aten::addmm.out (direct)"
             --expect-cell aten::mul.Tensor,PrivateUse1,composite,direct
             --expect-panel "aten::mul.Tensor,PrivateUse1,needs aten::mul.out (direct)"
             --expect-cell aten::sub.Tensor,PrivateUse1,direct,composite_fails
             --expect-panel "aten::sub.Tensor,PrivateUse1,needs aten::sub.out (missing)"
             --expect-cell aten::addmm.out,PrivateUse1,missing,direct
             --expect-cell aten::mul.out,PrivateUse1,direct,missing
             --click aten::addmm,PrivateUse1
             --expect-line "PrivateUse1: registered at /src/npu_backend/csrc/ops/addmm.cpp:10 [kernel]")

# Issue 33: report's SVG badge for a backend's core-opset coverage, in chromium,
# alone and as an <img>. The counts are query's (tests/cli/cases/backend.toml):
# 64 of the 193 core operators work at PrivateUse1 for this backend.
add_test(NAME browser_report_badge
         COMMAND /bin/sh -c "\"$1\" report -m \"$2\" --key PrivateUse1 --opset core --format svg -o \"$3\" && /usr/bin/python3 \"$4\" --badge \"$3\" --expect-label 'PrivateUse1 core' --expect-value '10/193 (5%)' --screenshot \"$5\""
                 sh $<TARGET_FILE:dispatchctl> ${CMAKE_CURRENT_LIST_DIR}/fixtures/npu_structured_v2.json
                 ${BROWSER_OUT}/badge.svg ${CMAKE_CURRENT_LIST_DIR}/check_badge.py ${BROWSER_OUT}/badge.png)
set_tests_properties(browser_report_badge PROPERTIES TIMEOUT 120 RESOURCE_LOCK chromium)

# Issue 30: "what to implement" at the page's backend key, drawn above the matrix and
# checked against the analysis's data in the page: a real PrivateUse1 backend
# (tests/composite_calls/backend_0.json.gz, recorded on live 2.14.1) over builtin:2.14.1,
# the core opset; add.out (outside the set) unblocks three core operators forward,
# zero_ 20 backward (21 before the backward nodes were re-recorded as the engine calls them,
# docs/composite-calls.md, on more samples: calls some of them do not make are no need).
browser_test(report_implement report -m builtin:2.14.1 -m ${PROJECT_SOURCE_DIR}/tests/composite_calls/backend_0.json.gz
             --key PrivateUse1 --key AutogradPrivateUse1 --opset core --
             --screenshot ${BROWSER_OUT}/report_implement.png --expect-rows 193 --expect-keys PrivateUse1,AutogradPrivateUse1
             --expect-implement PrivateUse1,forward,aten::add.out,3 --expect-implement PrivateUse1,backward,aten::zero_,20)
