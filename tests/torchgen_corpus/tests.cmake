# torchgen parity (issue 21): dispatchctl's verdict on realistic YAML edits
# against what PyTorch 2.14.1's real torchgen did with them
# (real-2.14.1.json, recorded by tools/torchgen-judge.py). Needs no torch.
# One ctest test per corpus: check_verdicts.py with the corpus' arguments.
# ~1 s of CPU per edit. Every edit in the release build unless EVERY N says
# a sample (CI's time is short); under ASan+UBSan (~5x slower) every 12th
# edit, or SANITIZED_EVERY N (the sanitizers look for memory errors in
# check's code paths, which a sample reaches). The whole of any corpus is
# `check_verdicts.py --corpus NAME DISPATCHCTL`.
function(torchgen_corpus_test name)
  cmake_parse_arguments(CORPUS "" "EVERY;SANITIZED_EVERY" "" ${ARGN})
  set(every ${CORPUS_EVERY})
  if(DISPATCHCTL_SANITIZE)
    set(every 12)
    if(CORPUS_SANITIZED_EVERY)
      set(every ${CORPUS_SANITIZED_EVERY})
    endif()
  endif()
  set(sample)
  if(every)
    set(sample --every ${every})
  endif()
  add_test(NAME ${name}
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/check_verdicts.py ${CORPUS_UNPARSED_ARGUMENTS}
                   ${sample} $<TARGET_FILE:dispatchctl>)
  set_tests_properties(${name} PROPERTIES TIMEOUT 600)
endfunction()
torchgen_corpus_test(torchgen_corpus_real_verdicts)
# The second corpus: other operators, edits written as a contributor would,
# not from dispatchctl's refusal table (edits-second.json, real-second-2.14.1.json).
torchgen_corpus_test(torchgen_corpus_second_real_verdicts --corpus second)
# The third corpus: edits aimed at the refusals found reading torchgen 2.14.1's
# source assert by assert, each beside accepted look-alikes (edits-third.json).
# Every 5th edit (about 5 s; the whole corpus: about 30 s of CPU).
torchgen_corpus_test(torchgen_corpus_third_real_verdicts --corpus third EVERY 5 SANITIZED_EVERY 30)
# The fourth corpus: functionalization, view groups and view replay, a mutable
# operator's formula reused by its generated functional, cpp_no_default_args
# (edits-fourth.json), each beside an accepted look-alike. Every edit (~30 s of CPU).
torchgen_corpus_test(torchgen_corpus_fourth_real_verdicts --corpus fourth)
# The fifth corpus: tools/autograd's and the Python bindings' refusals found
# reading them assert by assert again (formula names, view functions' returns,
# _foreach_ Tensor overloads, Python signatures, argument types and names),
# each beside an accepted look-alike (edits-fifth.json). Every edit.
torchgen_corpus_test(torchgen_corpus_fifth_real_verdicts --corpus fifth)
# The sixth corpus: written blind as a stream of PRs (new operators and their
# variants, ufuncs, defaults, flags, tags, removals, typos), then model.py's and
# gen.py's remaining asserts (edits-sixth.json). Every edit (~80 s of CPU).
torchgen_corpus_test(torchgen_corpus_sixth_real_verdicts --corpus sixth)
# Every fix `check --base` suggests for the corpora's accepted edits, applied,
# passes the gate (suggested_fixes.py: every fix) and the real torchgen 2.14.1
# (the `fixes` corpus: edits-fixes.json, real-fixes-2.14.1.json judged in sid;
# every 3rd of its 103 fixed YAMLs, ~35 s of CPU: the gate re-checks them all).
if(NOT DISPATCHCTL_SANITIZE)
  add_test(NAME torchgen_corpus_suggested_fixes
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/suggested_fixes.py $<TARGET_FILE:dispatchctl>)
  set_tests_properties(torchgen_corpus_suggested_fixes PROPERTIES TIMEOUT 1200)
  torchgen_corpus_test(torchgen_corpus_fixes_real_verdicts --corpus fixes EVERY 3)
endif()
# One cause, one finding (issue 31): 22 corpus edits whose one cause gave several
# findings (one_cause.py): ~11 s of CPU in the release build; under ASan+UBSan
# every 8th case (3).
set(one_cause_sample)
if(DISPATCHCTL_SANITIZE)
  set(one_cause_sample --every 8)
endif()
add_test(NAME torchgen_corpus_one_cause
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/one_cause.py ${one_cause_sample} $<TARGET_FILE:dispatchctl>)
set_tests_properties(torchgen_corpus_one_cause PROPERTIES TIMEOUT 300)
# The seventh corpus: tools/autograd/deprecated.yaml (load_deprecated_signatures,
# group_overloads) and native_functions.yaml edits that break it, wrap_opt_if and
# a forward formula for a Tensor? output, a TorchBind class argument, each beside
# an accepted look-alike (edits-seventh.json). Every 6th edit in the release
# build (~6 s of CPU), one edit under the sanitizers.
torchgen_corpus_test(torchgen_corpus_seventh_real_verdicts --corpus seventh EVERY 6 SANITIZED_EVERY 100)
# The eighth corpus: written blind again as a stream of PRs (ufunc operators,
# structured with precomputed, overloads and formulas, tags, removals, views,
# SymInt, modules, returns, device keys; edits-eighth.json). Every 12th edit
# (4 edits, ~4 s of CPU; the whole corpus ~50 s), one under the sanitizers.
torchgen_corpus_test(torchgen_corpus_eighth_real_verdicts --corpus eighth EVERY 12 SANITIZED_EVERY 48)
# The ninth corpus: written blind a third time as a stream of PRs (backend
# dispatch keys, kernel namespaces, autogen, entry flags, tags and tags.yaml,
# argument types and names, foreach and views, the full torchgen.gen's asserts;
# YAML shapes; edits-ninth.json). Every 9th edit (10 edits, ~10 s of CPU; the
# whole corpus ~85 s), one under the sanitizers.
torchgen_corpus_test(torchgen_corpus_ninth_real_verdicts --corpus ninth EVERY 9 SANITIZED_EVERY 86)

# The tenth corpus: written blind as a stream of PRs on derivatives.yaml (new
# formulas, output_differentiability, forward formulas, dispatch sections,
# in-place / out= / view / _foreach_ formulas, saved variable types, schema
# text; edits-tenth.json). Every 10th edit (7 edits, ~7 s of CPU; the whole
# corpus ~60 s), one under the sanitizers.
torchgen_corpus_test(torchgen_corpus_tenth_real_verdicts --corpus tenth EVERY 10 SANITIZED_EVERY 63)

# The eleventh corpus: written blind as whole PRs across native_functions.yaml,
# derivatives.yaml, tags.yaml and deprecated.yaml at once (operator families end
# to end and the piece forgotten, renames and removals, kernels moved with their
# formulas, SymInt migrations, a view with its _copy, _foreach_ families, a fork's
# drifted main; edits-eleventh.json). Every 7th edit (10 edits, ~10 s of CPU; the
# whole corpus ~65 s), one under the sanitizers.
torchgen_corpus_test(torchgen_corpus_eleventh_real_verdicts --corpus eleventh EVERY 7 SANITIZED_EVERY 67)
# The thirteenth corpus: written blind on derivatives.yaml, deeper into
# tools/autograd's asserts (saved variables of many types, result / result0 /
# named returns, grads, retain_variables, wrap_opt_if, grad_input_mask, forward
# formulas, auto_element_wise / auto_linear, output_differentiability; ids e13-;
# edits-thirteenth.json). Every 7th edit (10 edits, ~10 s of CPU; the whole
# corpus ~70 s), one under the sanitizers.
torchgen_corpus_test(torchgen_corpus_thirteenth_real_verdicts --corpus thirteenth EVERY 7 SANITIZED_EVERY 70)
# The twelfth corpus: written blind as a stream of PRs on the schema grammar
# (aliasing annotations, keyword-only `*`, fixed-size and optional list types,
# defaults, returns, overload and operator names, variants, entry flags;
# edits-twelfth.json). Every 6th edit (10 edits, ~10 s of CPU; the whole
# corpus ~57 s), one under the sanitizers.
torchgen_corpus_test(torchgen_corpus_twelfth_real_verdicts --corpus twelfth EVERY 6 SANITIZED_EVERY 57)
# The fourteenth corpus: written blind on accepted edits and what they cost
# (kernels dropped from or moved between dispatch keys, composite moves,
# structured_delegate, out= / in-place / autogen removals, formulas made
# not_implemented or deleted, forward formulas, output_differentiability,
# removals and renames, tags, entry flags, deprecated.yaml, harmless edits;
# ids e14-; edits-fourteenth.json). Every 9th edit (10 edits, ~10 s of CPU; the
# whole corpus ~85 s), one under the sanitizers.
torchgen_corpus_test(torchgen_corpus_fourteenth_real_verdicts --corpus fourteenth EVERY 9 SANITIZED_EVERY 85)

# The fifteenth corpus: written blind on the YAML documents themselves and every
# entry key's type and spelling across the four files (tabs, indentation, unquoted
# colons, nested entries, flow / block lists, quoting, duplicate keys, comments,
# CRLF, a BOM, `---`, files left with comments only; variants / structured /
# device_check / dispatch / autogen / precomputed / ufunc_inner_loop values and
# typos; derivatives.yaml, tags.yaml and deprecated.yaml entry keys; ids e15-;
# edits-fifteenth.json). Every 7th edit (10 edits, ~10 s of CPU; the whole
# corpus ~66 s), one under the sanitizers.
torchgen_corpus_test(torchgen_corpus_fifteenth_real_verdicts --corpus fifteenth EVERY 7 SANITIZED_EVERY 66)
