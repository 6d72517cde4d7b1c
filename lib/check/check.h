// `check`: lint a layered registry (manifests and builtin:VERSION) with the
// rules of finding.h. Loading problems become findings too, so one run
// reports everything; the library never prints.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "check/finding.h"
#include "check/lint_changes.h"
#include "load/load_registry.h"
#include "registry/registry.h"

namespace dispatchctl {

struct CheckOptions {
  std::vector<std::string> require;      // runtime keys every operator in scope must fill
  std::vector<std::string> op_patterns;  // scope; empty = see run_check
  // Scope too: only the operators a list names (--ops-from FILE, exact
  // overload names) or the release tags (--opset core); load/operator_set.h.
  std::string ops_from, opset;
  // Per-rule severity; nullopt turns the rule off. Absent = the rule's default.
  std::map<std::string, std::optional<Severity>> severities;
  bool warnings_as_errors = false;
  // With manifest files, also lint the base registry's operators they do not touch.
  bool include_base = false;
  // `--base`: the sources before the change (layered like the checked ones).
  // Non-empty: only the findings the change brings are reported.
  std::vector<std::string> base;
  bool show_existing = false;  // with base: list the pre-existing findings too
  // --layer: whether a first manifest file goes over its release's built-in
  // registry, by the rule every command follows (load/load_registry.h).
  LoadRequest::Layering layering = LoadRequest::Layering::Auto;
};

// dispatchctl.json: {"dispatchctl_check": 1, "rules": {"ID": "off|note|warning|error"},
// "require": [KEY…], "ops": [PATTERN…], "warnings_as_errors": bool, "include_base": bool}. InputError
// naming the file, JSON pointer and a fix on anything else.
CheckOptions read_check_config(std::string_view text, const std::string& source);

// What one check run is given besides its sources (the command line's flags,
// the Python module's arguments): the config file named (read first, "" for
// none), then what the flags add to it or set.
struct CheckFlags {
  std::string config;
  std::vector<std::string> require, op_patterns, base;
  std::string ops_from, opset;
  bool warnings_as_errors = false, include_base = false, show_existing = false;
  LoadRequest::Layering layering = LoadRequest::Layering::Auto;
};
// InputError for a config that cannot be read and for flags that do not go
// together (--show-existing without --base).
CheckOptions check_options(const CheckFlags& flags);

struct CheckResult {
  std::vector<Finding> findings;  // sorted: source order, line, column, rule
  std::string torch_version;
  std::vector<std::string> sources;
  // What the layering rule decided for a first manifest file, one note per
  // file (the base's too with CheckOptions::base): the caller shows them.
  std::vector<std::string> notes;
  size_t operators_checked = 0;
  // The registry checked (null when nothing loaded): the caller decides when
  // to free it (the CLI leaves it to the process exit, app/common.h).
  std::unique_ptr<Registry> registry;
  // With CheckOptions::base: how the findings compare to the base's (identity
  // = rule, operator, key, kind; never the line). `findings` holds the new
  // ones (and, with show_existing, the pre-existing ones, marked).
  std::function<bool(const Operator&)> in_scope;  // the operators checked
  bool compared_to_base = false;
  size_t new_count = 0, existing_count = 0;
  std::vector<Finding> fixed;  // the base's findings the change removes
  // Sources checked that did not load (a load-error, or torchgen stopped
  // reading the YAML): the registry lacks the change, so with a base nothing
  // is claimed fixed: the base's findings all stay pre-existing.
  std::vector<std::string> not_loaded;
  std::map<std::string, FormulaFact> formulas;  // the torchgen: sources' derivatives.yaml entries (load.h)
  std::optional<std::set<std::string>> cuda_kernels_by_yaml;  // load.h
  bool has_errors() const;
};

// Scope: operators matching op_patterns, and among those, when any manifest
// file is given (loaded or not), only the operators that a manifest file
// touches (defines or registers a kernel for): linting my_backend.json on top
// of builtin:2.14.1 reports my_backend.json's problems, not PyTorch's, even
// when my_backend.json fails to load. include_base or builtins only: every
// operator. Load errors sort first; they are always errors. InputError for a --require key or --op name that does not
// exist, or a builtin: source listed after a manifest file.
CheckResult run_check(const std::vector<std::string>& sources, const CheckOptions& options);

// Keeps in `result` only what is new against `base` (both sorted results of
// run_check); see CheckResult::compared_to_base.
void compare_to_base(CheckResult& result, CheckResult base, bool show_existing);

}  // namespace dispatchctl
