// Shared by refusals.cpp and refusals_groups.cpp (not part of the interface).
#pragma once

#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "torchgen/grouping.h"
#include "torchgen/info_matcher.h"
#include "torchgen/model.h"
#include "torchgen/refusals.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

std::string_view kind_fix(std::string_view id);
// refusal_kinds()'s entries from derivatives.yaml on (refusal_kinds_autograd.cpp).
std::vector<RefusalKind> autograd_refusal_kinds();
Refusal make_refusal(const NativeFunction& f, std::string_view id, std::string reason);


// gen.py get_grouped_by_view_native_functions: operators bucketed by
// view_signature; a bucket with a view operator (aliasing, not in-place) is a
// NativeFunctionsViewGroup of it, its in-place view and the bucket's
// functional (its _copy); an in-place view without its view stays alone
// (refusals_views.cpp).
class ViewGroups {
 public:
  ViewGroups(const TorchgenModel& model, const ReleaseRules& rules);
  bool is_view(const NativeFunction& f) const;  // ViewSchemaKind.aliasing
  // The view's view_copy: the functional of its bucket (nullptr: none).
  const NativeFunction* copy_of(const NativeFunction& view) const;
  // The view's view_inplace: the in-place view of its bucket (nullptr: none).
  const NativeFunction* inplace_of(const NativeFunction& view) const;
  // In some view group and writing an argument (a view, an in-place view with its view).
  bool holds_modifying(const NativeFunction& f) const;

 private:
  const ReleaseRules& rules_;
  std::set<std::string> with_view_;
  std::unordered_map<std::string, const NativeFunction*> functional_, inplace_;
};

// gen_python_functions should_generate_py_binding: whether the Python
// bindings bind an operator (SKIP_PYTHON_BINDINGS' regexes compiled once).
class PythonBindings {
 public:
  explicit PythonBindings(const ReleaseRules& rules) : rules_(rules) {}
  bool binds(const NativeFunction& f);

 private:
  const ReleaseRules& rules_;
  std::vector<std::regex> skipped_;
};

// NativeFunctionsGroup / lone out= / structured without a functional variant;
// into `functionalization`, what RegisterFunctionalization refuses (mutating
// operators outside every group), which torchgen.gen writes after the C++ API
// and its other asserts.
void check_groups(const TorchgenModel& model, const ReleaseRules& rules, const ViewGroups& views,
                  const std::vector<SignatureGroup>& groups, std::vector<Refusal>& out,
                  std::vector<Refusal>& functionalization);
// NativeFunctionsViewGroup: view operators and their _copy variants, their
// functionalization kernels and ViewMeta, the composite _copy kernels.
void check_views(const TorchgenModel& model, const ReleaseRules& rules, const ViewGroups& views,
                 std::vector<Refusal>& out);
// tools/autograd's ADInplaceOrView view bodies (gen_inplace_or_view_type.py):
// operators of VIEW_FUNCTIONS' names, their outputs and replayed arguments.
void check_view_replay(const TorchgenModel& model, const ReleaseRules& rules, const InfoMatcher& matcher,
                       std::vector<Refusal>& out);
// tools/autograd: derivatives.yaml against the operators.
void check_derivatives(const TorchgenModel& model, const ReleaseRules& rules, const InfoMatcher& matcher,
                       std::vector<Refusal>& out);
// NativeFunction's asserts on one entry's pass-through fields, raised as
// torchgen reads it (refusals_more.cpp).
void check_entry_fields(const NativeFunction& f, const ReleaseRules& rules, std::vector<Refusal>& out);
// Asserts on pass-through fields and on how formulas name gradients (refusals_more.cpp).
void check_more(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out);
// Names, TensorOptions and returns only FunctionSchema and the C++ API refuse,
// and the returns the Python bindings refuse (refusals_api.cpp).
void check_api(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out);
void check_returns(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out);
// tools/autograd's loading of each formula and gen_variable_type's matching
// of formulas with differentiable inputs and outputs (refusals_autograd.cpp).
void check_autograd(const TorchgenModel& model, const ReleaseRules& rules, const InfoMatcher& matcher,
                    std::vector<Refusal>& out);
// get_grouped_by_view_native_functions' view_schema_kind, which torchgen.gen
// asserts before grouping by signature (refusals_autograd2.cpp).
void check_inplace_views(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out);
// More of tools/autograd's asserts (refusals_autograd2.cpp): formula names,
// in-place views without their tag, view functions' returns, _foreach_ Tensor overloads.
void check_autograd_more(const TorchgenModel& model, const ReleaseRules& rules, const InfoMatcher& matcher,
                         std::vector<Refusal>& out);
// The Python bindings' arguments, returns and overloads (refusals_python.cpp).
void check_python_bindings(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out);
// PythonSignature.signature_str(skip_outputs=True) near enough, and the binding
// files' groups of an operator ("method", "torch", its python_module) (refusals_python.cpp).
std::string python_signature(const FunctionSchema& s, bool method);
std::vector<std::string> python_groups(const NativeFunction& f);
// deprecated.yaml against the bound operators: load_deprecated_signatures and
// group_overloads on the deprecated signatures (refusals_deprecated.cpp).
void check_deprecated(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out);

// load_derivatives' IDENT_REGEX r"(^|\W){ident}($|\W)" matches in formula;
// the i of each grads[i] (GRAD_INDEX_REGEX).
bool uses_ident(const std::string& formula, const std::string& ident);
// A derivatives.yaml name that is one of the operator's arguments (`options`
// stands for the TensorOptions arguments) (refusals_autograd.cpp).
bool is_argument_name(const FunctionSchema& s, const std::string& name);
std::vector<size_t> grads_indices(const std::string& formula);

}  // namespace dispatchctl::torchgen
