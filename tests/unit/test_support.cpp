#include "test_support.h"
#include "builtin/builtin_catalogues.h"

#include "util/errors.h"

#include "load/load_registry.h"
#include "registry/manifest.h"
#include "util/file_io.h"

namespace dispatchctl::test {

std::string read_test_data(const std::string& relative) {
  return read_input_file(std::string(DISPATCHCTL_TEST_DATA) + "/" + relative);
}

std::map<std::string, std::string> split_blocks(const std::string& text) {
  std::map<std::string, std::string> blocks;
  std::string name;
  size_t body = 0;
  size_t pos = 0;
  auto close = [&](size_t end) {
    if (!name.empty()) blocks[name] = text.substr(body, end - body);
  };
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    if (text.compare(pos, 4, "=== ") == 0) {
      close(pos);
      name = text.substr(pos + 4, end - pos - 4);
      body = end + 1;
    }
    pos = end + 1;
  }
  close(text.size());
  return blocks;
}

const Registry& builtin_registry(const std::string& source) {
  static std::map<std::string, std::unique_ptr<Registry>> loaded;
  std::unique_ptr<Registry>& reg = loaded[source];
  if (!reg) reg = load_registry({source});
  return *reg;
}

std::unique_ptr<Registry> registry_from_json(const std::string& json_text) {
  ManifestDocument m = read_manifest(json_text, "test.json", {builtin_releases()});
  auto registry = std::make_unique<Registry>(*builtin_catalogue(m.torch_version), m.torch_version);
  apply_manifest(*registry, m);
  return registry;
}

std::string load_error(const std::string& json_text) {
  return input_error_of([&] { registry_from_json(json_text); });
}

}  // namespace dispatchctl::test
