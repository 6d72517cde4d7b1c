#include "load/source_spec.h"

#include <algorithm>
#include <filesystem>

#include "builtin/builtin.h"
#include "util/errors.h"
#include "util/split_list.h"
#include "util/suggest.h"

namespace dispatchctl {

namespace {

// SOURCE?NAME=VALUE[&NAME=VALUE]: options after the last '?', like a URL's
// query: torchgen:PATH?build-backends=CPU,CUDA and python[:P]?import=M1,M2.
void read_options(SourceSpec& spec) {
  const size_t query = spec.argument.rfind('?');
  if (query == std::string::npos) return;
  const std::string options = spec.argument.substr(query + 1);
  spec.argument.resize(query);
  const bool torchgen = spec.kind == SourceSpec::Kind::Torchgen;
  const std::string example =
      torchgen ? "torchgen:native_functions.yaml?build-backends=CPU,CUDA" : "python:/usr/bin/python3?import=torchvision";
  const std::vector<std::string_view> names =
      torchgen ? std::vector<std::string_view>{"build-backends"} : std::vector<std::string_view>{"import", "composite-calls"};
  for (size_t pos = 0; pos <= options.size();) {
    const size_t end = std::min(options.find('&', pos), options.size());
    const std::string option = options.substr(pos, end - pos);
    const size_t eq = option.find('=');
    const std::string name = option.substr(0, eq);
    const bool known = std::find(names.begin(), names.end(), name) != names.end();
    if (!known || eq == std::string::npos || eq + 1 == option.size())
      throw InputError("-m " + spec.text + ": unknown option '" + option + "' after '?'" +
                       (known ? "" : did_you_mean(name, names)) + "; e.g. " + example);
    const std::string value = option.substr(eq + 1);
    if (torchgen) {
      spec.build_backends = value;
    } else if (name == "composite-calls") {
      if (value != "yes" && value != "no")
        throw InputError("-m " + spec.text + ": composite-calls=" + value + " must be yes or no; e.g. "
                         "python:/usr/bin/python3?composite-calls=yes");
      spec.composite_calls = value == "yes";
    } else {
      spec.imports = split_list(value, "-m " + spec.text);
    }
    pos = end + 1;
  }
}

// A manifest or backend YAML at a revision names a file; torchgen's YAML may
// be a checkout or folder, the checkout's root when no PATH follows. A file
// really named "git:…" stays a file (util/file_io reads it as such).
void read_revision(SourceSpec& spec) {
  std::error_code no_such_file;
  if (spec.kind == SourceSpec::Kind::File && std::filesystem::exists(spec.argument, no_such_file)) return;
  try {
    spec.at_revision = parse_git_path(spec.argument, spec.kind != SourceSpec::Kind::Torchgen);
  } catch (const InputError& e) {
    throw InputError("-m " + spec.text + ": " + (std::string(e.what()).substr(spec.argument.size() + 2)));
  }
}

}  // namespace

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
  SourceSpec spec;  // a file unless a prefix says otherwise
  spec.text = std::string(text);
  spec.argument = std::string(text);
  if (text == "python" || text.substr(0, 7) == "python?") {
    spec.kind = SourceSpec::Kind::Python;
    spec.argument = std::string(text.substr(6));
    read_options(spec);
    return spec;
  }
  for (const auto& p : prefixes) {
    if (text.substr(0, p.word.size()) != p.word) continue;
    spec.kind = p.kind;
    spec.argument = std::string(text.substr(p.word.size()));
    if (spec.kind == SourceSpec::Kind::Torchgen || spec.kind == SourceSpec::Kind::Python) read_options(spec);
    if (spec.argument.empty())
      throw InputError("-m " + std::string(text) + ": nothing after '" + std::string(p.word) +
                       "'; e.g. " + std::string(k_default_registry) +
                       ", python:/usr/bin/python3, torchgen:native_functions.yaml");
    if (spec.kind == SourceSpec::Kind::Torchgen || spec.kind == SourceSpec::Kind::TorchgenBackend) read_revision(spec);
    return spec;
  }
  if (text.empty()) throw InputError("-m: empty value; give a manifest file or builtin:VERSION");
  read_revision(spec);
  return spec;
}

}  // namespace dispatchctl
