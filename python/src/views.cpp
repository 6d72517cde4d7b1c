// The hot path as views over the registry, never JSON round trips:
// operators, computed tables (Table: key name -> Row), rows (fields named as
// in `show --format json`'s rows, plus `outcome` from table/outcome.h) and
// has_kernel, answered by query/has_kernel.h as the CLI answers.
#include <pybind11/stl.h>

#include "binding.h"
#include "builtin/builtin.h"
#include "query/has_kernel.h"
#include "query/has_kernel_backward.h"
#include "render/has_kernel_render.h"
#include "render/show_render.h"
#include "table/outcome.h"
#include "util/errors.h"

namespace dispatchctl::python {

namespace {

// One computed row of one operator; its fields are read on access.
struct RowView {
  RegistryHandle owner;
  const Operator* op;
  Row row;

  const Catalogue& cat() const { return owner->registry->catalogue(); }
  // The row as `show --format json` renders it (render/show_render.h's
  // row_json: one definition of every field) plus its outcome.
  nlohmann::ordered_json json() const {
    nlohmann::ordered_json j = row_json(cat(), row);
    j["outcome"] = outcome();
    return j;
  }
  std::string outcome() const {
    return std::string(outcome_id(owner->follower().classify(*op, row).outcome));
  }
  py::object field(const char* name) const {
    const nlohmann::ordered_json j = row_json(cat(), row);
    const auto found = j.find(name);
    return found == j.end() ? py::none() : to_python(*found);
  }
};

// An operator's computed table: every runtime key in table order, the
// missing rows shown only when asked for (as --all-keys).
struct TableView {
  RegistryHandle owner;
  const Operator* op;
  std::vector<Row> rows;  // every runtime key (compute_table)
  bool all_keys = false;

  bool shown(const Row& row) const { return all_keys || row.valid(); }
  const Row* find(const std::string& key) const {
    const Catalogue& cat = owner->registry->catalogue();
    for (const Row& row : rows)
      if (shown(row) && cat.name(row.key) == key) return &row;
    return nullptr;
  }
  RowView at(const std::string& key) const {
    const Row* row = find(key);
    if (!row) throw py::key_error(key);
    return RowView{owner, op, *row};
  }
  std::vector<std::string> keys() const {
    std::vector<std::string> names;
    for (const Row& row : rows)
      if (shown(row)) names.push_back(owner->registry->catalogue().name(row.key));
    return names;
  }
  std::vector<RowView> values() const {
    std::vector<RowView> views;
    for (const Row& row : rows)
      if (shown(row)) views.push_back(RowView{owner, op, row});
    return views;
  }
};

struct OperatorView {
  RegistryHandle owner;
  const Operator* op;
};

TableView table_of(const RegistryHandle& owner, const Operator& op, bool all_keys) {
  return TableView{owner, &op, owner->table(op), all_keys};
}

const char* k_one_for_has_kernel = "has-kernel answers for one";

HasKernelResult answer(LoadedRegistry& loaded, const std::string& op, const std::string& key, bool computed,
                       bool works) {
  if (computed && works) throw InputError("--computed and --works ask different questions; use one");
  const Registry& reg = *loaded.registry;
  const HasKernelQuestion question = computed ? HasKernelQuestion::Computed
                                     : works  ? HasKernelQuestion::Works
                                              : HasKernelQuestion::Registered;
  return answer_has_kernel(reg, one_operator(reg, op, k_one_for_has_kernel), loaded.key(key), question,
                           loaded.build());
}

}  // namespace

void bind_views(py::module_& module, py::class_<LoadedRegistry, RegistryHandle>& registry) {
  py::class_<RowView>(module, "Row", R"doc(
One row of a computed dispatch table, read from the registry on access.

Fields as in `dispatchctl show --format json` rows: key, tag, tag_id, kernel, fallthrough, source,
registered_at, language, origin (None on a missing row, as the JSON leaves them out), plus outcome
(direct, composite, fallback, ... as report and query name them).)doc")
      .def_property_readonly("key", [](const RowView& r) { return r.cat().name(r.row.key); }, "The runtime key.")
      .def_property_readonly("tag", [](const RowView& r) { return r.field("tag"); }, "PyTorch's tag, e.g. 'math kernel'.")
      .def_property_readonly("tag_id", [](const RowView& r) { return r.field("tag_id"); }, "The tag as an id, e.g. 'math_kernel'.")
      .def_property_readonly("kernel", [](const RowView& r) { return r.field("kernel"); }, "The kernel's debug text.")
      .def_property_readonly("fallthrough", [](const RowView& r) { return r.field("fallthrough"); })
      .def_property_readonly("source", [](const RowView& r) { return r.field("source"); },
                             "registration, backend_fallback or ambiguous.")
      .def_property_readonly("registered_at", [](const RowView& r) { return r.field("registered_at"); },
                             "The key the registration sits at (an alias key for alias rules).")
      .def_property_readonly("language", [](const RowView& r) { return r.field("language"); })
      .def_property_readonly("origin", [](const RowView& r) { return r.field("origin"); },
                             "Where the registration came from (file:line, builtin:VERSION:N).")
      .def_property_readonly("outcome", &RowView::outcome, "What a call reaching the row runs (table/outcome.h).")
      .def_property_readonly("valid", [](const RowView& r) { return r.row.valid(); }, "False for a missing row.")
      .def("to_dict", [](const RowView& r) { return to_python(r.json()); },
           "The row as `show --format json` renders it, plus 'outcome'.")
      .def("__getitem__", [](const RowView& r, const std::string& name) {
        const nlohmann::ordered_json j = r.json();
        const auto found = j.find(name);
        if (found == j.end()) throw py::key_error(name);
        return to_python(*found);
      })
      .def("__repr__", [](const RowView& r) {
        return "<Row " + r.cat().name(r.row.key) + ": " + std::string(tag_text(r.row.rule)) + ">";
      });

  py::class_<TableView>(module, "Table", R"doc(
An operator's computed dispatch table: a mapping from runtime key name to Row, in table order
(Undefined first), holding the rows `show` shows (every key with all_keys=True).)doc")
      .def_property_readonly("operator", [](const TableView& t) { return std::string(t.op->name); })
      .def("__getitem__", &TableView::at)
      .def("__contains__", [](const TableView& t, const std::string& key) { return t.find(key) != nullptr; })
      .def("__len__", [](const TableView& t) { return t.keys().size(); })
      .def("__iter__", [](const TableView& t) { return py::iter(py::cast(t.keys())); })
      .def("keys", &TableView::keys, "The keys with a row, in table order.")
      .def("values", &TableView::values, "The rows, in table order.")
      .def("items", [](const TableView& t) {
        std::vector<std::pair<std::string, RowView>> items;
        for (const RowView& r : t.values()) items.emplace_back(r.cat().name(r.row.key), r);
        return items;
      })
      .def("get", [](const TableView& t, const std::string& key, py::object otherwise) -> py::object {
        const Row* row = t.find(key);
        return row ? py::cast(RowView{t.owner, t.op, *row}) : otherwise;
      }, py::arg("key"), py::arg("default") = py::none())
      .def("to_list", [](const TableView& t) {
        py::list rows;
        for (const RowView& r : t.values()) rows.append(to_python(r.json()));
        return rows;
      }, "The rows as `show --format json` renders them (each with its 'outcome').")
      .def("__repr__", [](const TableView& t) {
        return "<Table " + std::string(t.op->name) + ": " + std::to_string(t.keys().size()) + " rows>";
      });

  py::class_<OperatorView>(module, "Operator", "An operator of the registry: its name, schema and registrations.")
      .def_property_readonly("name", [](const OperatorView& o) { return std::string(o.op->name); })
      .def_property_readonly("schema", [](const OperatorView& o) -> py::object {
        if (!o.op->schema) return py::none();
        return py::str(std::string(o.op->schema->text));
      })
      .def_property_readonly("registrations", [](const OperatorView& o) {
        // show_json's registrations: the same fields as `show --format json`.
        return to_python(show_json(*o.owner->registry, *o.op, {}, {})["registrations"]);
      }, "Every registration, per key newest first, as `show --format json` lists them.")
      .def("table", [](const OperatorView& o, bool all_keys) { return table_of(o.owner, *o.op, all_keys); },
           py::arg("all_keys") = false, "The computed table (Registry.table).")
      .def("__repr__", [](const OperatorView& o) { return "<Operator " + std::string(o.op->name) + ">"; });

  registry
      .def("operators", [](const RegistryHandle& r) {
        std::vector<std::string> names;
        for (const Operator* op : r->registry->sorted_operators()) names.emplace_back(op->name);
        return names;
      }, "Every operator's name, sorted.")
      .def("__len__", [](const RegistryHandle& r) { return r->registry->operators().size(); })
      .def("__contains__", [](const RegistryHandle& r, const std::string& name) {
        return r->registry->find(name) != nullptr;
      })
      .def("operator", [](const RegistryHandle& r, const std::string& name) {
        return OperatorView{r, &one_operator(*r->registry, name, "name one overload")};
      }, py::arg("op"), "The operator OP names (full name, bare name with an unnamed overload, torch.ops spelling).")
      .def("table", [](const RegistryHandle& r, const std::string& op, bool all_keys) {
        return table_of(r, one_operator(*r->registry, op, "name one overload"), all_keys);
      }, py::arg("op"), py::arg("all_keys") = false, R"doc(
OP's computed dispatch table (`show OP --format json`'s rows): table['Meta'] is the Meta row.
all_keys: also the missing rows (--all-keys).)doc")
      .def("has_kernel", [](const RegistryHandle& r, std::string_view op, std::string_view key, bool computed,
                            bool works) {
        // The yes/no questions straight from their definitions (query/predicates.h), without the
        // answer's sentence and notes: the hot path. --works needs the whole answer (outcomes).
        if (!works) {
          const Registry& reg = *r->registry;
          const Operator& o = one_operator(reg, op, k_one_for_has_kernel);
          const Key k = r->key(key);
          return computed ? has_computed_kernel_for_dispatch_key(reg, o, k) : has_kernel_for_dispatch_key(o, k);
        }
        return answer(*r, std::string(op), std::string(key), computed, works).answer == HasKernelAnswer::Yes;
      }, py::arg("op"), py::arg("key"), py::kw_only(), py::arg("computed") = false, py::arg("works") = false, R"doc(
`has-kernel OP --key KEY`: torch._C._dispatch_has_kernel_for_dispatch_key; computed=True:
_dispatch_has_computed_kernel_for_dispatch_key; works=True: does a call reaching KEY's row return.
True only for yes (unknown, a Python kernel, is False, as the CLI's exit status); has_kernel_answer
says which.)doc")
      .def("has_kernel_answer", [](const RegistryHandle& r, const std::string& op, const std::string& key,
                                   bool computed, bool works) {
        HasKernelResult result = answer(*r, op, key, computed, works);
        result.registry_note = predicted_registry_note(r->registry->sources);
        // As the CLI's --works: the backward's answer beside the forward's.
        if (works) result.backward = answer_has_kernel_backward(*r->registry, *result.op, result.key, result);
        return to_python(has_kernel_json(*r->registry, result));
      }, py::arg("op"), py::arg("key"), py::kw_only(), py::arg("computed") = false, py::arg("works") = false,
         "The whole answer as `has-kernel --format json` gives it (answer: yes, no or unknown; text; row ...).");
}

}  // namespace dispatchctl::python
