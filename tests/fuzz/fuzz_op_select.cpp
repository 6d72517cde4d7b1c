// libFuzzer target: operator selection. Input = patterns, one per line,
// matched with glob_match/op_matches and select_operators against a small
// fixed registry (unknown names go through did-you-mean).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "registry/op_select.h"
#include "builtin/builtin_catalogues.h"
#include "util/errors.h"

namespace {
const dispatchctl::Registry& registry() {
  static const dispatchctl::Registry* r = [] {
    auto* reg = new dispatchctl::Registry(*dispatchctl::builtin_catalogue("2.14.1"), "2.14.1");
    for (const char* name : {"aten::add.Tensor", "aten::add.Scalar", "aten::add_.Tensor", "aten::addmm",
                             "aten::sin", "aten::[weird]*?.x", "custom::op", "custom::op.out"})
      reg->declare(name);
    return reg;
  }();
  return *r;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dispatchctl;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> patterns;
  for (size_t p = 0; p <= text.size() && patterns.size() < 16;) {
    size_t e = text.find('\n', p);
    if (e == std::string_view::npos) e = text.size();
    patterns.emplace_back(text.substr(p, e - p));
    p = e + 1;
  }
  for (const auto& pattern : patterns)
    for (const auto& op : registry().operators()) {
      (void)glob_match(pattern, op.name);
      (void)op_matches(pattern, op.name);
    }
  if (patterns.size() >= 2) (void)glob_match(patterns[0], patterns[1]);
  try {
    (void)select_operators(registry(), patterns);
  } catch (const InputError&) {
  }
  return 0;
}
