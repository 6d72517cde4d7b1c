// report --format json is written as text as it goes (render/report_json.cpp),
// not built as one nlohmann document: its bytes must still be exactly the
// compact dump of the document they parse to, with the kernel texts intact
// (quotes, backslashes, control characters, UTF-8) and invalid UTF-8 replaced
// by U+FFFD as nlohmann's dump replaces it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "load/load_registry.h"
#include "render/report_html.h"
#include "report/coverage.h"
#include "test_support.h"

using namespace dispatchctl;

namespace {
std::string compact(const nlohmann::ordered_json& doc) {
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}
}  // namespace

TEST_CASE("report json: every byte as nlohmann's compact dump, strings escaped and replaced") {
  // Kernel texts of every kind a JSON writer can get wrong.
  const std::string cpu_debug = "registered at \\\"odd\\\" dir\\\\f.cpp:1\\t\\u0001 caf\u00e9 \u2192";
  auto reg = test::registry_from_json(R"({"dispatchctl_manifest": 1, "torch_version": "2.14.1",
      "operators": [{"name": "myops::f", "schema": "myops::f(Tensor x) -> Tensor",
        "kernels": [{"key": "CPU", "kernel": ")" + cpu_debug + R"("},
                    {"key": "Meta", "kernel": "registered at /src/meta.py:3"}]},
       {"name": "myops::g", "schema": "myops::g(Tensor x) -> Tensor", "kernels": []}]})");
  const CoverageReport report = build_coverage(*reg, {{"CPU", "Meta", "CUDA"}, {}});
  const std::string text = coverage_json_text(report);
  const auto doc = nlohmann::ordered_json::parse(text);
  CHECK(text == compact(doc));
  REQUIRE(doc["operators"].size() == 2);
  const auto& f = doc["operators"][0];
  CHECK(f["name"] == "myops::f");
  CHECK(f["cells"][0]["key"] == "CPU");
  CHECK(f["cells"][0]["kernel"] == "registered at \"odd\" dir\\f.cpp:1\t\x01 caf\u00e9 \u2192");
  CHECK(f["cells"][1]["outcome"] == "python");
  CHECK(f["cells"][2] == nlohmann::ordered_json({{"key", "CUDA"}, {"outcome", "missing"}}));
  CHECK(doc["operators"][1]["cells"].size() == 3);

  // Bytes that are not UTF-8 (a registry read from a dump may hold them):
  // U+FFFD, as nlohmann writes it.
  Registry& r = *reg;
  Kernel k;
  k.key = *r.catalogue().find("CUDA");
  k.debug = r.keep("registered at bad\xff\xfe.cpp:1");
  r.impl("myops::g", k);
  const CoverageReport again = build_coverage(r, {{"CUDA"}, {}});
  const std::string bad = coverage_json_text(again);
  CHECK(bad == compact(nlohmann::ordered_json::parse(bad)));
  CHECK(bad.find("registered at bad\xef\xbf\xbd\xef\xbf\xbd.cpp:1") != std::string::npos);

  // No operator at all: an empty array, still one line.
  auto empty = test::registry_from_json(R"({"dispatchctl_manifest": 1, "torch_version": "2.14.1", "operators": []})");
  const std::string none = coverage_json_text(build_coverage(*empty, {{"CPU"}, {}}));
  CHECK(none == compact(nlohmann::ordered_json::parse(none)));
  CHECK(none.find("\"operators\":[]}") != std::string::npos);
}
