#include "check/load.h"
#include "builtin/builtin_catalogues.h"

#include <map>
#include <optional>

#include "builtin/builtin.h"
#include "registry/manifest.h"
#include "load/load_registry.h"
#include "load/source_spec.h"
#include "check/lint_torchgen_yaml.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/json_locate.h"

namespace dispatchctl {
namespace {

// builtin:VERSION and python[:P] name a whole registry: PyTorch's own state,
// loaded first, where errors are input errors, not findings.
bool is_base_registry(const SourceSpec& spec) {
  return spec.kind == SourceSpec::Kind::Builtin || spec.kind == SourceSpec::Kind::Python;
}

// A finding's file that can be read to locate it (not builtin:, python:, torchgen:…).
bool names_a_file(const std::string& source) {
  try {
    return parse_source_spec(source).kind == SourceSpec::Kind::File;
  } catch (const InputError&) {
    return false;
  }
}

// A load error as a finding: the place the loader's InputError carries, or
// only the source when it names none or another file.
Finding load_error(const std::string& source, const InputError& e) {
  Finding f;
  f.rule = "load-error";
  f.location.file = source;
  const auto& where = e.location();
  if (!where || where->file != source) {
    f.message = e.what();  // a place in another file (a profile) is part of what is wrong
    return f;
  }
  f.message = e.detail();
  f.location.line = where->line;
  f.location.column = where->column;
  // With a position, the pointer stays part of the message, as the one line reads.
  if (where->line > 0 && !where->pointer.empty()) f.message = where->pointer + ": " + f.message;
  else f.location.pointer = where->pointer;
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

CheckLoad load_for_check(const std::vector<std::string>& sources, LoadRequest::Layering layering) {
  CheckLoad out;
  // Every source form through the one parser of -m values (load/source_spec.h).
  std::vector<SourceSpec> specs;
  for (const auto& source : sources) specs.push_back(parse_source_spec(source));
  size_t bases = 0;
  while (bases < specs.size() && is_base_registry(specs[bases])) ++bases;
  for (size_t i = bases; i < specs.size(); ++i)
    if (is_base_registry(specs[i]))
      throw InputError(specs[i].text + ": list builtin: and python: registries before manifest files");
  if (bases > 0) {
    // The real registries are PyTorch's own state: errors there are input errors.
    out.registry = load_registry({sources.begin(), sources.begin() + static_cast<std::ptrdiff_t>(bases)});
  }
  auto sink = [&out](Registry::Refusal what, const Origin& where, const std::string& message, std::string_view op,
                     std::string_view key) {
    Finding f;
    f.rule = std::string(refusal_rule(what));
    f.op = std::string(op);  // with the key, its identity for `check --base`
    f.key = std::string(key);
    f.location = Location{std::string(where.file()), where.pointer(), where.line(), 0};
    f.message = message;
    out.findings.push_back(std::move(f));
  };
  for (size_t i = bases; i < specs.size(); ++i) {
    const std::string& source = specs[i].argument;
    if (torchgen::load_torchgen_source_for_check(specs[i], out)) continue;
    std::optional<ManifestDocument> manifest;
    try {
      manifest = read_manifest(read_input_file(source), source,
                               {builtin_releases(), out.registry ? &out.registry->catalogue() : nullptr});
    } catch (const InputError& e) {
      out.findings.push_back(load_error(source, e));
      out.not_loaded.push_back(specs[i].text);
      continue;
    }
    bool is_base = false;
    if (!out.registry) {
      // The layering rule every command follows (--layer). Outside the
      // findings: a flag that cannot be honoured and the base registry
      // (PyTorch's own state) are input errors.
      LayeringDecision decision = decide_layering(*manifest, layering);
      if (!decision.base.empty()) out.registry = load_registry({decision.base});
      if (!decision.note.empty()) out.notes.push_back(std::move(decision.note));
      // A whole registry with manifests after it is their base, as builtin: is.
      is_base = decision.base.empty() && manifest->whole_registry && i + 1 < specs.size();
    }
    try {
      if (!out.registry) out.registry = std::make_unique<Registry>(*manifest->catalogue, manifest->torch_version);
      out.registry->on_refused = sink;
      if (is_base) out.base_files.push_back(source);
      else out.manifest_files.push_back(source);  // even if it loads only in part
      apply_manifest(*out.registry, std::move(*manifest));
    } catch (const InputError& e) {
      out.findings.push_back(load_error(source, e));
      out.not_loaded.push_back(specs[i].text);
    }
  }
  if (out.registry) out.registry->on_refused = nullptr;
  return out;
}

void locate_findings(std::vector<Finding>& findings) {
  std::map<std::string, std::unique_ptr<JsonLocator>> locators;
  for (auto& f : findings) {
    Location& loc = f.location;
    if (loc.line > 0 || loc.file.empty() || !names_a_file(loc.file)) continue;
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
