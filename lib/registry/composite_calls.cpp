#include "registry/composite_calls.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "registry/key_lookup.h"
#include "registry/registry.h"
#include "util/errors.h"
#include "util/json_object_reader.h"
#include "registry/operator_name.h"

namespace dispatchctl {

namespace {

using json = nlohmann::ordered_json;

const std::vector<std::string_view> k_recording_fields = {"format", "version", "release", "recorded", "backend",
                                                    "kernels", "backward", "backward_seed", "kinds",
                                                    "backward_gradients"};
const std::vector<std::string_view> k_kind_fields = {"key", "tensors", "kernels"};
const std::vector<std::string_view> k_composite_fields = {"op", "key", "samples", "calls", "raises"};
const std::vector<std::string_view> k_backward_fields = {"op", "samples", "calls", "raises", "mode_dependent"};
const std::vector<std::string_view> k_call_fields = {"op", "when"};
const std::vector<std::string_view> k_raises_fields = {"message", "when", "type"};

CallWhen read_when(const ObjectReader& r) {
  const std::string when = *r.string("when", true);
  if (when == "always") return CallWhen::Always;
  if (when == "some_inputs") return CallWhen::SomeInputs;
  r.fail(r.at("when"), "'" + when + "' is not a call condition; use \"always\" or \"some_inputs\"");
}

void check_op_name(const ObjectReader& r, const std::string& name) {
  if (!is_qualified_operator_name(name))
    r.fail(r.at("op"), "operator name '" + name + "' is not NAMESPACE::NAME[.OVERLOAD]");
}

// "calls": [{"op": …, "when": …}, …]
std::vector<RecordedCall> read_calls(const json& array, const std::string& source, const std::string& pointer) {
  std::vector<RecordedCall> calls;
  if (!array.is_array())
    ObjectReader(json::object(), source, pointer, {}).fail(pointer, "expected an array of {\"op\", \"when\"}, got " +
                                                                        json_type_name(array));
  for (std::size_t i = 0; i < array.size(); ++i) {
    const ObjectReader r(array[i], source, pointer + "/" + std::to_string(i), k_call_fields);
    check_op_name(r, *r.string("op", true));
    // A view into the document: the registry copies it when recorded.
    calls.push_back({Text(*r.get("op")->get_ptr<const std::string*>()), read_when(r)});
  }
  return calls;
}

std::uint32_t read_samples(const ObjectReader& r) {
  const json* samples = r.get("samples");
  if (!samples) r.fail(r.pointer(), "missing required field 'samples' (how many inputs the kernel ran on)");
  if (!samples->is_number_unsigned() || samples->get<std::uint64_t>() == 0 ||
      samples->get<std::uint64_t>() > 0xFFFFFFFFu)
    r.fail(r.at("samples"), "expected a positive count of samples, got " + samples->dump() +
                                " (an entry that ran on no sample must not be written)");
  return static_cast<std::uint32_t>(samples->get<std::uint64_t>());
}

// "kernels": [{"op", "key", "samples", "calls", "raises"}, …], recorded on the
// main backend's dense tensors (`kind` nullopt) or on tensors of `kind`.
std::size_t read_kernels(Registry& registry, const json& kernels, const std::string& source,
                         const std::string& pointer, std::optional<Key> kind) {
  std::size_t recorded = 0;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const ObjectReader r(kernels[i], source, pointer + "/" + std::to_string(i), k_composite_fields);
    const std::string op_name = *r.string("op", true);
    check_op_name(r, op_name);
    const Key key = require_key(registry.catalogue(), *r.string("key", true), source + ": " + r.at("key"));
    CompositeCalls calls;
    calls.samples = read_samples(r);
    if (const json* list = r.get("calls")) calls.calls = read_calls(*list, source, r.at("calls"));
    if (const json* raises = r.object("raises", false)) {
      const ObjectReader rr(*raises, source, r.at("raises"), k_raises_fields);
      (void)rr.string("message", true);
      calls.raises = Text(*rr.get("message")->get_ptr<const std::string*>());
      calls.raises_when = read_when(rr);
      if (rr.string("type", false)) calls.raises_type = Text(*rr.get("type")->get_ptr<const std::string*>());
    }
    const Operator* op = registry.find(op_name);
    const Kernel* kernel = op ? op->active(key) : nullptr;
    if (!kernel) continue;  // not loaded here (a filtered load), or not registered
    if (kind) registry.record_kind_composite_calls(*kernel, *kind, std::move(calls));
    else registry.record_composite_calls(*kernel, std::move(calls));
    ++recorded;
  }
  return recorded;
}

}  // namespace

std::size_t apply_composite_calls(Registry& registry, const json& object, const std::string& source,
                                  const std::string& pointer) {
  const ObjectReader top(object, source, pointer, k_recording_fields);
  if (const auto format = top.string("format", false); format && *format != "dispatchctl-composite-calls")
    top.fail(top.at("format"), "'" + *format + "' is not \"dispatchctl-composite-calls\"");
  if (const json* version = top.get("version"); version && (!version->is_number_integer() || *version != 1))
    top.fail(top.at("version"), "unsupported composite-calls version " + version->dump() + "; expected 1");
  if (const json* recorded = top.get("recorded"); recorded && !recorded->is_object())
    top.fail(top.at("recorded"), "expected an object saying how the calls were recorded");
  if (const auto backend = top.string("backend", false)) {
    const int index = registry.catalogue().backend_index(*backend).value_or(0);
    if (index == 0)
      top.fail(top.at("backend"), "'" + *backend + "' is not a backend of PyTorch " +
                                      std::string(registry.catalogue().version()) + " (e.g. PrivateUse1, CPU)");
    registry.set_composite_calls_backend(*backend);
  }
  std::size_t recorded = 0;
  if (const json* kernels = top.array("kernels")) recorded += read_kernels(registry, *kernels, source, top.at("kernels"), {});
  if (const json* kinds = top.array("kinds"))
    for (std::size_t i = 0; i < kinds->size(); ++i) {
      const ObjectReader r((*kinds)[i], source, top.at("kinds") + "/" + std::to_string(i), k_kind_fields);
      const std::string name = *r.string("key", true);
      const Catalogue& cat = registry.catalogue();
      const auto kind = cat.find(name);
      if (!kind || !cat.is_runtime(*kind))
        r.fail(r.at("key"), "'" + name + "' is not a runtime dispatch key of PyTorch " + std::string(cat.version()) +
                                " (the key a kind's tensors carry, e.g. SparseCPU, NestedTensorCPU)");
      (void)r.string("tensors", false);
      if (const json* kernels = r.array("kernels")) recorded += read_kernels(registry, *kernels, source, r.at("kernels"), *kind);
    }
  // What gradients the nodes were given: unstated, every output's, contiguous (the first recordings').
  std::uint8_t gradient_flags = k_backward_flags_unstated;
  if (const auto gradients = top.string("backward_gradients", false)) {
    if (*gradients == "first_output_expanded") gradient_flags = 0;
    else if (*gradients != "every_output")
      top.fail(top.at("backward_gradients"), "'" + *gradients + "' is not a way of giving gradients; use "
                                              "\"first_output_expanded\" or \"every_output\"");
  }
  if (const json* backward = top.array("backward"))
    for (std::size_t i = 0; i < backward->size(); ++i) {
      const ObjectReader r((*backward)[i], source, top.at("backward") + "/" + std::to_string(i), k_backward_fields);
      const std::string op_name = *r.string("op", true);
      check_op_name(r, op_name);
      (void)read_samples(r);
      const json* list = r.get("calls");
      const std::uint8_t flags = gradient_flags | (r.boolean("mode_dependent").value_or(false)
                                                       ? k_backward_mode_dependent : 0);
      registry.record_backward_calls(op_name, list ? read_calls(*list, source, r.at("calls")) : std::vector<RecordedCall>{},
                                     Registry::Strings::Copy, flags);
    }
  if (const json* seed = top.get("backward_seed"))
    registry.record_backward_seed(read_calls(*seed, source, top.at("backward_seed")));
  return recorded;
}

std::size_t apply_composite_calls_text(Registry& registry, std::string_view text, const std::string& source) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(source + ": not JSON (" + std::string(e.what()) + "); regenerate it with "
                     "tools/record-composite-calls.py");
  }
  return apply_composite_calls(registry, doc, source, "");
}

json composite_calls_json(const Registry& registry) {
  auto calls_json = [](const std::vector<RecordedCall>& calls) {
    json out = json::array();
    for (const auto& c : calls) out.push_back({{"op", std::string(c.op)}, {"when", call_when_id(c.when)}});
    return out;
  };
  json out = {{"format", "dispatchctl-composite-calls"}, {"version", 1}, {"release", registry.torch_version()},
              {"backend", registry.composite_calls_backend()}};
  const Catalogue& cat = registry.catalogue();
  auto kernels_of = [&](std::optional<Key> kind) {
    json kernels = json::array();
    for (const Operator& op : registry.operators())
      for (const Kernel& k : op.registrations) {
        const CompositeCalls* calls = kind ? registry.kind_composite_calls(k, *kind) : registry.composite_calls(k);
        if (!calls) continue;
        json entry = {{"op", std::string(op.name)}, {"key", cat.name(k.key)}, {"samples", calls->samples},
                      {"calls", calls_json(calls->calls)}};
        if (calls->raises) {
          entry["raises"] = {{"message", std::string(*calls->raises)}, {"when", call_when_id(calls->raises_when)}};
          if (calls->raises_type) entry["raises"]["type"] = std::string(*calls->raises_type);
        }
        kernels.push_back(std::move(entry));
      }
    return kernels;
  };
  out["kernels"] = kernels_of({});
  // One way of giving gradients per file: entries recorded otherwise (another
  // source's) are written as recorded the old way, which takes fewer calls as certain.
  json backward = json::array();
  bool all_first_output = true;
  for (const auto& [name, calls] : registry.all_backward_calls())
    all_first_output = all_first_output && !(registry.backward_flags(name) & k_backward_flags_unstated);
  for (const auto& [name, calls] : registry.all_backward_calls()) {
    backward.push_back({{"op", std::string(name)}, {"samples", 1}, {"calls", calls_json(calls)}});
    if (registry.backward_flags(name) & k_backward_mode_dependent) backward.back()["mode_dependent"] = true;
  }
  out["backward"] = std::move(backward);
  out["backward_gradients"] = all_first_output ? "first_output_expanded" : "every_output";
  out["backward_seed"] = calls_json(registry.backward_seed());
  if (!registry.composite_call_kinds().empty()) {
    json kinds = json::array();
    for (const Key kind : registry.composite_call_kinds())
      kinds.push_back({{"key", cat.name(kind)}, {"kernels", kernels_of(kind)}});
    out["kinds"] = std::move(kinds);
  }
  return out;
}

}  // namespace dispatchctl
