#include "trace/call_list.h"

#include "util/json_object_reader.h"
#include "util/json_parse.h"

namespace dispatchctl {

std::vector<CallRequest> parse_call_list(std::string_view text, const std::string& source) {
  std::vector<CallRequest> calls;
  int line_number = 0;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = source + ":" + std::to_string(line_number);
    const auto object = parse_json_or_throw(line, where);
    const ObjectReader read(object, where, "",
                            {"operator", "tensors", "keysets", "autocast", "inference_mode", "no_grad",
                             "tls_include", "tls_exclude", "backward"});
    CallRequest call{where, *read.string("operator", true), {}, std::nullopt};
    CallOptions& o = call.options;
    o.tensors = read.strings("tensors", false).value_or(std::vector<std::string>{});
    o.keysets = read.strings("keysets", false).value_or(std::vector<std::string>{});
    o.autocast = read.strings("autocast", false).value_or(std::vector<std::string>{});
    o.inference_mode = read.boolean("inference_mode").value_or(false);
    o.no_grad = read.boolean("no_grad").value_or(false);
    o.tls_include = read.strings("tls_include", false).value_or(std::vector<std::string>{});
    o.tls_exclude = read.strings("tls_exclude", false).value_or(std::vector<std::string>{});
    if (const auto* backward = read.get("backward")) {
      if (backward->is_boolean()) {
        if (backward->get<bool>()) call.backward = BackwardForm::Sum;
      } else if (backward->is_string() && (*backward == "sum" || *backward == "seed")) {
        call.backward = *backward == "sum" ? BackwardForm::Sum : BackwardForm::Seed;
      } else {
        read.fail(read.at("backward"), "expected true, false, \"sum\" or \"seed\", got " + backward->dump());
      }
    }
    calls.push_back(std::move(call));
  }
  return calls;
}

}  // namespace dispatchctl
