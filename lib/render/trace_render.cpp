#include "render/trace_render.h"

#include "keys/key_summary.h"
#include "render/show_render.h"
#include "render/json_document.h"

namespace dispatchctl {

namespace {

nlohmann::ordered_json key_list(const Catalogue& cat, KeySet s) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (Key k : cat.iterate(s)) j.push_back(cat.name(k));
  return j;
}

std::string source_words(const Catalogue& cat, const Row& row) {
  switch (row.rule) {
    case Rule::BackendFallback: return "backend fallback";
    case Rule::Direct: return "registered kernel";
    case Rule::AmbiguousAutogradOther: return "ambiguous kernel";
    case Rule::Missing: return "no kernel";
    default: return "registered kernel via " + cat.name(row.provider);
  }
}

std::string row_words(const Row& row) {
  if (!row.valid()) return "(missing)";
  return std::string(row.fallthrough() ? "fallthrough " : "") + std::string(row.debug()) + " [" +
         std::string(tag_text(row.rule)) + "]";
}

void line(std::string& out, const std::string& label, const std::string& value, size_t width) {
  std::string text = "  " + label;
  if (text.size() < 26) text.append(26 - text.size(), ' ');
  else text += ' ';
  out += wrap_words(text + value, 0, 26, width) + "\n";
}

void indent_block(std::string& out, const std::string& text, const std::string& pad, size_t width) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out += wrap_words(pad + text.substr(pos, end - pos), 0, pad.size(), width) + "\n";
    pos = end + 1;
  }
}

}  // namespace

std::string_view outcome_id(Trace::End outcome) {
  switch (outcome) {
    case Trace::End::Completed: return "completed";
    case Trace::End::Raised: return "raised";
    case Trace::End::Handoff: return "handoff";
  }
  return "completed";
}

std::string describe_mask(const Catalogue& cat, KeySet mask) {
  for (Key f = 1; f < cat.key_count(); ++f)
    if (cat.kind(f) != KeyKind::PerBackendRuntime && cat.kind(f) != KeyKind::Alias &&
        cat.kind(f) != KeyKind::Placeholder && cat.functionality_of(f) == f && cat.full_after(f) == mask)
      return "FULL_AFTER(" + cat.name(f) + ")";
  return cat.format(mask);
}

void append_trace_text(std::string& out, const Registry& registry, const Trace& trace,
                       const TraceRenderOptions& options) {
  const Catalogue& cat = registry.catalogue();
  const bool color = options.color;
  const size_t k_width = options.width;
  out += (color ? "\x1b[1m" + trace.op + "\x1b[0m" : trace.op) + "  (PyTorch " +
         std::string(cat.version()) + ", live table)\n";
  for (size_t c = 0; c < trace.calls.size(); ++c) {
    const KeySetComputation& call = trace.calls[c];
    out += "\n" + wrap_words("key set of " + call.reason + ":", 0, 2, k_width) + "\n";
    if (c == 0)
      for (const auto& step : options.tls_steps) line(out, "TLS", step, k_width);
    for (size_t i = 0; i < call.arguments.size(); ++i)
      line(out, "argument " + std::to_string(i) + " " + call.arguments[i].spec,
           cat.format(call.arguments[i].keys) +
               (call.arguments[i].inferred ? " (inferred: the release's export could not make such a tensor)" : ""),
           k_width);
    if (call.arguments.empty()) line(out, "arguments", "no tensor arguments", k_width);
    line(out, "union", cat.format(call.tensor_union), k_width);
    line(out, "| TLS included", cat.format(call.tls_included), k_width);
    line(out, "- TLS excluded", cat.format(call.tls_excluded), k_width);
    line(out, "= after TLS", cat.format(call.after_tls), k_width);
    const std::string backend =
        call.mask_backend == 0 ? "no backend bit: CPU's" : std::string(cat.spec().backends[call.mask_backend - 1]);
    line(out, "& fallthrough mask", "(" + backend + ") removes " +
                                        cat.format(cat.minus(call.after_tls, call.dispatch)), k_width);
    line(out, "= dispatch key set", cat.format(call.dispatch), k_width);
    line(out, "highest-priority key", cat.name(trace.hops.empty() ? call.highest : call.highest), k_width);
  }
  out += "\nhops:\n";
  int number = 0;
  int current_call = 0;
  for (const Hop& hop : trace.hops) {
    if (hop.call != current_call) {
      current_call = hop.call;
      out += wrap_words("  -- " + trace.calls[static_cast<size_t>(hop.call)].reason, 0, 5, k_width) + "\n";
    }
    ++number;
    out += "  " + std::to_string(number) + ". ";
    out += tag_color(hop.row.rule, color);
    out += cat.name(hop.row.key);
    out += color_reset(color);
    out += wrap_words(": " + row_words(hop.row), 2 + std::to_string(number).size() + 2 + cat.name(hop.row.key).size(),
                      7, k_width) + "\n";
    out += wrap_words("       " + source_words(cat, hop.row) + "; receives " + cat.format(hop.received), 0, 7,
                      k_width) + "\n";
    out += wrap_words("       " + hop.does, 0, 7, k_width) + "\n";
    out += wrap_words("       assumed: " + std::string(action_id(hop.action)) + ", " + hop.assumed, 0, 9,
                      k_width) + "\n";
    if (!hop.guard.name.empty())
      out += wrap_words("       holds " + hop.guard.name + " meanwhile: TLS excluded adds " + hop.guard.keys, 0,
                        9, k_width) + "\n";
    if (hop.action == HopAction::Redispatch)
      out += wrap_words("       -> redispatch with " + describe_mask(cat, hop.mask) + ": " + cat.format(hop.next), 0,
                        10, k_width) + "\n";
    if (!hop.consequence.empty()) out += wrap_words("       NOTE: " + hop.consequence, 0, 9, k_width) + "\n";
    if (hop.stale) {
      out += wrap_words("       STALE: _dispatch_dump_table shows " + row_words(hop.computed) + "; " +
                            hop.stale_reason, 0, 14, k_width) + "\n";
    }
    if (hop.action == HopAction::Raise) {
      out += "       raises " + hop.error_type + ":\n";
      indent_block(out, hop.error, "         ", k_width);
    }
  }
  std::string result = "result: ";
  switch (trace.outcome) {
    case Trace::End::Completed:
      result += trace.assumed ? "returns if " + cat.name(trace.hops.back().row.key) + "'s kernel does (assumed)"
                              : "completed";
      break;
    case Trace::End::Raised:
      result += "PyTorch raises " + trace.hops.back().error_type;
      // The raise is certain; its text only if the composite's meta function lets the call through.
      if (!trace.error_caveat.empty()) result += " (certain; this text unless " + trace.error_caveat + ")";
      break;
    case Trace::End::Handoff: result += "handed off (not modelled further)"; break;
  }
  result += " after " + std::to_string(trace.hops.size()) + " hop" + (trace.hops.size() == 1 ? "" : "s");
  if (!trace.stale_keys.empty())
    result += "; the live table has " + std::to_string(trace.stale_keys.size()) +
              " stale row(s) (dispatchctl show " + trace.op + " --live)";
  out += "\n" + wrap_words(result, 0, 8, k_width) + "\n";
}

nlohmann::ordered_json trace_json(const Registry& registry, const Trace& trace,
                                  const TraceRenderOptions& options) {
  const Catalogue& cat = registry.catalogue();
  nlohmann::ordered_json j = json_document();
  j["operator"] = trace.op;
  j["torch_version"] = registry.torch_version();
  j["tls_steps"] = options.tls_steps;
  j["calls"] = nlohmann::ordered_json::array();
  for (const auto& call : trace.calls) {
    nlohmann::ordered_json c;
    c["operator"] = call.op;
    c["reason"] = call.reason;
    c["arguments"] = nlohmann::ordered_json::array();
    for (const auto& a : call.arguments) {
      nlohmann::ordered_json arg = {{"spec", a.spec}, {"keys", key_list(cat, a.keys)}};
      if (a.inferred) arg["inferred"] = true;
      c["arguments"].push_back(std::move(arg));
    }
    c["tensor_union"] = key_list(cat, call.tensor_union);
    c["tls_included"] = key_list(cat, call.tls_included);
    c["tls_excluded"] = key_list(cat, call.tls_excluded);
    c["after_tls"] = key_list(cat, call.after_tls);
    c["fallthrough_mask_backend"] =
        call.mask_backend == 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(cat.spec().backends[call.mask_backend - 1]);
    c["masked_out"] = key_list(cat, cat.minus(call.after_tls, call.dispatch));
    c["dispatch"] = key_list(cat, call.dispatch);
    c["highest"] = cat.name(call.highest);
    j["calls"].push_back(std::move(c));
  }
  j["hops"] = nlohmann::ordered_json::array();
  for (const Hop& hop : trace.hops) {
    nlohmann::ordered_json h = row_json(cat, hop.row);
    h.erase("key");
    nlohmann::ordered_json o;
    o["row"] = cat.name(hop.row.key);
    o["call"] = hop.call;
    for (auto& [k, v] : h.items()) o[k] = v;
    o["received"] = key_list(cat, hop.received);
    o["tls_included"] = key_list(cat, hop.tls_included);
    o["tls_excluded"] = key_list(cat, hop.tls_excluded);
    o["action"] = action_id(hop.action);
    o["action_source"] = hop.declared ? "declared" : "default";
    o["assumed"] = hop.assumed;
    o["does"] = hop.does;
    if (!hop.guard.name.empty())
      o["guard"] = {{"name", hop.guard.name}, {"excludes", hop.guard.keys}};
    if (!hop.consequence.empty()) o["consequence"] = hop.consequence;
    if (hop.action == HopAction::CallOperator) o["callee"] = hop.callee;
    if (hop.action == HopAction::Redispatch) {
      o["mask"] = describe_mask(cat, hop.mask);
      o["next"] = key_list(cat, hop.next);
    }
    if (hop.resolves != k_undefined) o["resolves"] = cat.name(hop.resolves);
    o["stale"] = hop.stale;
    if (hop.stale) {
      o["computed"] = row_json(cat, hop.computed);
      o["stale_reason"] = hop.stale_reason;
    }
    if (hop.action == HopAction::Raise) {
      o["error_type"] = hop.error_type;
      o["error"] = hop.error;
    }
    j["hops"].push_back(std::move(o));
  }
  j["outcome"] = outcome_id(trace.outcome);
  j["assumed"] = trace.assumed;
  if (!trace.error_caveat.empty()) j["error_caveat"] = trace.error_caveat;
  nlohmann::ordered_json stale = nlohmann::ordered_json::array();
  for (Key k : trace.stale_keys) stale.push_back(cat.name(k));
  j["stale_rows"] = std::move(stale);
  return j;
}

}  // namespace dispatchctl
