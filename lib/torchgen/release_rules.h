// What differs between the torchgen of two PyTorch releases
// (docs/torchgen-rules.md §7), as data: one JSON file per release in
// lib/torchgen/data (rules-MAJOR.MINOR.json, embedded at build time), like the
// key catalogue's profiles. Code reads these fields; it never compares versions.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl::torchgen {

struct ReleaseRules {
  std::string version;  // "2.14": the release the rules were written for (rules-2.14.json)
  // The MAJOR.MINOR releases the rules were checked against, first to last:
  // a release in that range uses them as they are.
  std::string first_release, last_release;
  // Register<Key>.cpp compiled whatever the backends (Meta family, composites …).
  std::set<std::string> always_compiled_keys;
  // Keys each selectable backend adds (`--build-backends CPU,CUDA`).
  std::map<std::string, std::set<std::string>> backend_keys;
  std::set<std::string> gen_py_ignored_keys;  // dropped before anything else (no --mps/--xpu)
  std::set<std::string> structured_keys;      // STRUCTURED_DISPATCH_KEYS
  std::set<std::string> ufunc_keys;           // UFUNC_DISPATCH_KEYS
  // Keys RegisterDispatchKey.gen_structured writes a structured group's kernel
  // for itself, so a structured out= must not name them (Meta, the non-functional composite).
  std::set<std::string> structured_generated_keys;
  std::set<std::string> known_fields;         // native_functions.yaml entry fields
  bool tags_may_be_list = false;              // else one ", "-separated string

  // O2 generated variants.
  // `set_` (tag inplace_view) is "treated as a normal inplace op in the codegen":
  // its groups get variants and functionalization treats it as mutating.
  bool set_is_not_a_view = false;
  bool cia_groups_generate_if_core = false;
  bool prefer_mutable_base = false;      // base op mutable > inplace (else inplace > mutable)
  std::set<std::string> out_ops_not_grouped;      // lone out= ops torchgen tolerates
  std::set<std::string> inplace_ops_not_grouped;  // polygamma_

  // Views (NativeFunction.is_view_op): inplace_view ops that are not views.
  std::set<std::string> inplace_view_not_views;

  // RegisterFunctionalization.
  bool functionalize_all_cia = false;
  bool functionalize_cia_views = false;  // view ops with a CompositeImplicitAutograd kernel get one too
  std::set<std::string> functionalize_handwritten_groups;  // whole group skipped (lift, resize_)
  std::set<std::string> functionalize_handwritten_ops;     // lift_fresh
  std::set<std::string> functionalize_skipped_groups;      // set_.source_Tensor
  std::set<std::string> mutable_ops_not_using_functionalization;

  // RegisterBackendSelect.cpp's template registers these by hand.
  std::set<std::string> backend_select_template_ops;

  // tools/autograd.
  std::set<std::string> manual_autograd;  // MANUAL_AUTOGRAD = MANUAL_TRACER
  std::set<std::string> view_functions;   // VIEW_FUNCTIONS ∪ RETURNS_VIEWS_OF_INPUT

  bool dimname_prints_as_str = false;
  // Operators the RegisterSchema.cpp template defines by hand (get_gradients).
  std::set<std::string> schema_template_ops;

  // A non-composite view operator's argument types torchgen.gen cannot
  // generate its functionalization for: the SymInt check of its kernel
  // (emit_expr_has_symbolic_values raises) and its ViewMeta class (keeps the
  // arguments by value; translate cannot convert). Schema spelling; empty
  // where not recorded (not checked).
  std::set<std::string> view_symint_check_unsupported_types;
  std::set<std::string> view_meta_unsupported_types;
  // gen_inplace_or_view_type.py emit_view_func's known_view_arg_simple_types,
  // as schema types (a list's size dropped): the arguments an operator of
  // VIEW_FUNCTIONS' names may take besides `self`. Empty: not recorded.
  std::set<std::string> view_replay_argument_types;
  // GenCompositeViewCopyKernel looks a VIEW_copy operator's kernel up at this
  // key (CompositeExplicitAutogradNonFunctional in 2.x); empty: not checked.
  std::string view_copy_kernel_key;
  // Refusals (torchgen/refusals.h). View ops whose base name ends so get no
  // generated _copy variant (gets_generated_view_copy: "_inverse" in 2.x).
  std::set<std::string> view_copy_exempt_suffixes;
  // gen_variable_type's emit_body: an in-place _foreach_ op must find a
  // differentiability info (its own or its reference op's), except these ("base.overload").
  bool foreach_inplace_needs_derivatives = false;
  std::set<std::string> foreach_ops_without_differentiability_info;
  std::set<std::string> foreach_with_inplace_ref;  // in-place _foreach_ ops whose reference is in-place too
  // gen_variable_type_func registers the boxed autograd-not-implemented kernel
  // for an operator without a formula unless its base name is in
  // DONT_REQUIRE_DERIVATIVE (`dont_require_derivative`) or one of its names
  // (name "set_", cpp name, type wrapper name "cpp_overload") in
  // RESET_GRAD_ACCUMULATOR or the DONT_ENFORCE_* lists: these, their union.
  // `known` false: the release's lists were not read (no prediction then).
  bool autograd_not_implemented_known = false;
  std::set<std::string> autograd_not_implemented_exempt;
  // add_generated_native_functions refuses a group it would give an out=
  // variant that returns no tensor, except these (MUTABLE_ and
  // FUNCTIONAL_OPS_THAT_CANNOT_GET_AN_OUT_VARIANT, "name.overload").
  std::set<std::string> ops_without_out_variant;
  // gen_variable_type's DONT_REQUIRE_DERIVATIVE (base or cpp names): a formula
  // for one of them is refused ("derivative ignored"), and an out= one's
  // generated autograd kernel refuses no argument that requires grad
  // (out_grad_checks.h).
  std::set<std::string> dont_require_derivative;
  // NativeFunction.__post_init__: "dropout" in an argument's name makes an
  // operator random (needs the nondeterministic_seeded tag), not only in its name.
  bool seeded_if_dropout_argument = false;
  // NativeFunction.from_yaml refuses use_const_ref_for_mutable_tensors on an out= operator.
  bool const_ref_out_refused = false;
  // model.py's dispatch_keys: the keys a native_functions.yaml dispatch: may name.
  std::set<std::string> native_dispatch_keys;
  // gen.py error_check_native_functions: no argument may be named a Python
  // keyword (keyword.kwlist; empty where the release does not check), except
  // these pre-existing ones ("OP.OVERLOAD ARGUMENT").
  std::set<std::string> python_reserved_keywords;
  std::set<std::string> python_keyword_argument_exceptions;
  // gen_python_functions: the returns a Python binding supports
  // (SUPPORTED_RETURN_TYPES, spelled as schemas spell them: "(Tensor, float)";
  // empty where the release's list is not recorded: not checked), and the
  // operators it binds none for (SKIP_PYTHON_BINDINGS: regexes over the C++
  // name; SKIP_PYTHON_BINDINGS_SIGNATURES: schemas).
  std::set<std::string> python_return_types;
  std::vector<std::string> python_skipped_bindings;
  std::set<std::string> python_skipped_signatures;
  // api/autograd.py gen_foreach_derivativeinfo: the out-of-place _foreach_
  // ops whose lone Tensor argument may stand for a reference's Tensor in a
  // forward formula (_foreach_with_tensor_overload; empty: not recorded, not
  // checked), and those whose argument count may differ from the reference's
  // (_skip_argument_len_check). gen_variable_type's
  // DONT_ENFORCE_SAME_TENSOR_IMPL_OR_STORAGE (cpp names; empty: not checked).
  std::set<std::string> foreach_with_tensor_overload;
  std::set<std::string> foreach_skip_argument_len_check;
  std::set<std::string> dont_enforce_same_tensor_impl_or_storage;
  // gen_python_functions' binding files besides torch and Tensor methods
  // (is_py_nn_function, …): an operator of another python_module is bound in none.
  std::set<std::string> python_binding_modules;
  // model.py UfuncKey and what UfuncInnerLoop.parse reads in its parentheses
  // (ScalarType names and DTYPE_CLASSES).
  std::set<std::string> ufunc_inner_loop_keys;
  std::set<std::string> ufunc_dtypes;
  // model.py DTYPE_CLASSES: what a class name in a loop's dtypes stands for
  // (refusals_ufunc.cpp compares loops' dtypes; empty: not checked).
  std::map<std::string, std::set<std::string>> ufunc_dtype_classes;
  // model.py BaseTy: the type names a schema may use (with T?, T[], T[N]).
  std::set<std::string> base_types;
};

// One rules file: every field above, each required, no other (InputError
// naming `source`, the field and a did-you-mean).
ReleaseRules read_release_rules(std::string_view json, const std::string& source);

// nullptr when no table's range holds the release ("2.14.1" -> the 2.14 table).
const ReleaseRules* rules_for_release(std::string_view version);
// The rules for any release: those whose range holds it, else the nearest
// known ones (the closest range by MAJOR, then MINOR; the newer on a tie),
// with a note naming them (once per process). InputError only for a version
// that is no MAJOR.MINOR[...] ("where: ...").
const ReleaseRules& rules_for_any_release(std::string_view version, const std::string& where);
std::string supported_rule_releases();

}  // namespace dispatchctl::torchgen
