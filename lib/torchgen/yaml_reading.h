// What torchgen's YAML readers (native_functions / tags / derivatives.yaml,
// deprecated.yaml, a backend's YAML) share: a node's line, the YAML parse,
// and the two ways a read stops (bad input; torchgen's own assert).
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>

#include "torchgen/inputs.h"

namespace dispatchctl::torchgen {

// 1-based, as editors and torchgen's messages count.
inline int line_of(const YAML::Node& node) { return node.Mark().line + 1; }

// The bool torchgen sees for a scalar: PyYAML's SafeLoader resolves a PLAIN
// scalar by YAML 1.1 (true/True/TRUE, yes/Yes/YES, on/On/ON and their
// negations false / no / off), where yaml-cpp keeps text; a quoted "True" is a
// str and `1` an int, which torchgen's `isinstance(x, bool)` asserts refuse.
// nullopt for anything that is not a bool to PyYAML.
std::optional<bool> yaml_bool(const YAML::Node& node);

// Not YAML, or not what the file holds at all: InputError "FILE:LINE: message".
[[noreturn]] void fail_reading(const std::string& file, int line, const std::string& message);

// One of torchgen's own asserts while reading (a kind that stops_reading): the
// reading stops, as torchgen's does. `suggestion` ("; did you mean 'X'?")
// replaces the kind's fix, so the line reads as before: "FILE:LINE: reason; fix".
[[noreturn]] void refuse_reading(std::string_view kind, const std::string& file, int line, const std::string& reason,
                                 const std::string& suggestion = "", const std::string& op = "");

// The file's root: a list of entries, else a malformed-entry (a file with no entries too)
// refusal naming what an entry looks like (`entry_example`: "- func: ...").
YAML::Node load_entry_list(const YamlSource& source, std::string_view entry_example);

// The file's YAML syntax only (a YAML error is bad input, not a refusal).
YAML::Node load_yaml_document(const YamlSource& source);

}  // namespace dispatchctl::torchgen
