#include "registry/manifest_generated_calls.h"

#include <map>
#include <utility>

#include "util/errors.h"

namespace dispatchctl {

using json = nlohmann::ordered_json;

namespace {

const std::vector<std::string_view> k_entry_fields = {"operator", "kernel", "op", "kind"};

using KernelsByEntry = std::map<std::pair<std::uint32_t, std::uint32_t>, const Kernel*>;

KernelsByEntry kernels_from(const Registry& registry, std::string_view source) {
  KernelsByEntry out;
  for (const Operator& op : registry.operators())
    for (const Kernel& kernel : op.registrations)
      if (const auto entry = kernel.origin.manifest_kernel_entry(); entry && kernel.origin.file() == source)
        out[{entry->op, entry->kernel}] = &kernel;
  return out;
}

std::uint32_t ordinal(const ObjectReader& r, const char* name) {
  const json* value = r.get(name);
  if (!value || !value->is_number_unsigned() || value->get<std::uint64_t>() > UINT32_MAX)
    r.fail(r.at(name), std::string("expected the ordinal of the ") + name +
                           " entry (an integer from 0), as in {\"operator\": 3, \"kernel\": 1, ...}");
  return static_cast<std::uint32_t>(value->get<std::uint64_t>());
}

}  // namespace

void apply_generated_calls_section(Registry& registry, const json& section, const std::string& source) {
  const KernelsByEntry kernels = kernels_from(registry, source);
  StringPool strings;
  for (std::size_t i = 0; i < section.size(); ++i) {
    const ObjectReader r(section[i], source, "/generated_calls/" + std::to_string(i), k_entry_fields);
    const std::uint32_t op = ordinal(r, "operator"), kernel = ordinal(r, "kernel");
    const GeneratedCall call = read_generated_call_fields(r, strings);
    const auto found = kernels.find({op, kernel});
    if (found == kernels.end()) continue;  // refused (check lists why), or not in this file
    registry.record_generated_call(*found->second, call.callee, call.kind, Registry::Strings::Copy);
  }
}

json generated_calls_section(const Registry& registry, std::string_view source) {
  json section = json::array();
  for (const auto& [entry, kernel] : kernels_from(registry, source))
    if (const GeneratedCall* call = registry.generated_call(*kernel))
      section.push_back({{"operator", entry.first},
                         {"kernel", entry.second},
                         {"op", std::string(call->callee)},
                         {"kind", generated_call_kind_id(call->kind)}});
  return section;
}

std::string with_generated_calls_section(std::string_view manifest, const json& section, const std::string& source) {
  // The document is one object: its closing brace is its last character but
  // whitespace, and a field goes in before it (the reader reads a field after
  // "operators" once they are applied).
  const std::size_t close = manifest.find_last_not_of(" \t\r\n");
  const std::size_t before = close == std::string_view::npos ? close : manifest.find_last_not_of(" \t\r\n", close - 1);
  if (close == std::string_view::npos || manifest[close] != '}' || before == std::string_view::npos)
    throw InputError({source}, "does not end as a manifest's JSON object does ('}'); write the file again");
  std::string out(manifest.substr(0, before + 1));
  if (manifest[before] != '{') out += ',';
  out += "\n \"generated_calls\": [";
  for (std::size_t i = 0; i < section.size(); ++i) out += (i ? ",\n  " : "\n  ") + section[i].dump();
  out += section.empty() ? "]\n" : "\n ]\n";
  out.append(manifest.substr(close));
  return out;
}

}  // namespace dispatchctl
