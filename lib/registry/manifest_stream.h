// Reading a manifest's JSON without holding its whole text or DOM (issue 14):
// one SAX pass (nlohmann's sax_parse) builds the top-level fields other than
// "operators" as a small DOM and hands each element of the "operators"
// array, built alone, to a sink that keeps what it needs. Memory grows with
// what the sink keeps, not with the bytes read. Errors are parse_json_or_throw's.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace dispatchctl {

using OperatorSink = std::function<void(nlohmann::ordered_json&& element)>;
// Called when an "operators" array opens, with the top-level fields read so far.
using OperatorsStart = std::function<void(const nlohmann::ordered_json& top)>;

struct StreamedManifest {
  // The document without its "operators" array (kept here when it is not an array).
  nlohmann::ordered_json top;
  size_t bytes = 0;  // of JSON text read
};

StreamedManifest stream_manifest_text(std::string_view text, const std::string& source, const OperatorSink& sink,
                                      const OperatorsStart& on_operators = {});
// Reads PATH in blocks; a gzip file is inflated whole first (read_input_file).
StreamedManifest stream_manifest_file(const std::string& path, const std::string& source, const OperatorSink& sink,
                                      const OperatorsStart& on_operators = {});

}  // namespace dispatchctl
