// Renderers for `show`: a readable grouped table and stable JSON. PyTorch's
// own formats are in torch_text.h.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "table/table.h"
#include "util/wrap.h"

namespace dispatchctl {

struct ShowOptions {
  bool all_keys = false;  // include missing rows
  bool color = false;
  size_t width = k_default_width;  // text wraps to this many columns
};

void append_show_text(std::string& out, const Registry& registry, const Operator& op,
                      const std::vector<Row>& rows, const ShowOptions& options);
// The document `show --format json` prints: the release, the CPU-only build
// note (if any), the predicted-registry note (if any) and one show_json per operator.
std::string show_json_document_text(const Registry& registry, const std::string& build_note,
                                    nlohmann::ordered_json operators, const std::string& registry_note = "");
nlohmann::ordered_json show_json(const Registry& registry, const Operator& op,
                                 const std::vector<Row>& rows, const ShowOptions& options);
// "registered at ./build/aten/src/ATen/RegisterCPU_0.cpp:1307" -> "RegisterCPU_0.cpp:1307"
// (text views; the torch formats and JSON keep the full text); 1.13's
// "registered at /dev/null:241" -> "registered from Python (file not recorded)".
std::string short_debug(std::string_view debug);
// ["CPU", "AutogradCPU", …] (shared by the JSON renderers).
nlohmann::ordered_json key_names_json(const Catalogue& cat, const std::vector<Key>& keys);
// One row as JSON (shared with diff/explain).
nlohmann::ordered_json row_json(const Catalogue& cat, const Row& row);
// ANSI colour per tag (empty when colour is off).
std::string_view tag_color(Rule rule, bool color);
std::string_view color_reset(bool color);

}  // namespace dispatchctl
