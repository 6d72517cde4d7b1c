#include "load/operator_set.h"

#include <algorithm>

#include "builtin/opsets.h"
#include "registry/op_select.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/join.h"
#include "registry/operator_name.h"

namespace dispatchctl {

namespace {
constexpr std::string_view k_default_suffix = ".default";

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}
}  // namespace

OperatorSet parse_operator_list(std::string_view text, const std::string& where) {
  OperatorSet set;
  set.label = where;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_no;
    line = trimmed(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const std::string at = where + ":" + std::to_string(line_no) + ": ";
    if (is_glob(line))
      throw InputError(at + "'" + std::string(line) + "' is a pattern; an operator list holds exact overload " +
                       "names, one a line (aten::add.Tensor; aten::addmm for the default overload)");
    std::string name = canonical_op_pattern(line);
    if (name.find("::") == std::string::npos || name.find_first_of(" \t,") != std::string::npos)
      throw InputError(at + "'" + std::string(line) + "' is not an operator name; write one overload a line " +
                       "with its namespace, e.g. aten::add.Tensor");
    if (name.size() > k_default_suffix.size() && name.ends_with(k_default_suffix))
      name.resize(name.size() - k_default_suffix.size());
    set.names.push_back(std::move(name));
  }
  std::sort(set.names.begin(), set.names.end());
  set.names.erase(std::unique(set.names.begin(), set.names.end()), set.names.end());
  if (set.names.empty())
    throw InputError(where + ": no operator names; write one overload a line (tools/record-model-ops.py records a " +
                     "model's)");
  return set;
}

OperatorSet read_operator_list(const std::string& path) {
  return parse_operator_list(read_input_file(path), path == "-" ? std::string("<stdin>") : path);
}

OperatorSet builtin_operator_set(const std::string& torch_version, const std::string& name) {
  const BuiltinOpset* opset = find_builtin_opset(torch_version, name);
  const std::string release = torch_version.substr(0, torch_version.find('+'));
  if (!opset)
    throw InputError("--opset " + name + ": no '" + name + "' opset is recorded for PyTorch " + release +
                     " (recorded: " + builtin_opset_names() + "); record your torch's with `python3 " +
                     "tools/record-model-ops.py --tag " + name + " -o " + name + ".txt` and pass --ops-from " +
                     name + ".txt");
  OperatorSet set = parse_operator_list(opset->list, "opset-" + name + ".txt of " + release);
  set.label = "the " + name + " opset of PyTorch " + release;
  return set;
}

std::string exact_pattern(std::string_view name) {
  const bool bare = without_overload(name).size() == name.size();
  return std::string(name) + (bare ? std::string(k_default_suffix) : "");
}

OperatorSetInRegistry find_operator_set(const Registry& registry, const OperatorSet& set) {
  OperatorSetInRegistry out;
  for (const std::string& name : set.names) {
    if (registry.find(name)) out.patterns.push_back(exact_pattern(name));
    else out.absent.push_back(name);
  }
  return out;
}

std::string absent_operators_note(const Registry& registry, const OperatorSet& set,
                                  const std::vector<std::string>& absent) {
  if (absent.empty()) return "";
  const std::string source = registry.sources.empty() ? "the registry" : join(registry.sources, " + ");
  std::vector<std::string> shown(absent.begin(), absent.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(absent.size(), 8)));
  return std::to_string(absent.size()) + " operator" + (absent.size() == 1 ? " of " : "s of ") + set.label +
         (absent.size() == 1 ? " is" : " are") + " not in " + source + " (left out): " + join(shown) +
         (absent.size() > shown.size() ? ", …" : "");
}

}  // namespace dispatchctl
