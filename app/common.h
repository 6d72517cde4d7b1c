// What every subcommand shares: registry options, output, colour.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "load/load_registry.h"
#include "inventory/registry_build.h"
#include "query/predicates.h"
#include "registry/registry.h"

namespace dispatchctl::cli {

struct RegistryOptions {
  std::vector<std::string> manifests;
  LoadRequest::Layering layering = LoadRequest::Layering::Auto;  // --layer, --bare
  LoadRequest request() const { return LoadRequest{manifests, layering}; }
};

// -m/--manifest FILE|builtin:VERSION|python[:P], repeatable; --bare.
void add_registry_options(CLI::App* command, RegistryOptions& options);
// --layer auto|builtin|bare and --bare alone (check takes its sources as arguments).
void add_layer_options(CLI::App* command, LoadRequest::Layering& layering);
std::unique_ptr<Registry> open_registry(const RegistryOptions& options);

// For a registry a command is done with just before the process ends: the
// OS takes its memory back at once, while freeing thousands of operators one
// by one cost 2% of a whole-registry `show` (issue 14). It stays reachable,
// so leak checkers do not report it.
void keep_until_exit(std::unique_ptr<Registry> registry);

// The newest and the oldest built-in registry by name ("builtin:2.14.1",
// "builtin:1.13.1"): help examples are written with these, so they follow
// the built-in list (lib/builtin/data) with no code change.
std::string newest_builtin();
std::string oldest_builtin();

// Colour only on a terminal and never with NO_COLOR (https://no-color.org).
bool stdout_is_color_terminal();
// The one way app/ writes to standard output: straight to write(2), a large
// text in one call (fwrite would copy it through stdout's 4 KiB buffer) and
// a failed write (a full disk, /dev/full) an InputError, so exit 2 with one
// line. ChunkedOutput's sink for streamed output.
void write_stdout(std::string_view text);
// The one -o/--output of every command: standard output for "" or "-", else
// PATH written atomically (never half-written; errors name PATH). Returns
// whether a file was written, so the caller can say so (log_note).
bool write_output(std::string_view text, const std::string& path);
// -o's help text, the same for every command.
CLI::Option* add_output_option(CLI::App* command, std::string& path, const std::string& what);
// Columns text output wraps to: $COLUMNS, else the terminal's width when
// stdout is one, else 80 (never less than 40).
size_t output_width();
// --help at output_width(): option and command descriptions, the description
// and the footer wrapped at word boundaries (CLI11 prints them on one line).
// Installed on the main app before the subcommands are added (they copy it).
std::shared_ptr<CLI::FormatterBase> make_help_formatter();
// --format with a fixed set of choices and a default.
CLI::Option* add_format_option(CLI::App* command, std::string& format,
                               const std::vector<std::string>& choices);

// --ops-from FILE, --opset NAME and --exact (app/operator_scope.cpp): the
// operators a backend tracks, exact overload names (load/operator_set.h).
struct OperatorSetOptions {
  std::string ops_from, opset;
  bool exact = false;
  bool given() const { return !ops_from.empty() || !opset.empty(); }
};
void add_operator_set_options(CLI::App* command, OperatorSetOptions& options);
// The operators a command looks at: its --op patterns (exact names with
// --exact), narrowed to the set when one is given; empty = every operator.
// `label` names the set ("the core opset of PyTorch 2.14.1 (193 operators)"),
// "" without one. Notes the set's operators the registry lacks.
struct OperatorScope {
  std::vector<std::string> patterns;
  std::string label;
};
OperatorScope operator_scope(const Registry& registry, const OperatorSetOptions& options,
                             const std::vector<std::string>& op_patterns);
// The --op patterns alone, with --exact applied (before a registry is loaded).
std::vector<std::string> op_patterns_of(const OperatorSetOptions& options, const std::vector<std::string>& ops);

// -v/--verbose and -q/--quiet, accepted before or after the subcommand.
struct LoggingOptions {
  bool verbose = false;
  bool quiet = false;
};
void add_logging_options(CLI::App& app, LoggingOptions& options);
// Every message for people goes to stderr through one logger, one format:
// "dispatchctl: warning: ...", "dispatchctl: note: ...", "dispatchctl: error: ...";
// -v adds "dispatchctl: verbose: ..." lines (what was loaded, phase timings).
void setup_logging(const LoggingOptions& options);
// Whether -q was given (before or after the subcommand): has-kernel then
// answers with its exit status only.
bool quiet_requested();
void log_error(std::string_view message);
// With -v: milliseconds spent loading, computing tables, and the rest.
void log_phase_timings(double total_ms);
// CLI11's parse error `what` with a did-you-mean for a mistyped option, or
// "unknown command 'showw'; did you mean 'show'?".
std::string parse_error_text(const CLI::App& app, int argc, char** argv, const std::string& what);

// Each subcommand file defines setup_<name>(app, exit_code).
void setup_show(CLI::App& app, int& exit_code);
void setup_keys(CLI::App& app, int& exit_code);
void setup_import(CLI::App& app, int& exit_code);
void setup_registries(CLI::App& app, int& exit_code);
void setup_explain(CLI::App& app, int& exit_code);
void setup_has_kernel(CLI::App& app, int& exit_code);
void setup_query(CLI::App& app, int& exit_code);
void setup_trace(CLI::App& app, int& exit_code);
void setup_diff(CLI::App& app, int& exit_code);
void setup_check(CLI::App& app, int& exit_code);
void setup_report(CLI::App& app, int& exit_code);
void setup_completion(CLI::App& app, int& exit_code);
void setup_verify(CLI::App& app, int& exit_code);
void setup_export(CLI::App& app, int& exit_code);

}  // namespace dispatchctl::cli
