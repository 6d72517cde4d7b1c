// torchgen's inputs as the generators see them: NativeFunctions parsed from
// native_functions.yaml (NativeFunction.from_yaml), the tags of tags.yaml
// and the differentiability infos of derivatives.yaml, each with the YAML
// file:line it came from.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "torchgen/schema.h"

namespace dispatchctl::torchgen {

struct Location {
  std::string file;
  int line = 0;
  std::string to_string() const { return file + ":" + std::to_string(line); }
};

// What torchgen refuses (torchgen/refusals.h): where, which refusal, its
// reason in torchgen's words and the fix.
struct Refusal {
  Location loc;
  std::string op;  // "aten::sigmoid", or "" when no operator is named
  std::string id;  // a refusal_kinds() id
  std::string reason;
  std::string fix;
  // Where in torchgen.gen's run it is raised (find_refusals): 0 reading the
  // entries (parse_native_yaml: FunctionSchema's and NativeFunction's asserts,
  // before any group exists), 1 grouping, views and the files written, 2
  // RegisterFunctionalization (late): `show` names the earliest.
  int phase = 0;
  std::string to_string() const { return loc.to_string() + ": " + reason + "; " + fix; }
};

struct NativeFunction {
  FunctionSchema func;
  Location loc;
  // The kernel name each dispatch entry gives (gen.py's keys only).
  std::map<std::string, std::string> kernel_names;
  std::set<std::string> variants = {"function"};
  // gen.py's backend index: key -> structured, after dropping the keys gen.py ignores.
  std::map<std::string, bool> dispatch;
  // tools/autograd parses the YAML again without dropping any key.
  std::set<std::string> autograd_dispatch_keys;
  bool dispatch_written = false;  // a `dispatch:` block (else the CIA default)
  bool structured = false;
  std::optional<std::string> structured_delegate;
  bool manual_cpp_binding = false;
  bool manual_kernel_registration = false;
  std::vector<std::string> autogen;
  std::set<std::string> tags;
  // Fields torchgen only asserts on (refusals_more.cpp): the YAML as written.
  std::optional<std::string> structured_inherits;
  std::vector<std::string> cpp_no_default_args;
  std::optional<std::string> python_module;
  std::optional<std::string> category_override;  // the Python bindings' factory / new / like / dummy
  bool device_check_written_no_check = false;  // device_check: NoCheck (torchgen's default is ExactSame)
  bool device_guard = true;                     // device_guard: False written
  bool precomputed = false;                     // a precomputed: block
  // ufunc_inner_loop as written and read (refusals_ufunc.cpp): key (Generic
  // for a plain string) -> "NAME (DTYPES)"; empty when absent or unreadable.
  std::vector<std::pair<std::string, std::string>> ufunc_inner_loop;
  bool use_const_ref_for_mutable_tensors = false;
  bool generated = false;  // added by torchgen (O2), tag "generated"
  // A generated op copies is_abstract from the op it was made from.
  bool generated_abstract = false;
  bool generated_abstract_for_autograd = false;

  bool has(const std::string& key) const { return dispatch.count(key) != 0; }
  bool has_cia() const { return has("CompositeImplicitAutograd"); }
  // NativeFunction.is_abstract: not only CompositeImplicitAutograd(NestedTensor).
  bool is_abstract() const;
  bool is_abstract_for_autograd() const;
  bool is_view_op(const std::set<std::string>& inplace_view_exceptions) const;
  std::string name() const { return op_name(func); }
};

struct DifferentiabilityInfo {
  FunctionSchema func;
  // The `- name:` text as written: load_derivatives looks it up verbatim among
  // str(FunctionSchema) of the operators (a missing space is no match).
  std::string written_name;
  Location loc;
  // Each formula's key ("self", "self, other", "result") with its line.
  std::vector<std::pair<std::string, int>> formula_keys;
  // Each formula with its line (backward ones are keyed by inputs, forward
  // ones by outputs): tools/autograd's checks read them.
  struct Formula {
    std::string key;  // the derivatives.yaml dispatch key it is under ("Default" without dispatch:)
    std::string names;
    std::string text;
    int line = 0;
    bool non_differentiable = false;  // `INPUT: non_differentiable`
  };
  std::vector<Formula> formulas;
  // output_differentiability as written: its length and line (nullopt when
  // absent); conditions (strings) instead of True/False are not counted.
  struct OutputDifferentiability {
    size_t length = 0;
    bool conditions = false;
    bool any_false = false;  // a False entry: some output is not differentiable
    int line = 0;
    std::vector<bool> differentiable;  // per output: not False (a condition counts as True, as load_derivatives does)
  };
  std::optional<OutputDifferentiability> output_differentiability;
  // derivatives.yaml `dispatch:` keys (Default when absent) -> has a real formula.
  std::map<std::string, bool> keys;
  bool has_derivatives() const {
    for (const auto& [key, formula] : keys)
      if (formula) return true;
    return false;
  }
};

// A tools/autograd/deprecated.yaml entry: a Python signature the bindings
// keep for old callers (`name:`) and the ATen call it forwards to (`aten:`).
struct DeprecatedSignature {
  FunctionSchema func;
  std::string aten;  // as written: "addmm_out(out, self, mat1, mat2, beta, 1)"
  Location loc;
};

struct TorchgenModel {
  std::vector<NativeFunction> functions;  // YAML order, then generated variants
  std::vector<DifferentiabilityInfo> derivatives;
  bool has_derivatives_yaml = false;
  std::vector<DeprecatedSignature> deprecated;  // deprecated.yaml's entries, in order
  std::set<std::string> valid_tags;
  // Field values torchgen's parser refuses (the entry is still read, with the default).
  std::vector<Refusal> parse_refusals;
  // The first function named `op_name` ("add.Tensor"), or nullptr.
  const NativeFunction* find(const std::string& op_name) const;

 private:
  // find's index, extended over functions appended since the last call
  // (functions only grow: the YAML's, then generated variants). A linear
  // scan re-printing each name made the lint quadratic (16% of `check`).
  mutable std::unordered_map<std::string, size_t> index_;
  mutable size_t indexed_ = 0;
};

}  // namespace dispatchctl::torchgen
