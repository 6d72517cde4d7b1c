#include "table/torch_messages.h"

#include "table/torch_text.h"
#include "registry/operator_name.h"

namespace dispatchctl {

namespace {

std::string with_op(std::string_view text, std::string_view op_name) {
  std::string out(text);
  if (const size_t at = out.find("{op}"); at != std::string::npos) out.replace(at, 4, op_name);
  return out;
}

std::string assert_prefix(std::string_view at) {
  return "0 INTERNAL ASSERT FAILED at " +
         (at.empty() ? std::string("\"./aten/src/ATen/core/boxing/KernelFunction.cpp\"") : std::string(at)) +
         ", please report a bug to PyTorch. ";
}

}  // namespace

std::vector<Key> available_keys(const std::vector<Row>& table) {
  std::vector<Key> out;
  for (const Row& row : table)
    if (row.key != k_undefined && row.valid()) out.push_back(row.key);
  return out;
}

std::string missing_row_headline(const Catalogue& cat, std::string_view op_name, Key k,
                                 std::string_view privateuse1_backend) {
  std::string out;
  if (k == k_undefined) {
    out += "There were no tensor arguments to this function (e.g., you passed an empty list of "
           "Tensors), but no fallback function is registered for schema ";
    out += op_name;
    out += ".  This usually means that this function requires a non-empty list of Tensors, or that "
           "you (the operator writer) forgot to register a fallback function.";
    return out;
  }
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string.
  out += "Could not run '";
  out += op_name;
  out += "' with arguments from the '";
  std::string key_name = cat.name(k);
  constexpr std::string_view k_privateuse1 = "PrivateUse1";
  if (const size_t at = key_name.find(k_privateuse1); !privateuse1_backend.empty() && at != std::string::npos)
    key_name.replace(at, k_privateuse1.size(), privateuse1_backend);
  out += key_name;
  out += "' backend";
  return out;
}

std::string missing_row_error(const Catalogue& cat, const Operator& op, Key k, const std::vector<Row>& table,
                              const std::vector<Key>& available, std::string_view privateuse1_backend) {
  std::string list = "[";
  for (size_t i = 0; i < available.size(); ++i) {
    if (i) list += ", ";
    list += cat.name(available[i]);
  }
  list += "]";
  std::string out = missing_row_headline(cat, op.name, k, privateuse1_backend);
  if (k == k_undefined) {
    out += "  Available functions are ";
  } else {
    out += ". This could be because the operator doesn't exist for this backend, or was "
           "omitted during the selective/custom build process (if using custom build). If you are a "
           "Facebook employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
           "possible resolutions. '";
    out += op.name;
    out += "' is only available for these backends: ";
  }
  out += list;
  out += ".";
  out += "\n\n";
  append_torch_table(out, cat, table);
  return out;
}

std::string meta_fallback_error(const Catalogue& cat, std::string_view op_name) {
  return with_op(cat.spec().meta_fallback_error, op_name);
}

std::string autograd_fallback_warning(const Catalogue& cat, std::string_view op_name) {
  return with_op(cat.spec().autograd_fallback_backward_warning, op_name);
}

std::string ambiguous_autogradother_error(const Catalogue& cat, const Operator& op) {
  const ReleaseSpec& spec = cat.spec();
  std::string state;
  append_torch_state(state, cat, op);
  return assert_prefix(spec.ambiguous_assert_at) + op.name +
         " has kernels registered to both CompositeImplicitAutograd and a backend "
         "mapped to AutogradOther. This makes the backend kernel unreachable; the "
         "dispatcher will always prefer the CompositeImplicitAutograd lowering (see "
         "Note [Ambiguity in AutogradOther kernel]). If you want to override "
         "CompositeImplicitAutograd, please open an issue to request a dedicated "
         "Autograd dispatch key for the backend.\n" +
         std::string(spec.ambiguous_autogradother_hint) + "\nCanonical state\n~~~~~~~~~~~\n" + state + "\n\n";
}

std::string fallthrough_called_error(const Catalogue& cat) {
  return assert_prefix(cat.spec().fallthrough_assert_at) +
         "fallthrough_kernel was executed but it should have been short-circuited by "
         "the dispatcher. This could occur if you registered a fallthrough kernel as "
         "a override for a specific operator (as opposed to a backend fallback); this "
         "is NOT currently supported, and we do not intend to add support for it in "
         "the near future.  If you do find yourself in need of this, let us know in "
         "the bug tracker.";
}

std::string out_requires_grad_error(std::string_view op_name) {
  // torchgen passes the operator's base name: aten::add.out -> "add".
  return std::string(bare_operator_name(op_name)) +
         "(): functions with out=... arguments don't support automatic differentiation, but one of the "
         "arguments requires grad.";
}

std::string named_not_supported_error(std::string_view op_name) {
  return std::string(op_name.substr(0, op_name.find('.'))) +
         " is not yet supported with named tensors. Please drop names via `tensor = tensor.rename(None)`, call the "
         "op with an unnamed tensor, and set names on the result of the operation.";
}

}  // namespace dispatchctl
