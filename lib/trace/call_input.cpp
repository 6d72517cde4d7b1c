#include "trace/call_input.h"

#include <algorithm>
#include <stdexcept>

#include "registry/key_lookup.h"
#include "util/errors.h"
#include "util/join.h"
#include "util/split_list.h"
#include "util/suggest.h"
#include "util/typed_name.h"

namespace dispatchctl {

namespace {

std::vector<std::string_view> views(const std::vector<std::string>& words) {
  return {words.begin(), words.end()};
}

KeySet set_of_names(const Catalogue& cat, const std::vector<std::string_view>& names) {
  KeySet s;
  for (auto n : names) s = s | cat.bit(require_key(cat, n, "release table"));
  return s;
}

TensorArg preset_tensor(const Catalogue& cat, const std::string& spec) {
  const std::string where = "--tensor " + spec;
  const auto parts = split_list(spec, where, ':');
  const auto& presets = cat.spec().tensor_presets;
  auto it = std::find_if(presets.begin(), presets.end(),
                         [&](const auto& p) { return p.first == lowercase(parts[0]); });
  if (it == presets.end())
    // A profile holds the presets its release could make or infer (an export
    // from a build without nested tensors has no nested_cpu).
    throw InputError(where + ": the release profile of PyTorch " + std::string(cat.version()) + " (" +
                     std::string(cat.spec().source) + ") has no tensor preset '" + parts[0] + "'" +
                     did_you_mean(lowercase(parts[0]), views(tensor_preset_names(cat))) +
                     "; its presets: " + join(tensor_preset_names(cat)) + " (or give the key set: --keyset K1,K2)");
  KeySet keys = set_of_names(cat, it->second);
  bool inferred = cat.spec().preset_inferred(it->first);
  bool requires_grad = false;
  bool leaf = false;
  bool inference = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string m = lowercase(parts[i]);
    if (m == "requires_grad" || m == "leaf") {  // no key set change
      requires_grad = true;
      leaf = leaf || m == "leaf";  // torch.ones(2, requires_grad=True), not a result of one
      continue;
    }
    if (m == "inference") {
      keys = cat.minus(keys, set_of_names(cat, cat.spec().inference_tensor_removed));
      inference = true;
      continue;
    }
    const auto& mods = cat.spec().tensor_modifier_keys;
    auto mit = std::find_if(mods.begin(), mods.end(), [&](const auto& p) { return p.first == m; });
    if (mit == mods.end())
      throw InputError(where + ": unknown modifier '" + parts[i] + "'" +
                       did_you_mean(m, views(tensor_modifier_names(cat))) +
                       "; modifiers: conj, neg, zerotensor, inference, requires_grad, leaf");
    keys = keys | cat.bit(require_key(cat, mit->second, "release table"));
    inferred = inferred || cat.spec().modifier_inferred(mit->first);
  }
  return {spec, keys, inferred, requires_grad, leaf, inference};
}

TensorArg keyset_tensor(const Catalogue& cat, const std::string& list) {
  KeySet keys;
  // `--keyset ''` is a tensor without keys (PyTorch's undefined tensor has none).
  for (const auto& name : split_list(list, "--keyset " + list, ',', EmptyItems::Skip)) {
    const Key k = require_key(cat, name, "--keyset " + list);
    if (cat.is_alias(k))
      throw InputError("--keyset " + list + ": '" + name +
                       "' is an alias key; tensors carry runtime keys such as 'CPU' or 'AutogradCPU'");
    keys = keys | cat.bit(k);
  }
  return {"--keyset " + list, keys};
}

}  // namespace

CallSetup make_call_setup(const Catalogue& cat, const CallOptions& options) {
  const ReleaseSpec& spec = cat.spec();
  CallSetup setup;
  std::vector<CallOptions::Form> order = options.order;
  if (order.empty()) {
    order.assign(options.tensors.size(), CallOptions::Form::Preset);
    order.insert(order.end(), options.keysets.size(), CallOptions::Form::Keyset);
  }
  std::size_t preset = 0, keyset = 0;
  for (const CallOptions::Form form : order) {
    const bool is_preset = form == CallOptions::Form::Preset;
    if (is_preset ? preset >= options.tensors.size() : keyset >= options.keysets.size())
      throw std::logic_error("CallOptions::order names more tensors than it holds");
    setup.arguments.push_back(is_preset ? preset_tensor(cat, options.tensors[preset++])
                                        : keyset_tensor(cat, options.keysets[keyset++]));
  }
  if (preset != options.tensors.size() || keyset != options.keysets.size())
    throw std::logic_error("CallOptions::order leaves tensors out");

  setup.tls_included = set_of_names(cat, spec.default_tls_included);
  setup.tls_excluded = set_of_names(cat, spec.default_tls_excluded);
  setup.tls_steps.push_back("default: included " + cat.format(setup.tls_included) + ", excluded " +
                            cat.format(setup.tls_excluded));
  if (options.inference_mode) {
    setup.inference_mode = true;
    setup.tls_included = cat.minus(setup.tls_included, set_of_names(cat, spec.inference_mode_tls_unincluded));
    setup.tls_excluded = setup.tls_excluded | set_of_names(cat, spec.inference_mode_tls_excluded);
    setup.tls_steps.push_back("torch.inference_mode(): ADInplaceOrView leaves included; the autograd "
                              "keys join excluded");
  }
  for (const auto& device : options.autocast) {
    const auto& table = spec.autocast_key_of_backend;
    auto it = std::find_if(table.begin(), table.end(),
                           [&](const auto& p) { return lowercase(p.first) == lowercase(device); });
    if (it == table.end()) {
      std::vector<std::string> devices;
      for (const auto& p : table) devices.push_back(lowercase(p.first));
      throw InputError("--autocast " + device + ": PyTorch " + std::string(cat.version()) +
                       " has no Autocast key for this device" + did_you_mean(lowercase(device), views(devices)) +
                       "; devices with one: " + join(devices));
    }
    const Key k = require_key(cat, it->second, "release table");
    setup.tls_excluded = cat.minus(setup.tls_excluded, cat.bit(k));
    setup.tls_steps.push_back("torch.autocast(\"" + lowercase(device) + "\"): " + cat.name(k) +
                              " leaves excluded");
  }
  for (const auto& name : options.tls_include) {
    const Key k = require_key(cat, name, "--tls-include");
    setup.tls_included = setup.tls_included | cat.bit(k);
    setup.tls_steps.push_back("--tls-include " + name);
  }
  for (const auto& name : options.tls_exclude) {
    const Key k = require_key(cat, name, "--tls-exclude");
    setup.tls_excluded = setup.tls_excluded | cat.bit(k);
    setup.tls_steps.push_back("--tls-exclude " + name);
  }
  if (options.no_grad) {
    setup.grad_mode = false;
    setup.tls_steps.push_back("torch.no_grad(): GradMode off (no dispatch-key change)");
  }
  return setup;
}

}  // namespace dispatchctl
