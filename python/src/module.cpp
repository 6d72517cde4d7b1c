// The extension module dispatchctl._dispatchctl: InputError, load() and the
// helpers every binding file shares. Every entry point runs the library
// under pybind11's exception translation: an InputError becomes
// dispatchctl.InputError (a ValueError) with the CLI's one-line message, any
// other C++ exception a RuntimeError; nothing aborts the interpreter.
#include <pybind11/stl.h>

#include "binding.h"
#include "builtin/builtin.h"
#include "builtin/builtin_catalogues.h"
#include "load/load_registry.h"
#include "load/source_spec.h"
#include "registry/key_lookup.h"
#include "registry/op_select.h"
#include "util/errors.h"
#include "util/log.h"

namespace dispatchctl::python {

py::object to_python(const nlohmann::ordered_json& json) {
  using Type = nlohmann::ordered_json::value_t;
  switch (json.type()) {
    case Type::boolean: return py::bool_(json.get<bool>());
    case Type::number_integer: return py::int_(json.get<std::int64_t>());
    case Type::number_unsigned: return py::int_(json.get<std::uint64_t>());
    case Type::number_float: return py::float_(json.get<double>());
    case Type::string: return py::str(json.get_ref<const std::string&>());
    case Type::array: {
      py::list list;
      for (const auto& item : json) list.append(to_python(item));
      return list;
    }
    case Type::object: {
      py::dict dict;
      for (const auto& [name, value] : json.items()) dict[py::str(name)] = to_python(value);
      return dict;
    }
    default: return py::none();  // null (binary and discarded values are never rendered)
  }
}

py::object json_text_to_python(const std::string& text) { return to_python(nlohmann::ordered_json::parse(text)); }

const BuildBackends& LoadedRegistry::build() {
  if (!build_) build_ = build_of(*registry);
  return *build_;
}

std::vector<Row> LoadedRegistry::table(const Operator& op) {
  if (!tables_) tables_ = std::make_unique<TableComputer>(*registry);  // the registry is complete: never changes
  return tables_->compute(op);
}

OutcomeFollower& LoadedRegistry::follower() {
  // The registry never changes once loaded; the GIL serialises the memo's use.
  if (!follower_) follower_ = std::make_unique<OutcomeFollower>(*registry, computed_row_of(*registry));
  return *follower_;
}

Key LoadedRegistry::key(std::string_view name, const std::string& where) {
  const bool cached = where == "--key";
  if (cached)
    if (auto found = keys_.find(name); found != keys_.end()) return found->second;
  const Key k = require_key(registry->catalogue(), name, where, &builtin_releases());
  if (cached) keys_.emplace(std::string(name), k);
  return k;
}

LogCapture::LogCapture() {
  set_log_sink(
      [this](LogLevel level, std::string_view message) {
        (level == LogLevel::warning ? warnings_ : notes).emplace_back(message);
      },
      LogLevel::note);
}

LogCapture::~LogCapture() { set_log_sink({}, LogLevel::warning); }

void LogCapture::warn() const {
  if (warnings_.empty()) return;
  py::object warn = py::module_::import("warnings").attr("warn");
  for (const std::string& warning : warnings_) warn(warning, py::module_::import("builtins").attr("UserWarning"), 3);
}

const Operator& one_operator(const Registry& registry, std::string_view name, const std::string& refusal,
                             const std::string& prefix) {
  if (const Operator* exact = registry.find(name)) return *exact;  // a full name: no canonical copy
  if (const Operator* exact = registry.find(canonical_op_pattern(name))) return *exact;
  const std::vector<const Operator*> selected = select_operators(registry, {std::string(name)});  // InputError for none
  if (selected.size() != 1)
    throw InputError(prefix + "'" + std::string(name) + "' names " + std::to_string(selected.size()) + " operators; " + refusal + ", e.g. '" +
                     std::string(selected.front()->name) + "'");
  return *selected.front();
}

LoadRequest::Layering layering_of(const std::string& layering) {
  if (const auto named = layering_named(layering)) return *named;
  throw InputError("layering '" + layering + "': use auto, builtin or bare (as --layer)");
}

namespace {

RegistryHandle load(const std::vector<std::string>& sources, const std::string& layering,
                    const std::optional<std::vector<std::string>>& ops) {
  LoadRequest request{sources, layering_of(layering)};
  // As show OP loads: a built-in registry then reads only the records the patterns can match.
  if (ops) request.only = operators_matching(*ops);
  auto loaded = std::make_shared<LoadedRegistry>();
  LogCapture log;
  loaded->registry = load_registry(request);
  loaded->notes = log.notes;
  log.warn();
  return loaded;
}

}  // namespace

}  // namespace dispatchctl::python

PYBIND11_MODULE(_dispatchctl, module) {
  using namespace dispatchctl;
  using namespace dispatchctl::python;
  module.doc() = "dispatchctl's library: PyTorch dispatch tables computed as PyTorch computes them";
  py::register_exception<InputError>(module, "InputError", PyExc_ValueError);

  py::class_<LoadedRegistry, RegistryHandle> registry(module, "Registry", R"doc(
A loaded registry: every source layered in order, as `-m` layers them.

Tables, rows and operators are views into it; it stays alive while any of them does.)doc");
  registry
      .def_property_readonly("torch_version", [](const LoadedRegistry& r) { return r.registry->torch_version(); },
                             "The PyTorch release of the registry (the first source's), e.g. '2.14.1'.")
      .def_property_readonly("sources", [](const LoadedRegistry& r) { return r.registry->sources; },
                             "The sources loaded, in order.")
      .def_property_readonly("notes", [](const LoadedRegistry& r) { return r.notes; },
                             "What loading said (the notes the CLI prints on stderr), e.g. how a manifest was layered.")
      .def("runtime_keys", [](const LoadedRegistry& r) {
        const Catalogue& cat = r.registry->catalogue();
        std::vector<std::string> names;
        for (Key k : cat.runtime_keys()) names.push_back(cat.name(k));
        return names;
      }, "The release's runtime keys in table order (the keys a table has rows for).")
      .def("__repr__", [](const LoadedRegistry& r) {
        std::string sources;
        for (const std::string& s : r.registry->sources) sources += (sources.empty() ? "" : " + ") + s;
        return "<Registry " + sources + " (torch " + r.registry->torch_version() + "): " +
               std::to_string(r.registry->operators().size()) + " operators>";
      });
  bind_views(module, registry);
  bind_analyses(module, registry);

  module.def("load", &load, py::arg("sources"), py::arg("layering") = "auto", py::arg("ops") = py::none(), R"doc(
Load and layer SOURCES as `-m` does: builtin:VERSION, a manifest file, python[:INTERPRETER],
torchgen:PATH[?build-backends=LIST], torchgen-backend:FILE. None: the default (newest) built-in registry.
layering: 'auto' (a partial first manifest goes over its release's built-in registry), 'builtin' or 'bare'.
ops: only the operators these names or globs can match (built-in registries read only their records).
Raises InputError with the CLI's message for bad input.)doc");
  module.def(
      "builtin_registries",
      [] {
        std::vector<std::string> names;
        for (const BuiltinRegistry& b : builtin_registries()) names.push_back(std::string(k_builtin_prefix) + std::string(b.version));
        return names;
      },
      "The built-in registries' names, newest first ('builtin:2.14.1', ...).");
  module.attr("DEFAULT_REGISTRY") = std::string(k_default_registry);
}
