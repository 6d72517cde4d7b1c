// The parts of a PyTorch operator name, NAMESPACE::NAME[.OVERLOAD]
// ("aten::add.Tensor"), in one place: the dispatcher keys operators by the
// qualified name, torchgen's YAML and its messages use the name without the
// namespace, and PyTorch's autograd errors the name without the overload.
#pragma once

#include <string>
#include <string_view>

namespace dispatchctl {

// "aten::add.Tensor" -> "add.Tensor"; a name without a namespace comes back whole.
constexpr std::string_view without_namespace(std::string_view name) {
  const size_t sep = name.find("::");
  return sep == std::string_view::npos ? name : name.substr(sep + 2);
}

// "aten::add.Tensor" -> "add": torchgen's base name, what PyTorch's autograd
// errors print.
constexpr std::string_view bare_operator_name(std::string_view name) {
  const std::string_view unqualified = without_namespace(name);
  return unqualified.substr(0, unqualified.find('.'));
}

// "aten::add.Tensor" -> "aten::add"; "aten::add" stays as it is.
constexpr std::string_view without_overload(std::string_view name) {
  const size_t sep = name.find("::");
  return name.substr(0, name.find('.', sep == std::string_view::npos ? 0 : sep + 2));
}

// "add.Tensor" -> "aten::add.Tensor" (torchgen's YAML names aten operators
// without their namespace); a qualified name comes back as it is.
inline std::string qualified_name(std::string_view name, std::string_view default_namespace = "aten") {
  if (name.find("::") != std::string_view::npos) return std::string(name);
  std::string out(default_namespace);
  out += "::";
  out += name;
  return out;
}

// "aten::split.Tensor" -> "aten::split_copy.Tensor": the NAME_copy operator
// torchgen pairs with a view (its view_copy variant keeps the overload name).
inline std::string view_copy_name(std::string_view view) {
  const size_t sep = view.find("::");
  const size_t dot = view.find('.', sep == std::string_view::npos ? 0 : sep + 2);
  if (dot == std::string_view::npos) return std::string(view) + "_copy";
  return std::string(view.substr(0, dot)) + "_copy" + std::string(view.substr(dot));
}

// NAMESPACE::NAME[.OVERLOAD] with both parts present and no space, what a
// manifest must spell.
constexpr bool is_qualified_operator_name(std::string_view name) {
  const size_t sep = name.find("::");
  return sep != std::string_view::npos && sep != 0 && sep + 2 < name.size() && name.find(' ') == std::string_view::npos;
}

}  // namespace dispatchctl
