#include "render/show_render.h"

#include "render/json_document.h"

#include <map>

#include "builtin/builtin.h"
#include "table/kernel_kind.h"
#include "keys/key_summary.h"

namespace dispatchctl {

std::string_view tag_color(Rule rule, bool color) {
  if (!color) return "";
  switch (rule) {
    case Rule::Direct: return "\x1b[32m";
    case Rule::CompositeExplicitAutogradNonFunctional:
    case Rule::CompositeExplicitAutograd: return "\x1b[36m";
    case Rule::CompositeImplicitAutogradNestedTensor:
    case Rule::CompositeImplicitAutograd: return "\x1b[33m";
    case Rule::Autograd:
    case Rule::FuncTorchBatchedDecomposition: return "\x1b[35m";
    case Rule::BackendFallback: return "\x1b[2m";
    case Rule::AmbiguousAutogradOther:
    case Rule::Missing: return "\x1b[31m";
  }
  return "";
}

std::string_view color_reset(bool color) { return color ? "\x1b[0m" : ""; }

namespace {

struct Group {
  Rule rule;
  const Row* first;
  std::vector<Key> keys;
};

// Rows that share a rule and a registration are one group; all backend
// fallbacks form one group (two with fallthroughs).
std::vector<Group> group_rows(const std::vector<Row>& rows, bool all_keys) {
  std::vector<Group> groups;
  std::map<std::tuple<int, const void*, bool>, size_t> index;
  for (const Row& row : rows) {
    if (!row.valid() && !all_keys) continue;
    const void* identity = row.rule == Rule::BackendFallback ? nullptr : static_cast<const void*>(row.kernel);
    auto id = std::make_tuple(static_cast<int>(row.rule), identity, row.fallthrough());
    auto [it, inserted] = index.emplace(id, groups.size());
    if (inserted) groups.push_back({row.rule, &row, {}});
    groups[it->second].keys.push_back(row.key);
  }
  return groups;
}

bool is_builtin_origin(const Origin& origin) {
  return origin.file().rfind(k_builtin_prefix, 0) == 0;
}

std::string provenance(const Catalogue& cat, const Operator& op, const Group& g) {
  if (g.rule == Rule::BackendFallback)
    return g.keys.size() == 1 ? "backend fallback " + short_debug(g.first->debug())
                              : "the backend fallback registered for each of these keys (--format json names "
                                "each kernel)";
  if (g.rule == Rule::AmbiguousAutogradOther)
    return "CompositeImplicitAutograd plus a kernel on an autogradother backend: a call raises";
  if (g.rule == Rule::Missing) return "no kernel: a call that reaches these keys raises";
  std::string text;
  if (g.rule != Rule::Direct) text = cat.name(g.first->provider) + " ";
  if (g.first->kernel->fallthrough) text += "fallthrough ";
  text += short_debug(g.first->kernel->debug);
  if (is_python_kernel(*g.first->kernel) && !python_file_unrecorded(g.first->kernel->debug))
    text += " (python kernel)";
  if (const std::size_t registered = op.kernels_at(g.first->provider).size(); registered > 1)
    text += " (replaces " + std::to_string(registered - 1) + " earlier kernel" + (registered > 2 ? "s" : "") +
            " at this key)";
  if (!is_builtin_origin(g.first->kernel->origin)) text += " [" + g.first->kernel->origin.to_string() + "]";
  return text;
}

}  // namespace

void append_show_text(std::string& out, const Registry& registry, const Operator& op,
                      const std::vector<Row>& rows, const ShowOptions& options) {
  const Catalogue& cat = registry.catalogue();
  constexpr size_t k_tag_width = 24;
  constexpr size_t k_column = 2 + k_tag_width + 1;
  const size_t k_width = options.width;
  out += options.color ? "\x1b[1m" + op.name + "\x1b[0m\n" : op.name + "\n";
  out += "  schema: " + wrap_words(op.schema ? op.schema->text : Text("(none: a dangling impl)"), 10, 10, k_width) + "\n";

  std::map<Rule, int> counts;
  for (const Row& row : rows) ++counts[row.rule];
  std::string summary = "  " + std::to_string(rows.size()) + " runtime keys:";
  bool first = true;
  for (auto [rule, count] : counts) {
    summary += std::string(first ? " " : ", ") + std::to_string(count) + " " + std::string(tag_text(rule));
    first = false;
  }
  out += wrap_words(summary, 0, 4, k_width) + "\n\n";

  for (const Group& g : group_rows(rows, options.all_keys)) {
    std::string tag(tag_text(g.rule));
    if (g.rule == Rule::BackendFallback && g.first->fallthrough()) tag = "fallthrough fallback";
    out += "  ";
    out += tag_color(g.rule, options.color);
    out += tag;
    out += color_reset(options.color);
    out.append(tag.size() < k_tag_width ? k_tag_width - tag.size() + 1 : 1, ' ');
    const std::string keys = summarize_keys(cat, g.keys);
    const std::string where = provenance(cat, op, g);
    // One key and a short provenance fit on one line: "kernel   CPU  <- RegisterCPU_0.cpp:1307".
    if (g.keys.size() == 1 && k_column + keys.size() + 4 + where.size() <= k_width) {
      out += keys + "  <- " + where + "\n";
      continue;
    }
    out += wrap_words(keys, k_column, k_column, k_width) + "\n";
    out.append(k_column, ' ');
    out += "<- " + wrap_words(where, k_column + 3, k_column + 3, k_width) + "\n";
  }
}

std::string short_debug(std::string_view debug) {
  if (python_file_unrecorded(debug)) return "registered from Python (file not recorded)";
  return std::string(place_text(debug));
}

nlohmann::ordered_json key_names_json(const Catalogue& cat, const std::vector<Key>& keys) {
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (Key k : keys) names.push_back(cat.name(k));
  return names;
}

nlohmann::ordered_json row_json(const Catalogue& cat, const Row& row) {
  nlohmann::ordered_json j;
  j["key"] = cat.name(row.key);
  j["tag"] = tag_text(row.rule);
  j["tag_id"] = tag_id(row.rule);
  if (!row.valid()) return j;
  j["kernel"] = row.debug();
  j["fallthrough"] = row.fallthrough();
  j["source"] = row.rule == Rule::BackendFallback          ? "backend_fallback"
                : row.rule == Rule::AmbiguousAutogradOther ? "ambiguous"
                                                           : "registration";
  j["registered_at"] = cat.name(row.provider);
  j["language"] = language_id(row_language(row));
  const Origin* origin = row.fallback ? &row.fallback->origin
                         : (row.kernel && row.rule != Rule::AmbiguousAutogradOther) ? &row.kernel->origin
                                                                                    : nullptr;
  if (origin) j["origin"] = origin->to_string();
  return j;
}

nlohmann::ordered_json show_json(const Registry& registry, const Operator& op,
                                 const std::vector<Row>& rows, const ShowOptions& options) {
  const Catalogue& cat = registry.catalogue();
  nlohmann::ordered_json j;
  j["name"] = op.name;
  j["schema"] = op.schema ? nlohmann::ordered_json(op.schema->text) : nlohmann::ordered_json();
  nlohmann::ordered_json registrations = nlohmann::ordered_json::array();
  for (const auto& kk : op.by_key()) {
    bool active = true;
    for (auto index : kk.newest_first) {
      const Kernel& k = op.registrations[index];
      registrations.push_back({{"key", cat.name(kk.key)},
                               {"alias", cat.is_alias(kk.key)},
                               {"kernel", k.debug},
                               {"active", active},
                               {"fallthrough", k.fallthrough},
                               {"language", language_id(kernel_language(k))},
                               {"signature", k.signature ? nlohmann::ordered_json(*k.signature)
                                                         : nlohmann::ordered_json()},
                               {"origin", k.origin.to_string()}});
      active = false;
    }
  }
  j["registrations"] = std::move(registrations);
  nlohmann::ordered_json table = nlohmann::ordered_json::array();
  for (const Row& row : rows)
    if (row.valid() || options.all_keys) table.push_back(row_json(cat, row));
  j["rows"] = std::move(table);
  return j;
}

std::string show_json_document_text(const Registry& registry, const std::string& build_note,
                                    nlohmann::ordered_json operators, const std::string& registry_note) {
  nlohmann::ordered_json doc = json_document();
  doc["torch_version"] = registry.torch_version();
  if (!registry_note.empty()) doc["registry_note"] = registry_note;
  if (!build_note.empty()) doc["build_note"] = build_note;
  doc["operators"] = std::move(operators);
  return doc.dump(2) + "\n";
}

}  // namespace dispatchctl
