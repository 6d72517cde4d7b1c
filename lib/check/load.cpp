#include "check/load.h"
#include "builtin/builtin_catalogues.h"

#include <cctype>
#include <map>

#include "builtin/builtin.h"
#include "registry/manifest.h"
#include "load/load_registry.h"
#include "check/lint_torchgen_yaml.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/json_locate.h"

namespace dispatchctl {
namespace {

bool is_builtin(const std::string& source) { return source.rfind(k_builtin_prefix, 0) == 0; }

// An InputError of the loader reads "SOURCE: /pointer: what",
// "SOURCE:LINE:COL: what" or "SOURCE: what"; take the place apart.
Finding load_error(const std::string& source, const std::string& message) {
  Finding f;
  f.rule = "load-error";
  f.location.file = source;
  std::string rest = message;
  if (rest.rfind(source + ":", 0) == 0) rest = rest.substr(source.size() + 1);
  if (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) {
    size_t a = rest.find(':'), b = a == std::string::npos ? a : rest.find(':', a + 1);
    if (b != std::string::npos) {
      f.location.line = std::atoi(rest.c_str());
      f.location.column = std::atoi(rest.c_str() + a + 1);
      rest = rest.substr(b + 1);
    }
  } else if (rest.rfind(" /", 0) == 0) {
    const size_t end = rest.find(": ", 1);
    if (end != std::string::npos) {
      f.location.pointer = rest.substr(1, end - 1);
      rest = rest.substr(end + 1);
    }
  }
  while (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
  f.message = rest;
  return f;
}

std::string_view refusal_rule(Registry::Refusal r) {
  switch (r) {
    case Registry::Refusal::DuplicateSchema: return "duplicate-definition";
    case Registry::Refusal::DuplicateFallback: return "duplicate-fallback";
    case Registry::Refusal::SignatureMismatch: return "signature-mismatch";
  }
  return "load-error";
}

}  // namespace

CheckLoad load_for_check(const std::vector<std::string>& sources) {
  CheckLoad out;
  size_t builtins = 0;
  while (builtins < sources.size() && is_builtin(sources[builtins])) ++builtins;
  for (size_t i = builtins; i < sources.size(); ++i)
    if (is_builtin(sources[i]))
      throw InputError(sources[i] + ": list builtin: registries before manifest files");
  if (builtins > 0) {
    // The real registries are PyTorch's own state: errors there are input errors.
    out.registry = load_registry({sources.begin(), sources.begin() + builtins});
  }
  auto sink = [&out](Registry::Refusal what, const Origin& where, const std::string& message) {
    Finding f;
    f.rule = std::string(refusal_rule(what));
    f.location = Location{std::string(where.file()), where.pointer(), where.line(), 0};
    f.message = message;
    out.findings.push_back(std::move(f));
  };
  for (size_t i = builtins; i < sources.size(); ++i) {
    const std::string& source = sources[i];
    if (torchgen::load_torchgen_source_for_check(source, out.registry, out.findings, out.manifest_files)) continue;
    try {
      const std::string text = read_input_file(source);
      ManifestDocument manifest = read_manifest(text, source, {builtin_releases()});
      if (!out.registry) {
        out.registry = std::make_unique<Registry>(*manifest.catalogue, manifest.torch_version);
      }
      out.registry->on_refused = sink;
      out.manifest_files.push_back(source);  // even if it loads only in part
      apply_manifest(*out.registry, manifest);
    } catch (const InputError& e) {
      out.findings.push_back(load_error(source, e.what()));
    }
  }
  if (out.registry) out.registry->on_refused = nullptr;
  return out;
}

void locate_findings(std::vector<Finding>& findings) {
  std::map<std::string, std::unique_ptr<JsonLocator>> locators;
  for (auto& f : findings) {
    Location& loc = f.location;
    if (loc.line > 0 || loc.file.empty() || is_builtin(loc.file)) continue;
    auto it = locators.find(loc.file);
    if (it == locators.end()) {
      std::unique_ptr<JsonLocator> locator;
      try {
        locator = std::make_unique<JsonLocator>(read_input_file(loc.file));
      } catch (const InputError&) {
        // unreadable: the finding keeps its file only
      }
      it = locators.emplace(loc.file, std::move(locator)).first;
    }
    if (!it->second) continue;
    if (auto pos = it->second->locate(loc.pointer)) {
      loc.line = pos->line;
      loc.column = pos->column;
    }
  }
}

}  // namespace dispatchctl
