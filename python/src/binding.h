// What the binding's files share: the loaded registry every view holds on to,
// the JSON → Python conversion, the log capture around each library call and
// how a command-line OP argument names one operator (as has-kernel and trace do).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "inventory/registry_build.h"
#include "load/load_registry.h"
#include "query/predicates.h"
#include "registry/registry.h"
#include "table/outcome.h"
#include "table/table.h"

namespace dispatchctl::python {

namespace py = pybind11;

// The documented JSON as Python values (dicts keep the renderers' field order).
py::object to_python(const nlohmann::ordered_json& json);
// A renderer's JSON document text, parsed once into Python values.
py::object json_text_to_python(const std::string& text);

// A registry as loaded, owned by the Python object; tables, rows and operators
// hold this handle, so a view never outlives what it points into.
struct LoadedRegistry {
  std::unique_ptr<Registry> registry;
  std::vector<std::string> notes;  // what the loader said (the CLI's stderr notes)
  // build_of(): worked out once per registry (has_kernel's hot path).
  const BuildBackends& build();
  // OP's computed table, through one TableComputer as show computes many
  // (the rows no registration reaches are worked out once per registry).
  std::vector<Row> table(const Operator& op);
  // require_key with the CLI's "--key" wording, each name looked up once.
  Key key(std::string_view name, const std::string& where = "--key");
  // The one follower of every Row view's outcome (one memo per registry, as a
  // CLI command has one per run): a callee's row is followed once, not per row.
  OutcomeFollower& follower();

 private:
  std::unique_ptr<OutcomeFollower> follower_;
  std::optional<BuildBackends> build_;
  std::unique_ptr<TableComputer> tables_;
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, Key, NameHash, std::equal_to<>> keys_;  // --key names, found without a copy
};
using RegistryHandle = std::shared_ptr<LoadedRegistry>;

// load()'s and check()'s layering argument, as --layer takes it; InputError for another word.
LoadRequest::Layering layering_of(const std::string& layering);

// Collects what the library logs during one call (the library never prints):
// notes are kept for the caller, warnings become Python warnings.
class LogCapture {
 public:
  LogCapture();
  ~LogCapture();
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;
  std::vector<std::string> notes;
  // Issues the collected warnings with Python's warnings module (after the
  // library call returned, holding the GIL).
  void warn() const;

 private:
  std::vector<std::string> warnings_;
};

// The one operator OP names, as has-kernel and trace take it: a full name, a
// bare name with an unnamed overload, a Python spelling; several is an
// InputError naming the first, worded as the command's (`prefix` "trace: ",
// `refusal` "has-kernel answers for one").
const Operator& one_operator(const Registry& registry, std::string_view name, const std::string& refusal,
                             const std::string& prefix = "");

void bind_views(py::module_& module, py::class_<LoadedRegistry, RegistryHandle>& registry);
void bind_analyses(py::module_& module, py::class_<LoadedRegistry, RegistryHandle>& registry);

}  // namespace dispatchctl::python
