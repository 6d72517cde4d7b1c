// The one table of torchgen's refusals (refusals.h): every kind `check`
// reports as torchgen-refusal, whether torchgen's reading stops there
// (parse_yaml.cpp) or it is found on the parsed model (refusals*.cpp). The
// README's table lists the same kinds, in this order (a unit test compares).
#include "torchgen/refusals.h"

namespace dispatchctl::torchgen {

const std::vector<RefusalKind>& refusal_kinds() {
  static const std::vector<RefusalKind> kinds = {
      // Torchgen's reading stops at these (NativeFunction.from_yaml, gen.py's parsers, load_derivatives).
      {"illegal-tag", "model.py NativeFunction.from_yaml", "a tag that tags.yaml does not declare",
       "use a tag tags.yaml declares, or declare the new one there (`- tag: NAME` with a `desc:`)", true},
      {"unknown-dispatch-key", "model.py DispatchKey.parse",
       "a dispatch: (or derivatives.yaml dispatch:) key that is no DispatchKey",
       "use a DispatchKey name (CPU, CUDA, Meta, CompositeExplicitAutograd, …)", true},
      {"duplicate-operator", "gen.py parse_native_yaml_struct (BackendIndex.grow_index)",
       "a second entry with the same operator name and overload",
       "delete one of the two entries, or give the new one its own overload name", true},
      {"illegal-schema", "model.py FunctionSchema.parse", "a func: or name: schema torchgen cannot parse",
       "write the schema as `name.overload(Type arg, …) -> Type`, every argument with a type and a name", true},
      {"list-default", "api/cpp.py default_expr (torchgen.gen writing the C++ API)",
       "an unsized list argument whose default is not a list (`int[] dims=0`)",
       "write the default as a list (`int[] dims=[0]`), or give the list a size (`int[1] dims=0`)", true},
      {"unknown-field", "model.py NativeFunction.from_yaml (leftover entries)", "a field torchgen does not read",
       "delete the field or correct its name", true},
      {"ufunc-not-structured", "model.py NativeFunction.from_yaml",
       "ufunc_inner_loop on an entry without structured: True", "add `structured: True` or drop ufunc_inner_loop",
       true},
      {"ufunc-inner-loop", "model.py NativeFunction.from_yaml (UfuncKey.parse, UfuncInnerLoop.parse)",
       "a ufunc_inner_loop entry torchgen cannot read (an unknown key or dtype, no `(dtypes)`), or a CPU / CUDA "
       "dispatch entry beside it",
       "write `Generic: NAME (AllAndComplex, BFloat16, Half)` (keys Generic, ScalarOnly, CUDAFunctor…, CPUScalar, "
       "CPUVector; dtypes ScalarType names or All, AllAndComplex, Floating, …), and no CPU / CUDA kernel of your own",
       true},
      {"malformed-entry", "model.py NativeFunction.from_yaml, gen.py parse_tags_yaml, load_derivatives.py",
       "an entry of the wrong shape (not a map, no func:/name:/tag:, a list field with an empty item, a dispatch: "
       "that is not a map)",
       "write the entry as the files' other entries are (`- func: SCHEMA` and its fields)", true},
      {"tag-without-desc", "gen.py parse_tags_yaml_struct", "a tags.yaml tag without a non-empty `desc:`",
       "add `desc: WHAT THE TAG MEANS` under the tag", true},
      // Found on the parsed model: native_functions.yaml.
      {"field-value", "model.py NativeFunction.from_yaml",
       "a field value torchgen does not read (`device_guard: Maybe`, `structured: yes`, an unknown `device_check`, "
       "an illegal variant)",
       "write one of the values the field takes"},
      {"unsupported-dispatch-key", "model.py NativeFunction.from_yaml (dispatch_keys)",
       "a dispatch: key torchgen generates no kernel registration for (AutogradCPU, Vulkan, PrivateUse1, …)",
       "register that kernel by hand (TORCH_LIBRARY_IMPL), or use a key torchgen supports (CPU, CUDA, Meta, "
       "CompositeExplicitAutograd, …)"},
      {"composite-conflict", "model.py NativeFunction.from_yaml",
       "more than one of CompositeExplicitAutograd, CompositeExplicitAutogradNonFunctional, "
       "CompositeImplicitAutograd on one entry",
       "keep one composite key (CompositeExplicitAutograd for an explicit autograd formula, else "
       "CompositeImplicitAutograd)"},
      {"delegate-backend-key", "model.py NativeFunction.from_yaml (STRUCTURED_DISPATCH_KEYS)",
       "a backend entry (CPU, CUDA, …) on a structured_delegate operator",
       "delete that dispatch entry: the delegate's structured out= kernel serves this operator"},
      {"delegate-missing", "gen.py error_check_native_functions",
       "structured_delegate names an operator the YAML does not declare",
       "point structured_delegate at the operator's out= variant, or declare it"},
      {"delegate-not-structured", "gen.py error_check_native_functions",
       "structured_delegate names an out= operator without `structured: True`",
       "add `structured: True` to the delegate, or drop structured_delegate"},
      {"kernel-namespace", "gen.py get_native_function_declarations_from_ns_grouped_kernels, model.py NamespaceHelper",
       "an operator whose kernels are in different C++ namespaces (`CPU: custom::k` beside `CUDA: k_cuda`), or a "
       "kernel in more than 3 levels of namespace",
       "put all of the operator's kernels in one namespace (write the namespace on every dispatch entry, or on none)"},
      {"namespaced-reference", "model.py NativeFunction.from_yaml",
       "a namespace (`aten::`, `at::`) in structured_delegate: or structured_inherits:",
       "drop the namespace: torchgen uses the operator's own (`structured_delegate: sigmoid.out`, "
       "`structured_inherits: TensorIteratorBase`)"},
      {"precomputed-unstructured", "model.py NativeFunction.from_yaml", "`precomputed:` on an entry without "
       "`structured: True`", "put precomputed: on the structured out= variant, or drop it"},
      {"const-ref-out", "model.py NativeFunction.from_yaml",
       "`use_const_ref_for_mutable_tensors: True` on an out= operator (pytorch/pytorch#145522)",
       "drop use_const_ref_for_mutable_tensors from the out= variant"},
      {"manual-registration-dispatch", "model.py NativeFunction.from_yaml",
       "manual_kernel_registration together with a dispatch table",
       "drop the dispatch table or manual_kernel_registration"},
      {"factory-without-dispatch", "model.py NativeFunction.from_yaml",
       "a factory function (new_*, *_like, TensorOptions without a Tensor argument) without a dispatch table",
       "add `dispatch: CompositeExplicitAutograd: KERNEL`"},
      {"redundant-cia", "model.py NativeFunction.from_yaml",
       "a lone `CompositeImplicitAutograd:` entry naming the default kernel (\"unnecessary dispatch table\")",
       "delete the dispatch table: CompositeImplicitAutograd with that kernel is the default"},
      {"cia-kernel-name", "model.py NativeFunction.from_yaml",
       "a lone `CompositeImplicitAutograd:` entry with another kernel name than the operator's C++ name",
       "rename the kernel to the expected name and delete the dispatch table"},
      {"python-module-method", "model.py NativeFunction.from_yaml", "`python_module:` on an operator with the "
       "method variant", "write `variants: function`, or drop python_module"},
      {"inplace-self", "model.py FunctionSchema.__post_init__",
       "an in-place operator (name ending in _) whose self is not Tensor(a!) returned as Tensor(a!)",
       "write the schema as `NAME_(Tensor(a!) self, …) -> Tensor(a!)`"},
      {"out-return-mismatch", "model.py FunctionSchema.__post_init__",
       "an out argument whose alias annotation differs from the return at its position",
       "return the out arguments in their order, each with its annotation: `-> (Tensor(a!), Tensor(b!))`"},
      {"mutable-positional-returned", "model.py FunctionSchema.__post_init__",
       "a mutable positional argument after self that is returned",
       "return nothing for it (`-> ()`), or make it a keyword-only out argument (after `*`)"},
      {"out-return-count", "model.py FunctionSchema.__post_init__",
       "an out= operator returning another number of tensors than it has out arguments (scratch ones aside)",
       "return every out argument, in order: `-> (Tensor(a!) a, Tensor(b!) b)`"},
      {"out-list-returns", "model.py FunctionSchema.__post_init__",
       "an out= operator with a tensor-list out argument (`Tensor(a!)[] out`) that returns something",
       "return nothing: `-> ()`"},
      {"mixed-returns", "model.py FunctionSchema.__post_init__", "mutable and immutable returns in one schema",
       "return only the mutated tensors, or none of them"},
      {"mutable-return-alias", "model.py FunctionSchema.__post_init__",
       "a mutable return that aliases neither self nor a keyword-only out argument",
       "mark the out argument keyword-only (after `*`) or return self"},
      {"out-variants", "model.py NativeFunction.__post_init__", "an out= operator with the method variant",
       "write `variants: function` (or drop variants:)"},
      {"structured-not-out", "model.py NativeFunction.__post_init__",
       "`structured: True` on an operator that is not out=",
       "put `structured: True` on the out= variant and `structured_delegate:` here"},
      {"delegate-on-out", "model.py NativeFunction.__post_init__", "structured_delegate on an out= operator",
       "use `structured: True` on the out= variant instead"},
      {"structured-device-guard", "model.py NativeFunction.__post_init__",
       "`device_guard: False` on a structured or structured_delegate operator",
       "drop `device_guard: False` (structured kernels always take the device guard)"},
      {"structured-inherits-unstructured", "model.py NativeFunction.__post_init__",
       "`structured_inherits:` on an operator without `structured: True`",
       "add `structured: True` (on the out= variant), or drop structured_inherits"},
      {"cpp-no-default-args", "model.py NativeFunction.__post_init__",
       "`cpp_no_default_args:` naming an argument the operator does not have, or one without a default, or "
       "`options` on an operator with TensorOptions (api/cpp.py)",
       "list only arguments of the schema that have a default value (the TensorOptions are dtype, layout, device, "
       "pin_memory)"},
      {"foreach-device-check", "model.py NativeFunction.__post_init__",
       "a _foreach_ operator without `device_check: NoCheck`", "add `device_check: NoCheck`"},
      {"nondeterministic-seeded", "model.py NativeFunction.__post_init__",
       "a random operator (rand/dropout in the name, dropout in an argument's name, or a Generator argument) "
       "without the nondeterministic_seeded tag",
       "add `tags: nondeterministic_seeded`"},
      {"reserved-keyword-argument", "gen.py error_check_native_functions",
       "an argument named a Python keyword (`lambda`, `from`, `in`, …)",
       "rename the argument (PyTorch writes `lambd` for lambda)"},
      {"method-without-self", "gen.py ComputeTensorMethod (torchgen.gen)",
       "`variants: method` on an operator without a positional `self` argument",
       "write `variants: function`, or name the Tensor the method is called on `self`"},
      {"python-binding-options", "api/python.py dispatch_lambda_exprs (gen_autograd_python)",
       "a factory for the Python bindings (`category_override: factory`, a Tensor return without Tensor inputs, "
       "new_*/*_like) whose schema takes no TensorOptions",
       "drop category_override, or give the operator the TensorOptions arguments (`*, ScalarType? dtype=None, "
       "Layout? layout=None, Device? device=None, bool? pin_memory=None`)"},
      {"inplace-view-tag", "gen.py error_check_native_functions",
       "the inplace_view tag on an operator whose name has no trailing underscore, or without the out-of-place "
       "view operator of its name",
       "keep inplace_view for NAME_ operators and declare the view operator NAME beside it"},
      {"duplicate-signature", "native_function_generation.py pre_group_native_functions",
       "two operators of the same kind (functional, in-place, out=) with the same signature, differing only in "
       "overload name",
       "delete the new overload, or give it a signature of its own (another argument list)"},
      {"lone-out", "native_function_generation.py add_generated_native_functions",
       "an out= operator without a functional, in-place or mutable variant (unless CompositeImplicitAutograd, a manual "
       "binding or a view)",
       "declare the functional variant too"},
      {"no-out-variant", "native_function_generation.py add_generated_native_functions",
       "a new operator torchgen would give an out= variant that returns no tensor (`-> bool`, `-> int`, `-> ()`)",
       "return a Tensor, or make the operator CompositeImplicitAutograd (no dispatch table)"},
      {"ungrouped-mutable", "gen_functionalization_type.py gen_functionalization_definition (torchgen.gen)",
       "an in-place, out= or mutable operator outside every group of a functional and an out= variant (a new "
       "in-place operator alone, or one whose default differs from its functional's) and outside every view group, "
       "without a CompositeImplicitAutograd kernel or a place in MUTABLE_OPS_NOT_USING_FUNCTIONALIZATION",
       "add `autogen: NAME, NAME.out` (the variants torchgen then generates, named in the finding), or give it exactly "
       "the functional's arguments and defaults (in-place: `Tensor(a!) self`), so it groups"},
      {"structured-no-functional", "model.py NativeFunction.validate_unstructured",
       "`structured: True` on an out= operator without a functional variant",
       "declare the functional variant with `structured_delegate:` pointing here"},
      {"structured-composite", "model.py NativeFunctionsGroup.__post_init__",
       "a structured out= operator with a CompositeImplicitAutograd kernel",
       "give the structured out= operator backend kernels (CPU, CUDA, …), or make it unstructured"},
      {"group-structured-mix", "model.py NativeFunctionsGroup.__post_init__",
       "a group (functional, in-place, out=) whose out= is structured while a member has no structured_delegate "
       "(or the reverse)",
       "give every member of a structured group `structured_delegate: OUT` (or make none structured)"},
      {"group-delegate-mismatch", "model.py NativeFunctionsGroup.__post_init__",
       "a member of a structured group delegating to another operator than the group's out=",
       "point structured_delegate at the group's out= variant"},
      {"autogen-mismatch", "model.py NativeFunctionsGroup.__post_init__",
       "`autogen:` that does not list exactly the variants torchgen generates (e.g. an out= the YAML already "
       "declares)",
       "list in autogen: exactly the variants the YAML does not declare"},
      {"view-without-copy", "model.py NativeFunctionsViewGroup.__post_init__",
       "a new view operator (not CompositeImplicitAutograd) without its NAME_copy operator of exactly its arguments, "
       "defaults and returns",
       "add the NAME_copy operator (tag view_copy) or make the view CompositeImplicitAutograd"},
      {"view-inplace-composite", "model.py NativeFunctionsViewGroup.__post_init__",
       "an in-place view (NAME_, tag inplace_view) without the CompositeImplicitAutograd (NestedTensor) kernel its "
       "view NAME has",
       "make the in-place view CompositeImplicitAutograd too (no dispatch table), or give the view a kernel of its own"},
      {"view-copy-tag", "model.py NativeFunctionsViewGroup.__post_init__",
       "a NAME_copy operator of a view without the view_copy tag", "add `tags: view_copy` to the copy operator"},
      // derivatives.yaml: tools/autograd's loading and differentiability matching.
      {"view-functionalization", "gen_functionalization_type.py (torchgen.gen)",
       "a view operator (not CompositeImplicitAutograd) whose first argument is no aliased Tensor, with another "
       "aliasing input, an argument type its functionalization cannot keep (`Scalar`, `SymInt?[]`) or several returns",
       "let only the first argument alias the output (`Tensor(a) self`), take the other arguments as int, SymInt, "
       "bool, their lists or optionals (not `Scalar`, `SymInt?[]`), and return one Tensor(a) or one Tensor(a)[]; or "
       "make the view CompositeImplicitAutograd"},
      {"functional-required", "model.py NativeFunctionsGroup.from_dict (torchgen.gen)",
       "in-place, mutable or out= variants of one signature without a functional variant, where torchgen generates "
       "none (all CompositeImplicitAutograd, manual bindings)",
       "declare the functional variant beside them"},
      {"symint-kernel", "api/types/signatures.py kernel_signature (torchgen.gen)",
       "a dispatch entry's kernel named *_symint for an operator without a SymInt argument",
       "drop `_symint` from the kernel name, or take the sizes as SymInt"},
      {"mutable-formula-reused", "torchgen/api/autograd.py match_differentiability_info (gen_autograd)",
       "a derivatives.yaml formula for an in-place or mutable operator, reading self, that its generated functional "
       "variant (autogen:) would take",
       "write the formulas for the functional variant instead: the in-place variant takes them too"},
      {"view-copy-kernel", "gen_functionalization_type.py GenCompositeViewCopyKernel (torchgen.gen)",
       "a view's NAME_copy operator without a CompositeExplicitAutogradNonFunctional kernel",
       "give the _copy operator its kernel at `CompositeExplicitAutogradNonFunctional:` (as every view_copy operator "
       "has), not CompositeExplicitAutograd"},
      {"view-outputs", "tools/autograd/gen_inplace_or_view_type.py emit_view_body (gen_autograd)",
       "an operator named like one of VIEW_FUNCTIONS (select, tensor_split, …) with several differentiable outputs, "
       "or one that is neither a Tensor nor a Tensor[]",
       "return the outputs as one Tensor[] (as split and chunk do), mark all but one not differentiable "
       "(output_differentiability), or give the operator a name of its own"},
      {"view-argument-type", "tools/autograd/gen_inplace_or_view_type.py emit_view_func (gen_autograd)",
       "an operator named like one of VIEW_FUNCTIONS (select, narrow, …) with a differentiable output and an argument "
       "its view replay cannot keep (not int, int?, SymInt, SymInt?, bool, int[], SymInt[], Tensor, Tensor?)",
       "take the argument as one of those types, or make the overload CompositeImplicitAutograd (no dispatch "
       "table: it decomposes into the existing view)"},
      {"derivative-no-function", "tools/autograd/load_derivatives.py create_differentiability_info",
       "a derivatives.yaml entry whose schema matches no operator",
       "write the operator's schema exactly as native_functions.yaml declares it, or delete the entry"},
      {"derivative-dispatch-key", "tools/autograd/load_derivatives.py create_differentiability_info",
       "a derivatives.yaml `dispatch:` key other than Default or an Autograd key (AutogradNestedTensor, "
       "AutogradCUDA, …)",
       "key the formulas by Default or by the autograd key (AutogradNestedTensor for NestedTensorCPU, …)"},
      {"derivative-unknown-name", "tools/autograd/load_derivatives.py create_forward_derivative",
       "a derivatives.yaml formula keyed by a name that is neither an input nor an output of the operator",
       "key the formula by one of the operator's argument names (or result for a forward formula)"},
      {"derivative-non-differentiable-overlap", "tools/autograd/load_derivatives.py set_up_derivatives",
       "an input both `non_differentiable` and given a formula in one entry",
       "keep one of the two: the formula, or `non_differentiable`"},
      {"derivative-size-api", "tools/autograd/load_derivatives.py saved_variables",
       "a formula calling `.sizes()`, `.size(N)` or `.strides()` (not SymInt-aware)",
       "use `.sym_sizes()`, `.sym_size(N)` or `.sym_strides()`"},
      {"grads-out-of-bounds", "tools/autograd/load_derivatives.py create_derivative",
       "a formula using `grads[i]` with i not below the operator's number of outputs",
       "index grads only by the operator's outputs (`grad` for a single output)"},
      {"derivative-grad-grads", "tools/autograd/load_derivatives.py check_grad_usage",
       "a derivatives.yaml entry whose backward formulas mix `grad` and `grads` (or `grad_RETURN` with either), "
       "or use only `grads[0]`",
       "name the gradient one way: `grad` for a single differentiable output, `grads[i]` for several"},
      {"forward-formula-base-name", "tools/autograd/load_derivatives.py postprocess_forward_derivatives",
       "a forward formula (result: …) naming a differentiable input by its own name",
       "write INPUT_p for its value and INPUT_t for its tangent"},
      {"auto-forward-formula", "tools/autograd/load_derivatives.py postprocess_forward_derivatives",
       "`auto_element_wise` for an operator without exactly one differentiable input, output and backward "
       "formula (or in-place), `auto_linear` for one with several outputs",
       "write the forward formula out (result: … with INPUT_t and INPUT_p)"},
      {"forward-formula-no-tangent", "tools/autograd/gen_variable_type.py emit_body",
       "a forward formula (result: …) that reads no input's tangent (INPUT_t)",
       "write the forward formula with the tangents (`result: self_t * …`), or `result: auto_element_wise`"},
      {"reserved-argument-name", "tools/autograd/load_derivatives.py create_differentiability_info",
       "an operator with a derivatives.yaml formula and an argument named `result` or `grad_input_mask`",
       "rename the argument in native_functions.yaml and in the derivatives.yaml `- name:` line"},
      {"output-differentiability-conditions", "tools/autograd/load_derivatives.py create_differentiability_info",
       "`output_differentiability:` with conditions (strings) for more than one output",
       "give one condition for a single-output operator, or True/False per output"},
      {"output-differentiability-length", "torchgen/api/autograd.py gen_differentiable_outputs",
       "`output_differentiability:` with another number of entries than the operator has outputs",
       "give one True/False per output of the operator"},
      {"output-differentiability-inplace", "torchgen/api/autograd.py gen_differentiable_outputs",
       "`output_differentiability:` with a False in a formula an in-place operator takes",
       "give the in-place operator its own derivatives.yaml entry without output_differentiability, or make every "
       "output differentiable"},
      {"derivative-ignored", "tools/autograd/gen_variable_type.py emit_body",
       "a formula for an operator autograd never differentiates: no differentiable (Tensor) input or output, "
       "every output False in output_differentiability, or an operator listed in DONT_REQUIRE_DERIVATIVE "
       "(argmax, signbit, isnan, …)",
       "delete the formula, or write `INPUT: non_differentiable`"},
      {"derivative-non-tensor-input", "tools/autograd/gen_variable_type.py emit_body",
       "a formula keyed by an input that is not a differentiable Tensor (a float, int, bool argument)",
       "key formulas by Tensor inputs only; a non-Tensor argument needs none"},
      {"forward-formula-count", "tools/autograd/gen_variable_type.py emit_body",
       "forward formulas (result: …) for fewer or more outputs than the operator has differentiable ones",
       "give every differentiable output a forward formula (`a, b: …` for several), or none"},
      {"foreach-without-reference", "tools/autograd/gen_variable_type.py emit_body",
       "an in-place _foreach_ operator left without a differentiability info (e.g. the formula of the operator "
       "it derives its own from was deleted)",
       "keep (or restore) the reference operator's formula, or give the _foreach_ operator its own"},
      {"reserved-operator-name", "model.py BaseOperatorName.parse, FunctionSchema.__post_init__",
       "an operator name ending in _out, or an overload name containing `functional` on an operator that is not "
       "functional",
       "name an out= variant by its overload (`NAME.out`), and keep `functional` for functional overloads"},
      {"tensor-options-not-functional", "model.py FunctionSchema.__post_init__",
       "TensorOptions arguments (dtype, layout, device, pin_memory) on an out=, in-place or mutable operator",
       "keep the TensorOptions on the functional factory; its out= variant takes only `Tensor(a!) out`"},
      {"return-type", "api/cpp.py returntype_type (torchgen.gen)",
       "a return the C++ API cannot type: a fixed-size list (`int[2]`), a returned mutable tensor list, an "
       "optional that is not `Tensor?`",
       "return an unsized list (`int[]`), nothing (`-> ()`) for mutated tensor lists, or `Tensor?`"},
      {"python-return-type", "api/python.py dispatch_lambda_return_str (gen_autograd_python)",
       "a return the Python bindings do not support (int[], (Tensor, float), SymInt, …) on an operator they bind",
       "return a supported type (Tensor, a tuple of Tensors, Tensor[], int, float, bool, Scalar, …), or name the "
       "operator so the bindings skip it (a leading _ does not; *_backward, *_forward do)"},
      {"python-out-without-functional", "tools/autograd/gen_python_functions.py group_overloads (gen_autograd_python)",
       "an out= operator the Python bindings bind without a functional variant of the same arguments and defaults "
       "(what torchgen.gen lets through: a CompositeImplicitAutograd out= alone)",
       "declare the functional variant beside it"},
      {"derivative-strides-other", "tools/autograd/load_derivatives.py saved_variables",
       "a formula reading `X.sym_strides()` that is not the formula for X alone",
       "read the strides only in X's own formula (`X: …X.sym_strides()…`), or pass X's sizes instead"},
      {"strides-in-inplace-formula", "torchgen/api/autograd.py match_differentiability_info",
       "a `self` formula reading `self.sym_strides()` that an in-place operator takes (its own or its "
       "functional's)",
       "give the in-place operator its own derivatives.yaml entry without .sym_strides(), or avoid the strides"},
      {"forward-formula-inplace-self", "torchgen/api/autograd.py match_differentiability_info",
       "an in-place operator's own forward formula reading self_p, the value the operator overwrites",
       "write the forward formula with `result` (the updated self) instead of self_p"},
      {"derivative-functional-overload", "tools/autograd/load_derivatives.py canonical_function",
       "a derivatives.yaml entry for an operator whose overload name contains `functional`",
       "rename the overload (torchgen reserves `functional`), or give no formula for it"},
      {"formula-on-cia", "tools/autograd/gen_variable_type.py gen_variable_type_func",
       "a derivatives.yaml formula for an operator with only a CompositeImplicitAutograd kernel",
       "give the operator a dispatch table (backend keys or CompositeExplicitAutograd), or delete the formula"},
      // The fifth corpus (tests/torchgen_corpus/edits-fifth.json): refusals_autograd2.cpp.
      {"formula-input-named-as-return", "tools/autograd/load_derivatives.py set_up_derivatives",
       "a derivatives.yaml formula keyed by a name that is both an input and a named return of the operator",
       "rename the return in native_functions.yaml and derivatives.yaml (e.g. `NAME_out`), or leave that input "
       "without a formula"},
      {"inplace-view-without-tag", "model.py NativeFunction.view_schema_kind (gen.py get_grouped_by_view_native_functions)",
       "an operator with an in-place name (NAME_) and a view schema (a return aliasing an input without `!`) but "
       "without the inplace_view tag",
       "tag it `tags: inplace_view` and declare the out-of-place view operator NAME beside it (as squeeze_ has "
       "squeeze), or give the operator a name without the trailing underscore"},
      {"view-function-returns", "tools/autograd/gen_view_funcs.py returns_multi_tensor (gen_autograd)",
       "an operator named like a view function (narrow, select, chunk, …) with a VariableType kernel that does not "
       "return exactly one value",
       "return one Tensor (or one Tensor[]), or give the operator a name of its own"},
      {"foreach-tensor-argument", "torchgen/api/autograd.py gen_foreach_derivativeinfo",
       "an out-of-place _foreach_ operator with a lone Tensor argument whose reference operator (the one of its "
       "name without _foreach_) has a forward formula",
       "give the _foreach_ operator its own derivatives.yaml entry, or take the argument as a Tensor[] (the .List "
       "overload)"},
      {"formula-saves-reference", "tools/autograd/gen_autograd_functions.py process_function (gen_autograd)",
       "a backward formula reading what its autograd Node cannot keep: a float[] (or other reference-typed list) "
       "argument, a Tensor[] output of an operator that is not _foreach_",
       "pass what the formula needs in a type the Node keeps (float[]? , int[], a Tensor), or read the output's "
       "elements through grads and the inputs"},
      {"python-duplicate-signature", "tools/autograd/gen_python_functions.py group_overloads (gen_autograd_python)",
       "two overloads of one name the Python bindings bind with the same arguments (types, names, defaults; the "
       "returns do not count)",
       "give the new overload arguments that tell it apart in Python (another name, or a keyword-only argument "
       "without a default), or delete one of them"},
      {"python-argument-requires-grad", "api/python.py signature_from_schema (gen_autograd_python)",
       "an argument named requires_grad in an operator the Python bindings bind (they add their own)",
       "rename the argument (e.g. `with_grad`)"},
      {"python-unnamed-return", "api/python.py structseq_fieldnames (gen_autograd_python)",
       "several returns, some named and some not, in an operator the Python bindings bind",
       "name every return (`-> (Tensor values, Tensor indices)`) or none"},
      {"python-argument-type", "api/python.py arg_parser_unpack_method (gen_autograd_python)",
       "an argument type PythonArgParser cannot read (bool[N], str[], Generator, QScheme, …) in an operator the "
       "Python bindings bind",
       "take a type the bindings read (int[], float[], Tensor[], Scalar[], str, …), or name the operator so the "
       "bindings skip it (*_backward, *_forward)"},
      {"bool-list-without-size", "api/cpp.py valuetype_type (torchgen.gen writing the C++ API)",
       "a bool[] argument without a size (its C++ type is std::array<bool, N>)",
       "give the list its size (`bool[3] output_mask`, as the *_backward operators do)"},
      // tools/autograd/deprecated.yaml against the operators (refusals_deprecated.cpp).
      {"deprecated-call", "tools/autograd/gen_python_functions.py load_deprecated_signatures (gen_autograd_python)",
       "a deprecated.yaml `aten:` call that is not `NAME(a, b, …)` or passes a name the entry's `name:` schema does "
       "not declare (nor the constant 1)",
       "pass only arguments of the `name:` schema (or the constant 1), written `NAME(a, b)` with \", \" between them"},
      {"deprecated-no-match", "tools/autograd/gen_python_functions.py load_deprecated_signatures (gen_autograd_python)",
       "a deprecated.yaml entry no bound operator of its `aten:` name takes: none whose arguments, in the call's "
       "order, have the passed types and alias annotations (the others a default) and whose returns are the entry's "
       "(e.g. the operator was deleted, or its arguments or returns changed)",
       "keep the operator's arguments and returns as the deprecated call needs them, or change (or delete) the "
       "deprecated.yaml entry with it"},
      {"deprecated-overloads", "tools/autograd/gen_python_functions.py group_overloads (gen_autograd_python)",
       "a deprecated signature joined with two overloads of one name (a new overload the call fits too), two equal "
       "deprecated.yaml entries, or a deprecated out= signature without its non-out one",
       "give the new overload an argument without a default (or other types), delete the repeated entry, or add the "
       "non-out deprecated signature beside the out= one"},
      {"wrap-opt-if-syntax", "tools/autograd/gen_variable_type.py emit_save_inputs guard_for (gen_autograd)",
       "`wrap_opt_if(X` in a formula for several inputs not followed by `,` (`wrap_opt_if(X , cond)`), where X is a "
       "Tensor input only that formula reads",
       "write `wrap_opt_if(X, CONDITION)`: the comma right after the input's name"},
      {"forward-formula-output-type", "tools/autograd/gen_variable_type.py emit_fw_derivatives (gen_autograd)",
       "a forward formula (result: …) for outputs that are neither all Tensors nor one Tensor[] (a `Tensor?` "
       "return, a Tensor[] beside a Tensor)",
       "return a Tensor (or one Tensor[]) from the operator, or drop the forward formula for that output"},
      {"mutable-optional-tensor", "api/translate.py translate (torchgen.gen writing RegisterKEY.cpp)",
       "a mutable optional Tensor argument (`Tensor(a!)? self`): torchgen cannot synthesize its C++ "
       "`::std::optional<at::Tensor> &` when it writes the kernel registrations",
       "take it as `Tensor(a!)` or a Tensor list `Tensor(a!)[]` (as the in-place _foreach_ operators do), or return a "
       "new optional Tensor instead of writing one"},
      // Issue 31, ufunc code generation: refusals_ufunc.cpp.
      {"ufunc-kernel-arguments", "dest/ufunc.py compute_ufunc_cpu_kernel / compute_ufunc_cuda, api/ufunc.py",
       "a ufunc operator argument its kernels cannot pass: a tensor that is not a plain Tensor (Tensor?, "
       "Tensor[]), an argument other than Tensor and Scalar (the CPU loop passes only those), the two tensors of a "
       "binary one not named self and other",
       "make it a Scalar (the loop gets it as scalar_t) or a Tensor, name a binary operator's tensors self and "
       "other; or drop ufunc_inner_loop and write the kernels (`dispatch:` CPU, CUDA: NAME_out)"},
      {"ufunc-kernel-loops", "dest/ufunc.py compute_ufunc_cpu_dtype_body / compute_ufunc_cuda_functors",
       "ufunc loops that leave a kernel without a loop: a CPUVector dtype without a CPUScalar loop, no Generic or "
       "ScalarOnly loop and no CUDAFunctor, CUDAFunctorOnSelf / OnOther on an operator without exactly two tensors "
       "or for a dtype without a CUDAFunctor loop",
       "add a `Generic: NAME (DTYPES)` loop (it serves every kernel), or give each dtype its CPUScalar and "
       "CUDAFunctor loop; CUDAFunctorOnSelf / OnOther only on a binary operator"},
      // docs/torchgen-rules.md §9's last one left: api/autograd.py's `raise RuntimeError("")`.
      {"foreach-reference-saved-output", "torchgen/api/autograd.py gen_foreach_derivativeinfo (gen_autograd)",
       "an out-of-place _foreach_ operator without a derivatives.yaml entry whose reference operator's backward "
       "formula saves an output other than `result`: a named return, result0, `result.sym_sizes()`",
       "leave the reference's output unnamed and read it as `result` in its formula, or give the _foreach_ "
       "operator its own derivatives.yaml entry"},
  };
  return kinds;
}

const RefusalKind* refusal_kind(std::string_view id) {
  for (const auto& k : refusal_kinds())
    if (k.id == id) return &k;
  return nullptr;
}

}  // namespace dispatchctl::torchgen
