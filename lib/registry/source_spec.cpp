#include "registry/source_spec.h"

#include "util/errors.h"

namespace dispatchctl {

SourceSpec parse_source_spec(std::string_view text) {
  struct Prefix {
    std::string_view word;
    SourceSpec::Kind kind;
    bool needs_argument;
  };
  static constexpr Prefix prefixes[] = {
      {"builtin:", SourceSpec::Kind::Builtin, true},
      {"torchgen-backend:", SourceSpec::Kind::TorchgenBackend, true},
      {"torchgen:", SourceSpec::Kind::Torchgen, true},
      {"python:", SourceSpec::Kind::Python, true},
  };
  SourceSpec spec{SourceSpec::Kind::File, std::string(text), std::string(text)};
  if (text == "python") {
    spec.kind = SourceSpec::Kind::Python;
    spec.argument.clear();
    return spec;
  }
  for (const auto& p : prefixes) {
    if (text.substr(0, p.word.size()) != p.word) continue;
    spec.kind = p.kind;
    spec.argument = std::string(text.substr(p.word.size()));
    if (spec.argument.empty())
      throw InputError("-m " + std::string(text) + ": nothing after '" + std::string(p.word) +
                       "'; e.g. builtin:2.14.1, python:/usr/bin/python3, torchgen:native_functions.yaml");
    return spec;
  }
  if (text.empty()) throw InputError("-m: empty value; give a manifest file or builtin:VERSION");
  return spec;
}

}  // namespace dispatchctl
