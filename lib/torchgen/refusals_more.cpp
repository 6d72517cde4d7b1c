// torchgen's asserts on fields it otherwise only passes through, and
// tools/autograd's checks of how a derivatives.yaml formula names gradients:
//   NativeFunction.__post_init__ (torchgen/model.py): structured_inherits
//     without structured, cpp_no_default_args naming an argument without a
//     default, a _foreach_ operator without device_check: NoCheck;
//   NativeFunction.from_yaml: python_module with the method variant,
//     precomputed without structured, use_const_ref_for_mutable_tensors on
//     an out= operator; device_guard: False on a structured operator;
//   gen.py error_check_native_functions: an argument named a Python keyword,
//     the inplace_view tag on an operator not NAME_ or without NAME;
//   load_derivatives.py check_grad_usage: `grad` and `grads` mixed, only
//     `grads[0]`, `grad_RETURN` mixed with either;
//   api/autograd.py gen_differentiable_outputs: output_differentiability
//     (True/False) not as long as the operator's returns.
// Release differences are rules data: const_ref_out_refused,
// python_reserved_keywords (2.x only), inplace_view_not_views / set_is_not_a_view.
#include <algorithm>
#include <cctype>
#include <limits>
#include <set>

#include "torchgen/refusals_detail.h"
#include "util/join.h"
#include "util/parse_number.h"

namespace dispatchctl::torchgen {

void check_entry_fields(const NativeFunction& f, const ReleaseRules& rules, std::vector<Refusal>& out) {
  if (f.structured_inherits && !f.structured)
    out.push_back(make_refusal(f, "structured-inherits-unstructured",
                               "structured_inherits must also imply structured: True (" + f.name() +
                                   " inherits from " + *f.structured_inherits + " but is not structured)"));
  std::set<std::string> defaulted;
  for (const auto& a : f.func.arguments)
    if (a.default_value) defaulted.insert(a.name);
  std::vector<std::string> invalid;
  for (const auto& name : f.cpp_no_default_args)
    if (!defaulted.count(name)) invalid.push_back(name);
  if (!invalid.empty())
    out.push_back(make_refusal(f, "cpp-no-default-args",
                               "Invalid cpp_no_default_args: " + join(invalid) + " (" + f.name() +
                                   " has no argument of that name with a default value)"));
  // api/cpp.py argument(): the C++ API's TensorOptions parameter is called
  // `options`; naming it (through an argument of that name) is refused.
  else if (has_tensor_options(f.func) &&
           std::count(f.cpp_no_default_args.begin(), f.cpp_no_default_args.end(), std::string("options")))
    out.push_back(make_refusal(f, "cpp-no-default-args",
                               "'options' should not be in cpp_no_default_args (" + f.name() +
                                   " takes TensorOptions, which its C++ API calls options)"));
  if (f.python_module && f.variants.count("method"))
    out.push_back(make_refusal(f, "python-module-method",
                               "functions in modules cannot be methods (" + f.name() + " has python_module: " +
                                   *f.python_module + " and the method variant)"));
  if ((f.structured || f.structured_delegate) && !f.device_guard)
    out.push_back(make_refusal(f, "structured-device-guard", "device_guard: False is not respected by structured kernels"));
  if (f.precomputed && !f.structured)
    out.push_back(make_refusal(f, "precomputed-unstructured",
                               "precomputed requires structured=True, got structured=False (" + f.name() + ")"));
  if (rules.const_ref_out_refused && f.use_const_ref_for_mutable_tensors && is_out_fn(f.func))
    out.push_back(make_refusal(f, "const-ref-out",
                               "use_const_ref_for_mutable_tensors on an out= operator (" + f.name() +
                                   "): see https://github.com/pytorch/pytorch/issues/145522"));
  if (f.name().rfind("_foreach", 0) == 0 && !f.device_check_written_no_check)
    out.push_back(make_refusal(f, "foreach-device-check",
                               "foreach kernels fall back to slow path when tensor are on different devices, "
                               "device_check not allowed to be enabled (" + f.name() + " has no device_check: NoCheck)"));
}

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Python's re.findall of load_derivatives' IDENT_REGEX, r"(^|\W){}($|\W)"
// (and of GRAD_INDEX_REGEX, r"(?:^|\W)grads\[(\d+)\]" when `indexed`): a
// match consumes the non-word characters around it, so the next one cannot
// share them. Without std::regex: thousands of formulas are read per load.
struct IdentMatches {
  size_t count = 0;
  std::vector<size_t> indices;  // the i of each grads[i] (indexed only)
};

IdentMatches find_ident(const std::string& text, const std::string& ident, bool indexed) {
  IdentMatches out;
  size_t pos = 0;
  for (size_t at = text.find(ident, pos); at != std::string::npos; at = text.find(ident, pos)) {
    const bool before = at == 0 || (at - 1 >= pos && !word_char(text[at - 1]));
    size_t end = at + ident.size();
    bool after = false;
    std::string digits;
    if (indexed) {
      if (end < text.size() && text[end] == '[') {
        size_t d = end + 1;
        while (d < text.size() && std::isdigit(static_cast<unsigned char>(text[d]))) digits += text[d++];
        after = !digits.empty() && d < text.size() && text[d] == ']';
        end = d + 1;
      }
    } else {
      after = end == text.size() || !word_char(text[end]);
      if (end < text.size()) ++end;  // the \W after it is consumed
    }
    if (!(before && after)) {
      pos = at + 1;
      continue;
    }
    ++out.count;
    // Python's int() has no limit: an index past size_t is as out of bounds as SIZE_MAX.
    if (indexed)
      out.indices.push_back(
          parse_integer<size_t>(digits, 0, std::numeric_limits<size_t>::max()).value_or(std::numeric_limits<size_t>::max()));
    pos = end;
  }
  return out;
}

}  // namespace

bool uses_ident(const std::string& formula, const std::string& ident) { return find_ident(formula, ident, false).count > 0; }
std::vector<size_t> grads_indices(const std::string& formula) { return find_ident(formula, "grads", true).indices; }

namespace {

bool is_input(const DifferentiabilityInfo& info, const std::string& names) {
  const std::string first = names.substr(0, names.find(','));
  const std::string trimmed = first.substr(0, first.find_last_not_of(' ') + 1);
  return std::any_of(info.func.arguments.begin(), info.func.arguments.end(),
                     [&](const SchemaArgument& a) { return a.name == trimmed; });
}

// check_grad_usage, per derivatives.yaml dispatch key, over the backward formulas.
void check_grad_usage(const DifferentiabilityInfo& info, std::vector<Refusal>& out) {
  std::set<std::string> keys;
  for (const auto& formula : info.formulas) keys.insert(formula.key);
  const std::string name = op_name(info.func);
  for (const std::string& key : keys) {
    bool grad = false, named = false;
    size_t grads = 0;
    std::vector<size_t> indices;
    int line = 0;
    for (const auto& formula : info.formulas) {
      if (formula.key != key || formula.non_differentiable || !is_input(info, formula.names)) continue;
      if (line == 0) line = formula.line;
      grad = grad || uses_ident(formula.text, "grad");
      grads += find_ident(formula.text, "grads", false).count;
      const std::vector<size_t> used = find_ident(formula.text, "grads", true).indices;
      indices.insert(indices.end(), used.begin(), used.end());
      for (const auto& r : info.func.returns)
        named = named || (!r.name.empty() && uses_ident(formula.text, "grad_" + r.name));
    }
    auto refuse = [&](std::string reason) {
      out.push_back(Refusal{{info.loc.file, line}, info.func.full_name(), "derivative-grad-grads", std::move(reason),
                            std::string(kind_fix("derivative-grad-grads"))});
    };
    const bool only_indexed = grads == indices.size();
    if (grad && grads > 0)
      refuse("Derivative definition of " + name + " in derivatives.yaml illegally mixes use of 'grad' and 'grads'. "
             "Consider replacing occurrences of 'grad' with 'grads[0]'");
    else if (grads > 0 && only_indexed && std::all_of(indices.begin(), indices.end(), [](size_t i) { return i == 0; }))
      refuse("Derivative definition of " + name + " in derivatives.yaml solely refers to 'grads[0]'.  If the first "
             "output is indeed the only differentiable output, replace 'grads[0]' with 'grad'");
    else if (named && (grad || grads > 0))
      refuse("Derivative definition of " + name + " in derivatives.yaml illegally mixes use of \"grad_RETURN_NAME\" "
             "and \"grad\" or \"grads[x]\". Use only one method for identifying gradients.");
  }
}

// gen.py error_check_native_functions: argument names, and the inplace_view tag.
void check_names(const NativeFunction& f, const std::set<std::string>& out_of_place_bases, const ReleaseRules& rules,
                 std::vector<Refusal>& out) {
  for (const auto& a : f.func.arguments)
    if (rules.python_reserved_keywords.count(a.name) &&
        !rules.python_keyword_argument_exceptions.count(f.name() + " " + a.name)) {
      out.push_back(make_refusal(f, "reserved-keyword-argument",
                                 "Argument name '" + a.name + "' in function '" + f.name() +
                                     "' is a reserved Python keyword."));
      break;
    }
  const BaseOperatorName base = base_name(f.func);
  if (!f.tags.count("inplace_view") || rules.inplace_view_not_views.count(f.name()) ||
      (rules.set_is_not_a_view && base.base == "set"))
    return;
  if (!base.inplace)
    out.push_back(make_refusal(f, "inplace-view-tag",
                               f.name() + " is marked with tag: inplace_view, but it doesn't follow the naming "
                               "convention for inplace ops - the codegen expects the base name to have a trailing "
                               "underscore."));
  else if (!out_of_place_bases.count(base.base))
    out.push_back(make_refusal(f, "inplace-view-tag",
                               f.name() + " is marked with tag: inplace_view. The codegen expects there to be a "
                               "corresponding out-of-place view op with the name '" + base.base + "'"));
}

// What only torchgen.gen's code generation (gen.py ComputeTensorMethod) and
// the Python bindings (api/python.py signature, dispatch_lambda_exprs)
// assert, past a dry run.
void check_bindings(const NativeFunction& f, std::vector<Refusal>& out) {
  if (f.variants.count("method") && schema_kind(f.func) != SchemaKind::Out &&
      std::none_of(f.func.arguments.begin(), f.func.arguments.end(),
                   [](const SchemaArgument& a) { return !a.kwarg_only && a.name == "self"; }))
    out.push_back(make_refusal(f, "method-without-self", "Method variant must have self_arg: " + torchgen_text(f.func)));
  // TensorBody.h's method passes `*this` (a Tensor) for self: api/translate.py
  // finds no expression for any other type of self (a Tensor?, a Tensor[]).
  else if (const SchemaArgument* self = self_argument(f.func);
           f.variants.count("method") && schema_kind(f.func) != SchemaKind::Out && self && type_text(*self) != "Tensor")
    out.push_back(make_refusal(f, "method-self-type",
                               "Failed to synthesize the expression for " + type_text(*self) +
                                   " self from the method's *this (a Tensor): " + torchgen_text(f.func)));
  const std::string category = f.category_override.value_or(std::string());
  const bool tensor_return = std::any_of(f.func.returns.begin(), f.func.returns.end(),
                                         [](const SchemaArgument& r) { return is_tensor_like(r.type); });
  const bool tensor_input = std::any_of(f.func.arguments.begin(), f.func.arguments.end(), [](const SchemaArgument& a) {
    return is_tensor_like(a.type) && !(a.kwarg_only && a.is_write());
  });
  const bool factory = category == "factory" || (tensor_return && !tensor_input);
  const std::string cpp = cpp_name(f.func);  // api/python.py: the C++ name's new_ / _like too
  const bool like_or_new = category == "new" || category == "like" || cpp.rfind("new_", 0) == 0 ||
                           (cpp.size() >= 5 && cpp.compare(cpp.size() - 5, 5, "_like") == 0);
  if ((factory || like_or_new) && category != "dummy" && !has_tensor_options(f.func) &&
      schema_kind(f.func) != SchemaKind::Out)
    out.push_back(make_refusal(f, "python-binding-options",
                               torchgen_text(f.func) + ": dtype in tensor_options_args without output arg (its "
                               "Python binding, a factory's, adds dtype, layout, device, pin_memory and "
                               "requires_grad, and the operator takes no TensorOptions)"));
}

}  // namespace

void check_more(const TorchgenModel& model, const ReleaseRules& rules, std::vector<Refusal>& out) {
  std::set<std::string> out_of_place_bases;
  for (const auto& f : model.functions)
    if (!base_name(f.func).inplace) out_of_place_bases.insert(base_name(f.func).base);
  for (const auto& f : model.functions) {
    if (f.generated) continue;
    check_names(f, out_of_place_bases, rules, out);
    check_bindings(f, out);
  }
  if (!model.has_derivatives_yaml) return;
  for (const auto& info : model.derivatives) {
    check_grad_usage(info, out);
    const auto& od = info.output_differentiability;
    if (od && !od->conditions && od->length != info.func.returns.size())
      out.push_back(Refusal{{info.loc.file, od->line}, info.func.full_name(), "output-differentiability-length",
                            "The length of output_differentiability (" + std::to_string(od->length) +
                                "), does not match the number of outputs (" +
                                std::to_string(info.func.returns.size()) + ") of " + op_name(info.func),
                            std::string(kind_fix("output-differentiability-length"))});
  }
}

}  // namespace dispatchctl::torchgen
