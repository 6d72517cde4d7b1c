// The analyses of explain, query, report, trace, diff and check, called as
// the CLI's commands call them and returned as the documented JSON
// (schemas/*.schema.json) in Python values: the renderers' output, so every
// name, field and outcome is the CLI's. The option glue mirrors app/*.cpp.
#include <pybind11/stl.h>

#include "binding.h"
#include "builtin/builtin.h"
#include "check/check.h"
#include "diff/diff.h"
#include "explain/explain.h"
#include "explain/key_report.h"
#include "load/load_registry.h"
#include "registry/op_select.h"
#include "registry/schema_parser.h"
#include "render/diff_render.h"
#include "render/explain_render.h"
#include "render/findings_render.h"
#include "render/key_report_render.h"
#include "render/query_render.h"
#include "render/report_html.h"
#include "render/show_render.h"
#include "render/trace_render.h"
#include "report/coverage.h"
#include "table/table.h"
#include "trace/trace.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/join.h"

namespace dispatchctl::python {

namespace {

using Strings = std::vector<std::string>;

py::object explain(LoadedRegistry& loaded, const Strings& ops, const std::string& key) {
  const Registry& reg = *loaded.registry;
  const std::vector<const Operator*> selected = select_operators(reg, ops);
  const Key k = loaded.key(key);
  const std::string build_note = not_compiled_note(reg.catalogue(), loaded.build(), k);
  std::vector<OperatorKeyExplanation> explanations;
  for (const Operator* op : selected) explanations.push_back(explain_operator_key(reg, *op, k));
  return json_text_to_python(
      explain_json_document_text(reg, explanations, build_note, predicted_registry_note(reg.sources)));
}

py::object explain_key(LoadedRegistry& loaded, const std::string& key, const Strings& list, std::size_t limit,
                       const Strings& ops) {
  const Registry& reg = *loaded.registry;
  const Key k = loaded.key(key);
  const auto selected = ops.empty() ? reg.sorted_operators() : select_operators(reg, ops);
  KeyReportOptions options;
  options.limit = limit;
  for (const auto& name : list)
    for (auto& id : resolve_group(reg.catalogue(), k, name)) options.list.push_back(id);
  return to_python(key_report_json(reg, key_report(reg, k, selected), options));
}

struct QueryArgs {
  std::optional<std::string> key;
  bool registered, computed, works, fails, unknown;
  Strings tags, outcomes, registered_at, without, ops;
};

py::object query(LoadedRegistry& loaded, const QueryArgs& a) {
  const Registry& reg = *loaded.registry;
  Query q;
  if (a.key) q.key = loaded.key(*a.key);
  // As query --format json: --key's rows of the operators counted by outcome, a predicate or not.
  q.count_outcomes = q.key && !reg.catalogue().is_alias(*q.key);
  q.registered = a.registered;
  q.computed = a.computed;
  q.works = a.works;
  q.fails = a.fails;
  q.unknown = a.unknown;
  for (const auto& t : a.tags) q.tags.push_back(require_tag(t));
  for (const auto& o : a.outcomes) q.outcomes.push_back(require_outcome(o));
  for (const auto& k : a.registered_at) q.registered_at.push_back(loaded.key(k, "--registered-at"));
  for (const auto& k : a.without) q.without.push_back(loaded.key(k, "--without"));
  q.op_patterns = a.ops;
  if (!a.ops.empty()) select_operators(reg, a.ops);  // a pattern naming nothing: the CLI's error
  const QueryAnswer answer = answer_query(reg, q);
  std::optional<QueryOutcomes> counts;
  if (answer.counts) counts = QueryOutcomes{*q.key, *answer.counts};
  return json_text_to_python(query_json_text(reg, answer.found, answer.python_left_out, counts));
}

py::object trace(LoadedRegistry& loaded, const std::string& op, const CallOptions& call) {
  const Registry& reg = *loaded.registry;
  const Operator& target = one_operator(reg, op, "name one overload", "trace: ");
  const CallSetup setup = make_call_setup(reg.catalogue(), call);
  const Trace result = trace_call(reg, target, setup);
  auto doc = trace_json(reg, result, {false, setup.tls_steps, k_default_width});
  std::vector<Key> ran_at;
  for (const Hop& hop : result.hops) ran_at.push_back(hop.row.key);
  const std::string build_note = not_compiled_note(reg.catalogue(), loaded.build(), ran_at);
  const std::string registry_note = predicted_registry_note(reg.sources);
  if (!build_note.empty()) doc["build_note"] = build_note;
  if (!registry_note.empty()) doc["registry_note"] = registry_note;
  return to_python(doc);
}

py::object report(LoadedRegistry& loaded, const Strings& keys, const Strings& ops) {
  return json_text_to_python(coverage_json_text(build_coverage(*loaded.registry, {keys, ops})));
}

py::object show(LoadedRegistry& loaded, const Strings& ops, bool all_keys) {
  const Registry& reg = *loaded.registry;
  const std::vector<const Operator*> selected = select_operators(reg, ops);
  TableComputer computer(reg);
  std::vector<Key> shown;
  auto operators = nlohmann::ordered_json::array();
  for (const Operator* op : selected) {
    const std::vector<Row>& rows = computer.compute(*op);
    for (const Row& row : rows)
      if (row.valid() && std::find(shown.begin(), shown.end(), row.key) == shown.end()) shown.push_back(row.key);
    operators.push_back(show_json(reg, *op, rows, {all_keys, false}));
  }
  const std::string note = not_compiled_note(reg.catalogue(), loaded.build(), shown);
  return json_text_to_python(show_json_document_text(reg, note, std::move(operators), predicted_registry_note(reg.sources)));
}

std::string label(const Strings& sources) {
  std::string out;
  for (const auto& s : sources) out += (out.empty() ? "" : " + ") + s;
  return out;
}

py::object diff(const Strings& old_sources, const Strings& new_sources, const Strings& ops, const Strings& keys,
                bool locations, bool summary) {
  if (old_sources.empty() || new_sources.empty())
    throw InputError("diff needs both sides: 'dispatchctl diff OLD NEW' or --old … --new …");
  LogCapture log;
  auto before = load_registry(old_sources);
  auto after = load_registry(new_sources);
  const DiffResult result = diff_registries(*before, *after, {ops, keys, locations});
  py::object doc = json_text_to_python(diff_json_text(result, {summary, label(old_sources), label(new_sources), locations}));
  log.warn();
  return doc;
}

struct CheckArgs {
  Strings sources, require, ops, base;
  std::optional<std::string> config;
  std::string layering;
  bool warnings_as_errors, include_base, show_existing;
};

py::object check(const CheckArgs& a) {
  if (a.sources.empty()) throw InputError("check needs at least one MANIFEST (a file or builtin:VERSION)");
  const LoadRequest::Layering layering = layering_of(a.layering);
  const CheckOptions options = check_options({a.config.value_or(""), a.require, a.ops, a.base, "", "",
                                              a.warnings_as_errors, a.include_base, a.show_existing, layering});
  LogCapture log;
  CheckResult result = run_check(a.sources, options);
  py::dict doc = to_python(findings_json(result));
  doc["notes"] = py::cast(result.notes);
  doc["has_errors"] = result.has_errors();
  log.warn();
  return doc;
}

// Every call runs with the library's log captured (warnings become Python warnings).
template <typename F>
py::object logged(F call) {
  LogCapture log;
  py::object result = call();
  log.warn();
  return result;
}

}  // namespace

void bind_analyses(py::module_& module, py::class_<LoadedRegistry, RegistryHandle>& registry) {
  registry
      .def("show", [](const RegistryHandle& r, const Strings& ops, bool all_keys) {
        return logged([&] { return show(*r, ops, all_keys); });
      }, py::arg("ops"), py::arg("all_keys") = false,
         "`show OPS --format json`: the document, every operator the names or globs select ('*': all).")
      .def("explain", [](const RegistryHandle& r, const std::string& op, const std::string& key) {
        return logged([&] { return explain(*r, {op}, key); });
      }, py::arg("op"), py::arg("key"), R"doc(
`explain OP --key KEY --format json`: why each row is what it is, every rule of PyTorch's
table algorithm with its status and reason, call-time consequences and fixes.)doc")
      .def("explain_key", [](const RegistryHandle& r, const std::string& key, const Strings& list,
                             std::size_t limit, const Strings& ops) {
        return logged([&] { return explain_key(*r, key, list, limit, ops); });
      }, py::arg("key"), py::kw_only(), py::arg("list") = Strings{}, py::arg("limit") = 0, py::arg("ops") = Strings{},
         "`explain --key KEY --format json`: one key across the registry (outcome groups).")
      .def("query", [](const RegistryHandle& r, std::optional<std::string> key, bool registered, bool computed,
                       bool works, bool fails, bool unknown, const Strings& tags, const Strings& outcomes,
                       const Strings& registered_at, const Strings& without, const Strings& ops) {
        return logged([&] {
          return query(*r, {key, registered, computed, works, fails, unknown, tags, outcomes, registered_at, without, ops});
        });
      }, py::kw_only(), py::arg("key") = py::none(), py::arg("registered") = false, py::arg("computed") = false,
         py::arg("works") = false, py::arg("fails") = false, py::arg("unknown") = false, py::arg("tags") = Strings{},
         py::arg("outcomes") = Strings{}, py::arg("registered_at") = Strings{}, py::arg("without") = Strings{},
         py::arg("ops") = Strings{}, R"doc(
`query ... --json`: the operators for which every predicate given holds (the CLI's flags as
keywords: key, registered, computed, works, fails, unknown, tags, outcomes, registered_at,
without, ops). Returns {"count", "operators", ...}.)doc")
      .def("report", [](const RegistryHandle& r, const Strings& keys, const Strings& ops) {
        return logged([&] { return report(*r, keys, ops); });
      }, py::kw_only(), py::arg("keys") = Strings{}, py::arg("ops") = Strings{},
         "`report --format json`: the coverage model, operators x keys with outcomes and per-key counts.")
      .def("trace", [](const RegistryHandle& r, const std::string& op, const Strings& tensors,
                       const Strings& keysets, const Strings& autocast, bool inference_mode, bool no_grad,
                       const Strings& tls_include, const Strings& tls_exclude) {
        return logged([&] {
          return trace(*r, op, {tensors, keysets, {}, autocast, inference_mode, no_grad, tls_include, tls_exclude});
        });
      }, py::arg("op"), py::kw_only(), py::arg("tensors") = Strings{}, py::arg("keysets") = Strings{},
         py::arg("autocast") = Strings{}, py::arg("inference_mode") = false, py::arg("no_grad") = false,
         py::arg("tls_include") = Strings{}, py::arg("tls_exclude") = Strings{}, R"doc(
`trace OP --tensor ... --format json`: one call simulated through the live table: key sets,
hops, verdict ("outcome": completed, raised, handoff) and "assumed". The arguments are the
tensors, then the keysets.)doc");

  module.def("diff", [](const Strings& old_sources, const Strings& new_sources, const Strings& ops, const Strings& keys,
                        bool locations, bool summary) { return diff(old_sources, new_sources, ops, keys, locations, summary); }, py::arg("old"), py::arg("new"), py::kw_only(), py::arg("ops") = Strings{},
             py::arg("keys") = Strings{}, py::arg("locations") = false, py::arg("summary") = false,
             "`diff --old ... --new ... --format json`: what behaves differently between two registries.");
  module.def("check", [](const Strings& sources, const Strings& require, const Strings& ops, const Strings& base,
                         std::optional<std::string> config, const std::string& layering, bool warnings_as_errors,
                         bool include_base, bool show_existing) {
    return check({sources, require, ops, base, config, layering, warnings_as_errors, include_base, show_existing});
  }, py::arg("sources"), py::kw_only(), py::arg("require") = Strings{}, py::arg("ops") = Strings{},
     py::arg("base") = Strings{}, py::arg("config") = py::none(), py::arg("layering") = "auto",
     py::arg("warnings_as_errors") = false, py::arg("include_base") = false, py::arg("show_existing") = false,
     R"doc(
`check SOURCES --format json --no-config` (config=PATH: --config): findings with rule, severity,
operator, key, file, line; plus "notes" and "has_errors" (the CLI's exit status 1).)doc");
  module.def("rules_text", [] { return rules_text(); }, "`check --list-checks`: the rules, one per line.");
}

}  // namespace dispatchctl::python
