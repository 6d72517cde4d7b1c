// The second half of torchgen's refusal table (refusal_kinds.cpp): what
// tools/autograd (load_derivatives, gen_variable_type, the view replay, the
// Python bindings' generator, deprecated.yaml) refuses, in the README
// table's order.
#include "torchgen/refusals.h"
#include "torchgen/refusals_detail.h"

namespace dispatchctl::torchgen {

std::vector<RefusalKind> autograd_refusal_kinds() {
  return {
      // derivatives.yaml: tools/autograd's loading and differentiability matching.
      {"view-functionalization", RefusalStage::WritingCode, "gen_functionalization_type.py (torchgen.gen)",
       "a view operator (not CompositeImplicitAutograd) whose first argument is no aliased Tensor, with another "
       "aliasing input, an argument type its functionalization cannot keep (`Scalar`, `SymInt?[]`) or several returns",
       "let only the first argument alias the output (`Tensor(a) self`), take the other arguments as int, SymInt, "
       "bool, their lists or optionals (not `Scalar`, `SymInt?[]`), and return one Tensor(a) or one Tensor(a)[]; or "
       "make the view CompositeImplicitAutograd"},
      {"functional-required", RefusalStage::Groups, "model.py NativeFunctionsGroup.from_dict (torchgen.gen)",
       "in-place, mutable or out= variants of one signature without a functional variant, where torchgen generates "
       "none (all CompositeImplicitAutograd, manual bindings)",
       "declare the functional variant beside them"},
      {"symint-kernel", RefusalStage::WritingCode, "api/types/signatures.py kernel_signature (torchgen.gen)",
       "a dispatch entry's kernel named *_symint for an operator without a SymInt argument",
       "drop `_symint` from the kernel name, or take the sizes as SymInt"},
      {"mutable-formula-reused", RefusalStage::Autograd, "torchgen/api/autograd.py match_differentiability_info (gen_autograd)",
       "a derivatives.yaml formula for an in-place or mutable operator, reading self, that its generated functional "
       "variant (autogen:) would take",
       "write the formulas for the functional variant instead: the in-place variant takes them too"},
      {"view-copy-kernel", RefusalStage::WritingCode, "gen_functionalization_type.py GenCompositeViewCopyKernel (torchgen.gen)",
       "a view's NAME_copy operator without a CompositeExplicitAutogradNonFunctional kernel",
       "give the _copy operator its kernel at `CompositeExplicitAutogradNonFunctional:` (as every view_copy operator "
       "has), not CompositeExplicitAutograd"},
      {"view-outputs", RefusalStage::Autograd, "tools/autograd/gen_inplace_or_view_type.py emit_view_body (gen_autograd)",
       "an operator named like one of VIEW_FUNCTIONS (select, tensor_split, …) with several differentiable outputs, "
       "or one that is neither a Tensor nor a Tensor[]",
       "return the outputs as one Tensor[] (as split and chunk do), mark all but one not differentiable "
       "(output_differentiability), or give the operator a name of its own"},
      {"view-argument-type", RefusalStage::Autograd, "tools/autograd/gen_inplace_or_view_type.py emit_view_func (gen_autograd)",
       "an operator named like one of VIEW_FUNCTIONS (select, narrow, …) with a differentiable output and an argument "
       "its view replay cannot keep (not int, int?, SymInt, SymInt?, bool, int[], SymInt[], Tensor, Tensor?)",
       "take the argument as one of those types, or make the overload CompositeImplicitAutograd (no dispatch "
       "table: it decomposes into the existing view)"},
      // Ranked with torchgen.gen's reading, not gen_autograd's (a stage it only
      // reaches later): a deleted or renamed operator is located at the formula
      // that needs its old schema (the eighth corpus' narrow_copy).
      {"derivative-no-function", RefusalStage::ReadingEntries, "tools/autograd/load_derivatives.py create_differentiability_info",
       "a derivatives.yaml entry whose schema matches no operator",
       "write the operator's schema exactly as native_functions.yaml declares it, or delete the entry"},
      {"derivative-dispatch-key", RefusalStage::Autograd, "tools/autograd/load_derivatives.py create_differentiability_info",
       "a derivatives.yaml `dispatch:` key other than Default or an Autograd key (AutogradNestedTensor, "
       "AutogradCUDA, …)",
       "key the formulas by Default or by the autograd key (AutogradNestedTensor for NestedTensorCPU, …)"},
      {"derivative-unknown-name", RefusalStage::Autograd, "tools/autograd/load_derivatives.py create_forward_derivative",
       "a derivatives.yaml formula keyed by a name that is neither an input nor an output of the operator",
       "key the formula by one of the operator's argument names (or result for a forward formula)"},
      {"derivative-non-differentiable-overlap", RefusalStage::Autograd, "tools/autograd/load_derivatives.py set_up_derivatives",
       "an input both `non_differentiable` and given a formula in one entry",
       "keep one of the two: the formula, or `non_differentiable`"},
      {"derivative-size-api", RefusalStage::Autograd, "tools/autograd/load_derivatives.py saved_variables",
       "a formula calling `.sizes()`, `.size(N)` or `.strides()` (not SymInt-aware)",
       "use `.sym_sizes()`, `.sym_size(N)` or `.sym_strides()`"},
      {"grads-out-of-bounds", RefusalStage::Autograd, "tools/autograd/load_derivatives.py create_derivative",
       "a formula using `grads[i]` with i not below the operator's number of outputs",
       "index grads only by the operator's outputs (`grad` for a single output)"},
      {"derivative-grad-grads", RefusalStage::Autograd, "tools/autograd/load_derivatives.py check_grad_usage",
       "a derivatives.yaml entry whose backward formulas mix `grad` and `grads` (or `grad_RETURN` with either), "
       "or use only `grads[0]`",
       "name the gradient one way: `grad` for a single differentiable output, `grads[i]` for several"},
      {"forward-formula-base-name", RefusalStage::Autograd, "tools/autograd/load_derivatives.py postprocess_forward_derivatives",
       "a forward formula (result: …) naming a differentiable input by its own name",
       "write INPUT_p for its value and INPUT_t for its tangent"},
      {"auto-forward-formula", RefusalStage::Autograd, "tools/autograd/load_derivatives.py postprocess_forward_derivatives",
       "`auto_element_wise` for an operator without exactly one differentiable input, output and backward "
       "formula (or in-place), `auto_linear` for one with several outputs",
       "write the forward formula out (result: … with INPUT_t and INPUT_p)"},
      {"forward-formula-no-tangent", RefusalStage::Autograd, "tools/autograd/gen_variable_type.py emit_body",
       "a forward formula (result: …) that reads no input's tangent (INPUT_t)",
       "write the forward formula with the tangents (`result: self_t * …`), or `result: auto_element_wise`"},
      {"reserved-argument-name", RefusalStage::Autograd, "tools/autograd/load_derivatives.py create_differentiability_info",
       "an operator with a derivatives.yaml formula and an argument named `result` or `grad_input_mask`",
       "rename the argument in native_functions.yaml and in the derivatives.yaml `- name:` line"},
      {"output-differentiability-conditions", RefusalStage::Autograd, "tools/autograd/load_derivatives.py create_differentiability_info",
       "`output_differentiability:` with conditions (strings) for more than one output",
       "give one condition for a single-output operator, or True/False per output"},
      {"output-differentiability-length", RefusalStage::Autograd, "torchgen/api/autograd.py gen_differentiable_outputs",
       "`output_differentiability:` with another number of entries than the operator has outputs",
       "give one True/False per output of the operator"},
      {"output-differentiability-inplace", RefusalStage::Autograd, "torchgen/api/autograd.py gen_differentiable_outputs",
       "`output_differentiability:` with a False in a formula an in-place operator takes",
       "give the in-place operator its own derivatives.yaml entry without output_differentiability, or make every "
       "output differentiable"},
      {"derivative-ignored", RefusalStage::Autograd, "tools/autograd/gen_variable_type.py emit_body",
       "a formula for an operator autograd never differentiates: no differentiable (Tensor) input or output, "
       "every output False in output_differentiability, or an operator listed in DONT_REQUIRE_DERIVATIVE "
       "(argmax, signbit, isnan, …)",
       "delete the formula, or write `INPUT: non_differentiable`"},
      {"derivative-non-tensor-input", RefusalStage::Autograd, "tools/autograd/gen_variable_type.py emit_body",
       "a formula keyed by an input that is not a differentiable Tensor (a float, int, bool argument)",
       "key formulas by Tensor inputs only; a non-Tensor argument needs none"},
      {"forward-formula-count", RefusalStage::Autograd, "tools/autograd/gen_variable_type.py emit_body",
       "forward formulas (result: …) for fewer or more outputs than the operator has differentiable ones",
       "give every differentiable output a forward formula (`a, b: …` for several), or none"},
      {"foreach-without-reference", RefusalStage::Autograd, "tools/autograd/gen_variable_type.py emit_body",
       "an in-place _foreach_ operator left without a differentiability info (e.g. the formula of the operator "
       "it derives its own from was deleted)",
       "keep (or restore) the reference operator's formula (an in-place _foreach_ operator's own entry is refused "
       "too: foreach-inplace-formula)"},
      {"reserved-operator-name", RefusalStage::ReadingEntries, "model.py BaseOperatorName.parse, FunctionSchema.__post_init__",
       "an operator name ending in _out, or an overload name containing `functional` on an operator that is not "
       "functional",
       "name an out= variant by its overload (`NAME.out`), and keep `functional` for functional overloads"},
      {"tensor-options-not-functional", RefusalStage::ReadingEntries, "model.py FunctionSchema.__post_init__",
       "TensorOptions arguments (dtype, layout, device, pin_memory) on an out=, in-place or mutable operator",
       "keep the TensorOptions on the functional factory; its out= variant takes only `Tensor(a!) out`"},
      {"return-type", RefusalStage::WritingCode, "api/cpp.py returntype_type (torchgen.gen)",
       "a return the C++ API cannot type: a fixed-size list (`int[2]`), a returned mutable tensor list, an "
       "optional that is not `Tensor?`",
       "return an unsized list (`int[]`), nothing (`-> ()`) for mutated tensor lists, or `Tensor?`"},
      {"python-return-type", RefusalStage::PythonBindings, "api/python.py dispatch_lambda_return_str (gen_autograd_python)",
       "a return the Python bindings do not support (int[], (Tensor, float), SymInt, …) on an operator they bind",
       "return a supported type (Tensor, a tuple of Tensors, Tensor[], int, float, bool, Scalar, …), or name the "
       "operator so the bindings skip it (a leading _ does not; *_backward, *_forward do)"},
      {"python-out-without-functional", RefusalStage::PythonBindings, "tools/autograd/gen_python_functions.py group_overloads (gen_autograd_python)",
       "an out= operator the Python bindings bind without a functional variant of the same arguments and defaults "
       "(what torchgen.gen lets through: a CompositeImplicitAutograd out= alone)",
       "declare the functional variant beside it"},
      {"derivative-strides-other", RefusalStage::Autograd, "tools/autograd/load_derivatives.py saved_variables",
       "a formula reading `X.sym_strides()` that is not the formula for X alone",
       "read the strides only in X's own formula (`X: …X.sym_strides()…`), or pass X's sizes instead"},
      {"strides-in-inplace-formula", RefusalStage::Autograd, "torchgen/api/autograd.py match_differentiability_info",
       "a `self` formula reading `self.sym_strides()` that an in-place operator takes (its own or its "
       "functional's)",
       "give the in-place operator its own derivatives.yaml entry without .sym_strides(), or avoid the strides"},
      {"forward-formula-inplace-self", RefusalStage::Autograd, "torchgen/api/autograd.py match_differentiability_info",
       "an in-place operator's own forward formula reading self_p, the value the operator overwrites",
       "write the forward formula with `result` (the updated self) instead of self_p"},
      {"derivative-functional-overload", RefusalStage::Autograd, "tools/autograd/load_derivatives.py canonical_function",
       "a derivatives.yaml entry for an operator whose overload name contains `functional`",
       "rename the overload (torchgen reserves `functional`), or give no formula for it"},
      {"formula-on-cia", RefusalStage::Autograd, "tools/autograd/gen_variable_type.py gen_variable_type_func",
       "a derivatives.yaml formula for an operator with only a CompositeImplicitAutograd kernel",
       "give the operator a dispatch table (backend keys or CompositeExplicitAutograd), or delete the formula"},
      // The fifth corpus (tests/torchgen_corpus/edits-fifth.json): refusals_autograd2.cpp.
      {"formula-input-named-as-return", RefusalStage::Autograd, "tools/autograd/load_derivatives.py set_up_derivatives",
       "a derivatives.yaml formula keyed by a name that is both an input and a named return of the operator",
       "rename the return in native_functions.yaml and derivatives.yaml (e.g. `NAME_out`), or leave that input "
       "without a formula"},
      {"inplace-view-without-tag", RefusalStage::Groups, "model.py NativeFunction.view_schema_kind (gen.py get_grouped_by_view_native_functions)",
       "an operator with an in-place name (NAME_) and a view schema (a return aliasing an input without `!`) but "
       "without the inplace_view tag",
       "tag it `tags: inplace_view` and declare the out-of-place view operator NAME beside it (as squeeze_ has "
       "squeeze), or give the operator a name without the trailing underscore"},
      {"view-function-returns", RefusalStage::Autograd, "tools/autograd/gen_view_funcs.py returns_multi_tensor (gen_autograd)",
       "an operator named like a view function (narrow, select, chunk, …) with a VariableType kernel that does not "
       "return exactly one value",
       "return one Tensor (or one Tensor[]), or give the operator a name of its own"},
      {"foreach-tensor-argument", RefusalStage::Autograd, "torchgen/api/autograd.py gen_foreach_derivativeinfo",
       "an out-of-place _foreach_ operator with a lone Tensor argument whose reference operator (the one of its "
       "name without _foreach_) has a forward formula",
       "give the _foreach_ operator its own derivatives.yaml entry, or take the argument as a Tensor[] (the .List "
       "overload)"},
      {"formula-saves-reference", RefusalStage::Autograd, "tools/autograd/gen_autograd_functions.py process_function (gen_autograd)",
       "a backward formula reading what its autograd Node cannot keep: a float[] (or other reference-typed list) "
       "argument, a Tensor[] output of an operator that is not _foreach_",
       "pass what the formula needs in a type the Node keeps (float[]? , int[], a Tensor), or read the output's "
       "elements through grads and the inputs"},
      {"python-duplicate-signature", RefusalStage::PythonBindings, "tools/autograd/gen_python_functions.py group_overloads (gen_autograd_python)",
       "two overloads of one name the Python bindings bind with the same arguments (types, names, defaults; the "
       "returns do not count)",
       "give the new overload arguments that tell it apart in Python (another name, or a keyword-only argument "
       "without a default), or delete one of them"},
      {"python-argument-requires-grad", RefusalStage::PythonBindings, "api/python.py signature_from_schema (gen_autograd_python)",
       "an argument named requires_grad in an operator the Python bindings bind (they add their own)",
       "rename the argument (e.g. `with_grad`)"},
      {"python-unnamed-return", RefusalStage::PythonBindings, "api/python.py structseq_fieldnames (gen_autograd_python)",
       "several returns, some named and some not, in an operator the Python bindings bind",
       "name every return (`-> (Tensor values, Tensor indices)`) or none"},
      {"python-argument-type", RefusalStage::PythonBindings, "api/python.py arg_parser_unpack_method (gen_autograd_python)",
       "an argument type PythonArgParser cannot read (bool[N], str[], Generator, QScheme, …) in an operator the "
       "Python bindings bind",
       "take a type the bindings read (int[], float[], Tensor[], Scalar[], str, …), or name the operator so the "
       "bindings skip it (*_backward, *_forward)"},
      {"bool-list-without-size", RefusalStage::WritingCode, "api/cpp.py valuetype_type (torchgen.gen writing the C++ API)",
       "a bool[] argument without a size (its C++ type is std::array<bool, N>)",
       "give the list its size (`bool[3] output_mask`, as the *_backward operators do)"},
      // tools/autograd/deprecated.yaml against the operators (refusals_deprecated.cpp).
      {"deprecated-call", RefusalStage::PythonBindings, "tools/autograd/gen_python_functions.py load_deprecated_signatures (gen_autograd_python)",
       "a deprecated.yaml `aten:` call that is not `NAME(a, b, …)` or passes a name the entry's `name:` schema does "
       "not declare (nor the constant 1)",
       "pass only arguments of the `name:` schema (or the constant 1), written `NAME(a, b)` with \", \" between them"},
      {"deprecated-no-match", RefusalStage::PythonBindings, "tools/autograd/gen_python_functions.py load_deprecated_signatures (gen_autograd_python)",
       "a deprecated.yaml entry no bound operator of its `aten:` name takes: none whose arguments, in the call's "
       "order, have the passed types and alias annotations (the others a default) and whose returns are the entry's "
       "(e.g. the operator was deleted, or its arguments or returns changed)",
       "keep the operator's arguments and returns as the deprecated call needs them, or change (or delete) the "
       "deprecated.yaml entry with it"},
      {"deprecated-overloads", RefusalStage::PythonBindings, "tools/autograd/gen_python_functions.py group_overloads (gen_autograd_python)",
       "a deprecated signature joined with two overloads of one name (a new overload the call fits too), two equal "
       "deprecated.yaml entries, or a deprecated out= signature without its non-out one",
       "give the new overload an argument without a default (or other types), delete the repeated entry, or add the "
       "non-out deprecated signature beside the out= one"},
      {"wrap-opt-if-syntax", RefusalStage::Autograd, "tools/autograd/gen_variable_type.py emit_save_inputs guard_for (gen_autograd)",
       "`wrap_opt_if(X` in a formula for several inputs not followed by `,` (`wrap_opt_if(X , cond)`), where X is a "
       "Tensor input only that formula reads",
       "write `wrap_opt_if(X, CONDITION)`: the comma right after the input's name"},
      {"forward-formula-output-type", RefusalStage::Autograd, "tools/autograd/gen_variable_type.py emit_fw_derivatives (gen_autograd)",
       "a forward formula (result: …) for outputs that are neither all Tensors nor one Tensor[] (a `Tensor?` "
       "return, a Tensor[] beside a Tensor)",
       "return a Tensor (or one Tensor[]) from the operator, or drop the forward formula for that output"},
      {"mutable-optional-tensor", RefusalStage::WritingCode, "api/translate.py translate (torchgen.gen writing RegisterKEY.cpp)",
       "a mutable optional Tensor argument (`Tensor(a!)? self`): torchgen cannot synthesize its C++ "
       "`::std::optional<at::Tensor> &` when it writes the kernel registrations",
       "take it as `Tensor(a!)` or a Tensor list `Tensor(a!)[]` (as the in-place _foreach_ operators do), or return a "
       "new optional Tensor instead of writing one"},
      // docs/torchgen-rules.md §9's last one left: api/autograd.py's `raise RuntimeError("")`.
      {"foreach-reference-saved-output", RefusalStage::Autograd, "torchgen/api/autograd.py gen_foreach_derivativeinfo (gen_autograd)",
       "an out-of-place _foreach_ operator without a derivatives.yaml entry whose reference operator's backward "
       "formula saves an output other than `result`: a named return, result0, `result.sym_sizes()`",
       "leave the reference's output unnamed and read it as `result` in its formula, or give the _foreach_ "
       "operator its own derivatives.yaml entry"},
      // The tenth corpus (tests/torchgen_corpus/edits-tenth.json).
      {"foreach-inplace-formula", RefusalStage::Autograd, "tools/autograd/gen_variable_type.py emit_body",
       "a derivatives.yaml entry of its own for an in-place _foreach_ operator (`Tensor(a!)[] self`): emit_body "
       "compares each list argument's element type with the entry's own list type",
       "delete the entry: the in-place _foreach_ operator takes its formula from its reference operator (NAME_ or "
       "NAME), so write the formula there"},
  };
}

}  // namespace dispatchctl::torchgen
