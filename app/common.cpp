#include "common.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <cstdlib>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "builtin/builtin.h"
#include "load/load_registry.h"
#include "load/source_spec.h"
#include "util/errors.h"
#include "util/file_io.h"
#include "util/log.h"
#include "util/suggest.h"
#include "util/wrap.h"
#include "util/join.h"
#include "util/parse_number.h"

namespace dispatchctl::cli {

namespace {

// Our words for spdlog's levels: the ones compilers and git print.
class LevelWordFlag : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    const std::string_view word = msg.level == spdlog::level::debug  ? "verbose"
                                  : msg.level == spdlog::level::info ? "note"
                                  : msg.level == spdlog::level::warn ? "warning"
                                                                     : "error";
    dest.append(word.data(), word.data() + word.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<LevelWordFlag>(); }
};

std::shared_ptr<spdlog::logger> make_stderr_logger() {
  auto logger = std::make_shared<spdlog::logger>("dispatchctl", std::make_shared<spdlog::sinks::stderr_sink_st>());
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<LevelWordFlag>('*').set_pattern("dispatchctl: %*: %v");
  logger->set_formatter(std::move(formatter));
  logger->flush_on(spdlog::level::trace);
  return logger;
}

std::shared_ptr<spdlog::logger>& stderr_logger() {
  static std::shared_ptr<spdlog::logger> logger = make_stderr_logger();
  return logger;
}

}  // namespace

void add_logging_options(CLI::App& app, LoggingOptions& options) {
  app.add_flag("-v,--verbose", options.verbose,
               "Also print what was loaded from where and how long each phase took (stderr)");
  app.add_flag("-q,--quiet", options.quiet, "Print no warnings or notes; errors still show");
  // Subcommands pass options they do not know to the main app, so -v and -q
  // work after the subcommand too (dispatchctl show aten::add -v).
  app.fallthrough();
}

namespace {
bool g_quiet = false;
}  // namespace

bool quiet_requested() { return g_quiet; }

void setup_logging(const LoggingOptions& options) {
  g_quiet = options.quiet;
  auto& logger = stderr_logger();
  const LogLevel least = options.verbose ? LogLevel::verbose : options.quiet ? LogLevel::warning : LogLevel::note;
  logger->set_level(options.verbose ? spdlog::level::debug
                    : options.quiet ? spdlog::level::err
                                    : spdlog::level::info);
  if (options.quiet && !options.verbose) {
    set_log_sink({}, LogLevel::warning);  // nothing from the library either
    return;
  }
  set_log_sink(
      [](LogLevel level, std::string_view message) {
        const auto spd = level == LogLevel::verbose ? spdlog::level::debug
                         : level == LogLevel::note  ? spdlog::level::info
                                                    : spdlog::level::warn;
        stderr_logger()->log(spd, "{}", message);
      },
      least);
}

void log_error(std::string_view message) {
  std::fflush(stdout);  // what was printed so far comes before the error
  stderr_logger()->error("{}", message);
}

void log_phase_timings(double total_ms) {
  if (!log_enabled(LogLevel::verbose)) return;
  std::string text;
  double accounted = 0;
  for (const auto& [phase, ms] : phase_totals()) {
    text += fmt::format("{} {:.2f} ms, ", phase, ms);
    accounted += ms;
  }
  log_verbose("time: {}other {:.2f} ms (rendering, output, the command's own work), total {:.2f} ms", text,
              std::max(0.0, total_ms - accounted), total_ms);
}

void add_registry_options(CLI::App* command, RegistryOptions& options) {
  command->add_option("-m,--manifest", options.manifests,
                      "Registrations to load, in order: a manifest (.json, may be gzipped) or "
                      "builtin:VERSION (" + builtin_registry_names() + "), or python[:INTERPRETER][?import=M,...] "
                      "(that Python's live torch, after importing M, exported and cached). Repeat to layer. A first "
                      "manifest that defines no aten:: operator is layered over its release's "
                      "built-in registry. Default: " + std::string(k_default_registry))
      ->type_name("FILE");
  add_layer_options(command, options.layering);
}

void add_layer_options(CLI::App* command, LoadRequest::Layering& layering) {
  using Layering = LoadRequest::Layering;
  command
      ->add_option("--layer", layering,
                   "Whether a first manifest goes over its release's built-in registry: auto (unless it is a "
                   "whole registry: it defines aten:: operators or PyTorch's fallbacks; a note says which), "
                   "builtin (always), bare (never)")
      // The word as the enum's number; any other word is refused naming the three
      // (CLI11's CheckedTransformer would print its internal value table).
      ->transform(CLI::Validator(
          [](std::string& word) -> std::string {
            const std::optional<Layering> named = layering_named(word);
            if (!named) return "'" + word + "' is not auto, builtin or bare";
            word = std::to_string(static_cast<int>(*named));
            return "";
          },
          ""))
      ->type_name("auto|builtin|bare");
  command->add_flag_callback(
      "--bare", [&layering] { layering = Layering::Bare; },
      "Same as --layer bare: load -m files as they are");
}

std::unique_ptr<Registry> open_registry(const RegistryOptions& options) { return load_registry(options.request()); }

void keep_until_exit(std::unique_ptr<Registry> registry) {
  static auto* kept = new std::vector<std::unique_ptr<Registry>>;  // never destroyed, on purpose
  kept->push_back(std::move(registry));
}

bool stdout_is_color_terminal() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(fileno(stdout)) != 0;
}

size_t output_width() {
  // COLUMNS first: the user's explicit choice (and what tests set).
  if (const char* columns = std::getenv("COLUMNS"); columns && *columns) {
    // Any positive number, clamped; a number too big for long is as wide as the limit.
    const std::string_view text = columns;
    const auto n = parse_integer<long>(text, 1, std::numeric_limits<long>::max());
    const bool huge = !n && text.find_first_not_of("0123456789") == std::string_view::npos;
    if (n || huge) return static_cast<size_t>(std::max(40L, std::min(n.value_or(1000L), 1000L)));
  }
  struct winsize size {};
  if (isatty(fileno(stdout)) && ioctl(fileno(stdout), TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return std::max<size_t>(40, size.ws_col);
  return k_default_width;
}

void write_stdout(std::string_view text) {
  std::fflush(stdout);  // what CLI11 printed through stdio comes first
  while (!text.empty()) {
    const ssize_t written = ::write(STDOUT_FILENO, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw InputError(std::string("cannot write output: ") + std::strerror(errno));
    text.remove_prefix(static_cast<size_t>(written));
  }
}

namespace {

// Help text at `width`. Lines that fit stay as written. A plain line that
// does not fit is rewrapped together with the rest of its paragraph (the
// following plain lines; hand-wrapped footers break sentences at 90 columns);
// an indented line (an example) wraps on its own, continuing 4 further in.
std::string wrap_lines(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  for (size_t pos = 0; pos <= text.size();) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  auto plain = [](const std::string& line) { return !line.empty() && line[0] != ' ' && line.back() != ':'; };
  auto lead_of = [](const std::string& line) { return std::min(line.find_first_not_of(' '), line.size()); };
  // An indented "TERM   text" line (a list of options or values): where its text starts.
  auto hang_of = [&](const std::string& line) -> size_t {
    const size_t lead = lead_of(line);
    const size_t gap = line.find("  ", lead);
    if (lead == 0 || lead == line.size() || gap == std::string::npos) return 0;
    const size_t start = line.find_first_not_of(' ', gap);
    return start == std::string::npos ? 0 : start;
  };
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i];
    const size_t lead = lead_of(line);
    size_t indent = lead == 0 ? 0 : lead + 4;
    if (plain(line)) {
      // A paragraph broken by hand ("…read the key\ngiven with --key:") is one, up to its colon.
      auto continues = [](const std::string& next) { return !next.empty() && next[0] != ' '; };
      if (line.size() > width)
        while (i + 1 < lines.size() && line.back() != ':' && continues(lines[i + 1])) line += " " + lines[++i];
    } else if (const size_t hang = hang_of(line); hang && line.substr(lead, 12) != "dispatchctl ") {
      // Its hand-aligned continuation lines join it: one paragraph, wrapped at the hang.
      while (i + 1 < lines.size() && lead_of(lines[i + 1]) == hang && hang_of(lines[i + 1]) == 0)
        line += " " + lines[++i].substr(hang);
      indent = hang;
    } else if (const size_t comment = line.find("  # "); comment != std::string::npos && line.size() > width) {
      // An example's trailing comment goes on a line of its own, under the command.
      const std::string command = line.substr(0, line.find_last_not_of(' ', comment) + 1);
      out += command.size() <= width ? command : wrap_words(command, 0, indent, width);
      out += '\n' + wrap_words(std::string(indent, ' ') + line.substr(comment + 2), 0, indent + 2, width);
      if (i + 1 < lines.size()) out += '\n';
      continue;
    }
    out += line.size() <= width ? line : wrap_words(line, 0, indent, width);
    if (i + 1 < lines.size()) out += '\n';
  }
  return out;
}

class WrappingFormatter : public CLI::Formatter {
 public:
  std::string make_option_desc(const CLI::Option* opt) const override {
    return wrap_words(CLI::Formatter::make_option_desc(opt), 0, 0, description_width());
  }
  std::string make_subcommand(const CLI::App* sub) const override {
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true),
                             wrap_words(sub->get_description(), 0, 0, description_width()), column_width_);
    return out.str();
  }
  std::string make_description(const CLI::App* app) const override {
    return wrap_lines(CLI::Formatter::make_description(app), output_width());
  }
  std::string make_footer(const CLI::App* app) const override {
    return wrap_lines(CLI::Formatter::make_footer(app), output_width());
  }

 private:
  size_t description_width() const { return std::max<size_t>(20, output_width() - column_width_); }
};

}  // namespace

std::shared_ptr<CLI::FormatterBase> make_help_formatter() { return std::make_shared<WrappingFormatter>(); }

bool write_output(std::string_view text, const std::string& path) {
  if (path.empty() || path == "-") {
    write_stdout(text);
    return false;
  }
  write_file_atomically(path, text);
  return true;
}

CLI::Option* add_output_option(CLI::App* command, std::string& path, const std::string& what) {
  return command->add_option("-o,--output", path, what + " to write (default: stdout, also '-'); written atomically")
      ->type_name("FILE");
}

CLI::Option* add_format_option(CLI::App* command, std::string& format,
                               const std::vector<std::string>& choices) {
  format = choices.front();
  return command->add_option("-f,--format", format, "Output format: " + join(choices, "|"))
      ->check(CLI::IsMember(choices))
      ->type_name("FORMAT")
      ->capture_default_str();
}

std::string parse_error_text(const CLI::App& app, int argc, char** argv, const std::string& what) {
  std::vector<std::string> subcommand_names;
  for (const CLI::App* sub : app.get_subcommands({})) subcommand_names.push_back(sub->get_name());
  const CLI::App* command = nullptr;
  for (int i = 1; i < argc && !command; ++i)
    for (const CLI::App* sub : app.get_subcommands({}))
      if (sub->get_name() == argv[i]) command = sub;
  if (!command) {  // the first word is not a subcommand
    if (argc < 2 || argv[1][0] == '-') return what;
    std::vector<std::string_view> names(subcommand_names.begin(), subcommand_names.end());
    const std::string hint = did_you_mean(argv[1], names);
    return "unknown command '" + std::string(argv[1]) + "'" +
           (hint.empty() ? "; commands: " + join(subcommand_names) : hint);
  }
  std::vector<std::string> options;
  for (const CLI::Option* opt : command->get_options())
    for (const auto& name : opt->get_lnames()) options.push_back("--" + name);
  std::vector<std::string_view> names(options.begin(), options.end());
  for (int i = 1; i < argc; ++i) {
    const std::string word = std::string(argv[i]).substr(0, std::string(argv[i]).find('='));
    if (word.rfind("--", 0) != 0 || std::find(options.begin(), options.end(), word) != options.end()) continue;
    if (std::string hint = did_you_mean(word, names); !hint.empty()) return what + hint;
  }
  return what;
}

std::string newest_builtin() { return std::string(k_default_registry); }

std::string oldest_builtin() {
  return std::string(k_builtin_prefix) + std::string(builtin_registries().back().version);
}

}  // namespace dispatchctl::cli
