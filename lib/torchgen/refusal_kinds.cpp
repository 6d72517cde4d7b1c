// The one table of torchgen's refusals (refusals.h): every kind `check`
// reports as torchgen-refusal, whether torchgen's reading stops there
// (parse_yaml.cpp) or it is found on the parsed model (refusals*.cpp). The
// README's table lists the same kinds, in this order (a unit test compares).
#include "torchgen/refusals.h"
#include "torchgen/refusals_detail.h"

namespace dispatchctl::torchgen {

const std::vector<RefusalKind>& refusal_kinds() {
  static const std::vector<RefusalKind> kinds = [] {
    std::vector<RefusalKind> all = {
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
         "a field value torchgen does not read (`device_guard: Maybe`, `structured: 'True'`, an unknown `device_check`, "
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
        // The ninth corpus: what only the full torchgen.gen (not --dry-run) refuses.
        {"structured-generated-key", "dest/register_dispatch_key.py RegisterDispatchKey.gen_structured (torchgen.gen)",
         "a `Meta:` or `CompositeExplicitAutogradNonFunctional:` entry on a structured out= operator (torchgen "
         "generates those kernels from its meta function)",
         "delete that dispatch entry: the structured kernel's meta() serves Meta and the non-functional composite"},
        {"duplicate-yaml-key", "yaml_utils.py YamlLoader.construct_mapping",
         "a key written twice in one mapping of any of torchgen's YAML files (a field of an entry, a dispatch key "
         "line)",
         "keep one of the two lines (merge their values)", true},
        {"method-self-type", "api/translate.py (gen.py ComputeTensorMethod writing TensorBody.h, torchgen.gen)",
         "`variants: method` on an operator whose self is not a Tensor (`Tensor? self`, `Tensor[] self`)",
         "write `variants: function`, or make self a Tensor"},
    };
    // derivatives.yaml, tools/autograd and the Python bindings: refusal_kinds_autograd.cpp.
    const std::vector<RefusalKind> autograd = autograd_refusal_kinds();
    all.insert(all.end(), autograd.begin(), autograd.end());
    return all;
  }();
  return kinds;
}

const RefusalKind* refusal_kind(std::string_view id) {
  for (const auto& k : refusal_kinds())
    if (k.id == id) return &k;
  return nullptr;
}

}  // namespace dispatchctl::torchgen
