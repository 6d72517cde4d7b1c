#include "render/key_report_render.h"

#include <algorithm>

#include <fmt/format.h>

#include "table/outcome.h"
#include "render/outcome_render.h"
#include "keys/key_summary.h"
#include "render/show_render.h"
#include "render/json_document.h"
#include "util/join.h"

namespace dispatchctl {

namespace {

std::string percent(std::size_t count, std::size_t total) {
  return total == 0 ? "0.0%" : fmt::format("{:.1f}%", 100.0 * static_cast<double>(count) / static_cast<double>(total));
}

void field(std::string& out, const std::string& name, const std::string& text, int width) {
  out += fmt::format("  {:<10} ", name) + wrap_words(text, 13, 13, static_cast<size_t>(width)) + "\n";
}

std::string fallback_text(const KeyReport& r) {
  if (!r.fallback) return "none (operators without a kernel here have a missing row)";
  std::string out = (r.fallback->fallthrough ? "fallthrough " : "") + r.fallback->debug;
  if (!r.fallback_does.empty()) out += " (" + r.fallback_does + ")";
  return out;
}

void append_header(std::string& out, const Catalogue& cat, const KeyReport& r, int width) {
  if (r.alias) {
    field(out, "kind", "alias key: kernels registered here are copied into the rows of the keys it covers "
                       "(precedence CEANF > CEA > CIANT > CIA > Autograd > FTBD)", width);
    field(out, "covers", std::to_string(r.covers.size()) + " runtime keys: " + summarize_keys(cat, r.covers), width);
    return;
  }
  // Counted as people count (Undefined is row 1); JSON keeps the 0-based slot as table_index.
  std::string position = "row " + std::to_string(r.table_index + 1) + " of " + std::to_string(r.table_size) +
                         " in the runtime key order (row 1 is Undefined; lowest dispatch priority first)";
  if (r.has_lower) position += ", after " + cat.name(r.lower);
  if (r.has_higher) position += ", before " + cat.name(r.higher);
  field(out, "position", position, width);
  if (r.key != k_undefined) {
    std::string kind = r.backend ? "functionality " + cat.name(r.functionality) + " (per-backend), backend " +
                                       std::string(cat.spec().backends[r.backend - 1])
                                 : "functionality key";
    if (!r.python_parseable) kind += "; PyTorch's parseDispatchKey rejects this name";
    field(out, "kind", kind, width);
  }
  const std::string aliases = join(r.covering_aliases, ", ", [&cat](Key a) { return cat.name(a); });
  field(out, "aliases", aliases.empty() ? "none cover it" : aliases + " (precedence order)", width);
  field(out, "fallback", fallback_text(r), width);
  if (cat.functionality_of(r.key) == cat.well_known().autograd_functionality ||
      r.key == cat.well_known().autograd_other || r.key == cat.well_known().autograd_nested_tensor)
    field(out, "backends", r.autograd_backends.empty()
                               ? "none: no backend kernel blocks the math kernel here [a PyTorch quirk]"
                               : "kernels at " + summarize_keys(cat, r.autograd_backends) +
                                     " block the math kernel here (getBackendKeySetFromAutograd)",
          width);
}

}  // namespace

void append_key_report_text(std::string& out, const Registry& registry, const KeyReport& r,
                            const KeyReportOptions& o) {
  const Catalogue& cat = registry.catalogue();
  out += cat.name(r.key) + " (PyTorch " + std::string(cat.version()) + "), " + std::to_string(r.operator_count) +
         " operators\n";
  append_header(out, cat, r, o.width);
  out += "\n" + std::string(r.alias ? "Operators by what " + cat.name(r.key) + " contributes:\n"
                                    : "Outcome of the " + cat.name(r.key) + " row:\n");
  for (const auto& g : r.groups) {
    if (g.ops.empty()) continue;
    out += fmt::format("  {:>6} {:>6}  ", g.ops.size(), percent(g.ops.size(), r.operator_count));
    out += wrap_words(g.label + (g.raises && g.id != "missing" && g.id != "ambiguous" ? " (raises when called)" : ""),
                      17, 17, static_cast<size_t>(o.width)) + "\n";
    std::string examples = "e.g.";
    for (std::size_t i = 0; i < g.ops.size() && i < o.examples; ++i)
      examples += std::string(i ? ", " : " ") + g.ops[i]->name;
    if (g.ops.size() > o.examples) examples += ", …";
    examples += " (--list " + g.id + ")";
    out.append(17, ' ');
    out += wrap_words(examples, 17, 19, static_cast<size_t>(o.width)) + "\n";
  }
  if (!r.alias) {
    out += "\nBy what a call runs (working = C++ kernel, composite, fallback, fallthrough):\n";
    for (Outcome oc : k_all_outcomes) {
      const std::size_t n = r.outcomes[static_cast<int>(oc)];
      if (n) out += fmt::format("  {:>6} {:>6}  {}\n", n, percent(n, r.operator_count), outcome_label(oc));
    }
  }
  for (const auto& id : o.list) {
    for (const auto& g : r.groups) {
      if (g.id != id) continue;
      const std::size_t shown = o.limit ? std::min(o.limit, g.ops.size()) : g.ops.size();
      out += "\n" + g.label + ": " + std::to_string(g.ops.size()) + " operators" +
             (shown < g.ops.size() ? ", first " + std::to_string(shown) + " shown" : "") + "\n";
      for (std::size_t i = 0; i < shown; ++i) out += "  " + g.ops[i]->name + "\n";
    }
  }
}

nlohmann::ordered_json key_report_json(const Registry& registry, const KeyReport& r, const KeyReportOptions& o) {
  const Catalogue& cat = registry.catalogue();
  using J = nlohmann::ordered_json;
  auto key_names = [&](const std::vector<Key>& keys) { return key_names_json(cat, keys); };
  J doc = json_document();
  doc["torch_version"] = registry.torch_version();
  doc["key"] = cat.name(r.key);
  doc["key_kind"] = r.alias ? "alias" : "runtime";
  doc["operators"] = r.operator_count;
  if (r.alias) {
    doc["covers"] = key_names(r.covers);
  } else {
    doc["position"] = r.table_index + 1;
    doc["table_index"] = r.table_index;
    doc["table_size"] = r.table_size;
    doc["lower"] = r.has_lower ? J(cat.name(r.lower)) : J();
    doc["higher"] = r.has_higher ? J(cat.name(r.higher)) : J();
    doc["python_parseable"] = r.python_parseable;
    doc["aliases"] = key_names(r.covering_aliases);
    doc["backend_fallback"] =
        r.fallback ? J{{"kernel", r.fallback->debug}, {"fallthrough", r.fallback->fallthrough}} : J();
    doc["autograd_backends"] = key_names(r.autograd_backends);
  }
  J groups = J::array();
  for (const auto& g : r.groups) {
    J names = J::array();
    for (std::size_t i = 0; i < g.ops.size() && (o.limit == 0 || i < o.limit); ++i) names.push_back(g.ops[i]->name);
    groups.push_back({{"id", g.id},
                      {"label", g.label},
                      {"count", g.ops.size()},
                      {"percent", r.operator_count ? 100.0 * static_cast<double>(g.ops.size()) /
                                                         static_cast<double>(r.operator_count)
                                                   : 0.0},
                      {"raises", g.raises},
                      {"operators", std::move(names)}});
  }
  doc["groups"] = std::move(groups);
  if (!r.alias) doc["outcomes"] = outcome_counts_json(r.outcomes);
  return doc;
}

}  // namespace dispatchctl
