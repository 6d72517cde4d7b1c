// dispatchctl completion bash|zsh|fish: a completion script generated from
// this command line's own definitions (walking the CLI11 App), and the
// hidden `__complete` the scripts call for operator and key names.
#include <algorithm>
#include <cstdio>
#include <string_view>
#include <utility>

#include "builtin/builtin.h"
#include "builtin/builtin_catalogues.h"
#include "common.h"
#include "load/completion_names.h"
#include "render/completion_script.h"

namespace dispatchctl::cli {

namespace {

// What option values and positionals are, by command ("" for any) and
// name; anything else with a value is free text (or a choice, read from its
// IsMember check). A key option names the keys the command accepts, so TAB
// offers none it then rejects (explain --key takes no functionality key).
struct ValueKindOf {
  std::string_view command, name;
  ValueKind kind;
};
constexpr ValueKindOf k_value_kinds[] = {
    {"explain", "--key", ValueKind::RuntimeOrAliasKey}, {"report", "--key", ValueKind::RuntimeKey},
    {"", "--key", ValueKind::AnyKey},                      {"", "--require", ValueKind::RuntimeOrAliasKey},
    {"", "--registered-at", ValueKind::AnyKey},            {"", "--without", ValueKind::AnyKey},
    {"", "--tls-include", ValueKind::NotAliasKey},      {"", "--tls-exclude", ValueKind::NotAliasKey},
    {"", "--alias", ValueKind::AliasKey},               {"", "--tensor", ValueKind::Tensor},
    {"", "--op", ValueKind::Operator},                  {"", "OP", ValueKind::Operator},
    {"", "--manifest", ValueKind::Source},              {"", "--old", ValueKind::Source},
    {"", "--new", ValueKind::Source},                   {"", "OLD_NEW", ValueKind::Source},
    {"", "MANIFEST", ValueKind::Source},                {"", "--output", ValueKind::File},
    {"", "--config", ValueKind::File},                  {"", "--fallbacks", ValueKind::File},
    {"", "STATE_FILE", ValueKind::File},                {"", "--torch-version", ValueKind::Version},
    {"trace", "--calls", ValueKind::File},
};

ValueKind kind_by_name(const std::string& command, const std::string& name) {
  for (const auto& k : k_value_kinds)
    if (k.name == name && (k.command.empty() || k.command == command)) return k.kind;
  return ValueKind::Text;
}

// `__complete WHAT`: the words the scripts pass (render/completion_script.h names_word).
constexpr std::pair<std::string_view, KeyClass> k_key_classes[] = {
    {"keys", KeyClass::Any},
    {"runtime-keys", KeyClass::Runtime},
    {"runtime-or-alias-keys", KeyClass::RuntimeOrAlias},
    {"alias-keys", KeyClass::Alias},
    {"not-alias-keys", KeyClass::NotAlias},
};

// IsMember's description is "{a,b,c}".
std::vector<std::string> choices_of(CLI::Option* opt) {
  for (int i = 0;; ++i) {
    std::string desc;
    try {
      desc = opt->get_validator(i)->get_description();
    } catch (const CLI::OptionNotFound&) {
      return {};
    }
    if (desc.size() < 2 || desc.front() != '{' || desc.back() != '}') continue;
    std::vector<std::string> out;
    std::string word;
    for (char c : desc.substr(1, desc.size() - 2)) {
      if (c == ',') out.push_back(std::move(word)), word.clear();
      else word += c;
    }
    out.push_back(word);
    return out;
  }
}

ValueKind value_kind(CLI::Option* opt, const std::string& command, const std::string& name,
                     std::vector<std::string>& choices) {
  choices = choices_of(opt);
  return choices.empty() ? kind_by_name(command, name) : ValueKind::Choice;
}

bool visible(const CLI::App* sub) { return !sub->get_group().empty(); }

void describe(CLI::App& app, const std::string& path, CompletionSpec& spec) {
  CompletionCommand command;
  command.path = path;
  command.help = app.get_description();
  for (CLI::Option* opt : app.get_options([](CLI::Option*) { return true; })) {
    if (opt->get_positional() && !opt->nonpositional()) {
      command.positional = value_kind(opt, path, opt->get_name(true), command.positional_choices);
      continue;
    }
    CompletionOption option;
    for (const auto& s : opt->get_snames()) option.names.push_back("-" + s);
    for (const auto& l : opt->get_lnames()) option.names.push_back("--" + l);
    option.help = opt->get_description();
    if (opt->get_expected_max() > 0 && opt->get_type_size_max() > 0)  // flags expect 0 values
      option.value =
          value_kind(opt, path, opt->get_lnames().empty() ? "" : "--" + opt->get_lnames().front(), option.choices);
    command.options.push_back(std::move(option));
  }
  auto subs = app.get_subcommands([](CLI::App* s) { return visible(s); });
  for (CLI::App* sub : subs) command.subcommands.push_back(sub->get_name());
  spec.commands.push_back(std::move(command));
  for (CLI::App* sub : subs) describe(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), spec);
}

CompletionSpec describe_cli(CLI::App& app) {
  CompletionSpec spec;
  spec.program = app.get_name();
  for (const auto& b : builtin_registries())
    spec.builtins.push_back(std::string(k_builtin_prefix) + std::string(b.version));
  // -m's other forms (load/source_spec.h): the interpreter, imports and paths come after.
  for (const char* form : {"python", "python:", "python?import=", "torchgen:", "torchgen-backend:"})
    spec.builtins.push_back(form);
  spec.versions = builtin_releases().versions();
  describe(app, "", spec);
  return spec;
}

}  // namespace

void setup_completion(CLI::App& app, int& exit_code) {
  auto shell = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("completion", "Print a shell completion script (bash, zsh or fish)");
  sub->footer(
      "The script completes subcommands, flags, format values, and operator and key names of the\n"
      "registry in use (the -m options typed so far; a hidden fast subcommand answers them).\n\n"
      "Examples:\n"
      "  source <(dispatchctl completion bash)                      # this shell\n"
      "  dispatchctl completion bash > ~/.local/share/bash-completion/completions/dispatchctl\n"
      "  dispatchctl completion zsh > \"${fpath[1]}/_dispatchctl\"\n"
      "  dispatchctl completion fish > ~/.config/fish/completions/dispatchctl.fish");
  sub->add_option("SHELL", *shell, "bash, zsh or fish")->required()->check(CLI::IsMember({"bash", "zsh", "fish"}));
  sub->callback([shell, &app, &exit_code] {
    const CompletionSpec spec = describe_cli(app);
    write_stdout(*shell == "bash"  ? bash_completion_script(spec)
                 : *shell == "zsh" ? zsh_completion_script(spec)
                                   : fish_completion_script(spec));
    exit_code = 0;
  });

  struct Request {
    std::string what, prefix;
    RegistryOptions registry;
  };
  auto request = std::make_shared<Request>();
  CLI::App* hidden = app.add_subcommand("__complete", "Names for shell completion: ops|keys PREFIX [-m ...]");
  hidden->group("");
  std::vector<std::string> whats{"ops", "tensors"};
  for (const auto& [word, accepted] : k_key_classes) whats.emplace_back(word);
  hidden->add_option("WHAT", request->what)->required()->check(CLI::IsMember(whats));
  hidden->add_option("PREFIX", request->prefix);
  add_registry_options(hidden, request->registry);
  hidden->callback([request, &exit_code] {
    // A completion never prints errors: a half-typed -m file just completes nothing.
    try {
      const auto& sources = request->registry.manifests;
      std::vector<std::string> names;
      if (request->what == "ops") names = complete_operator_names(sources, request->prefix);
      else if (request->what == "tensors") names = complete_tensor_forms(sources, request->prefix);
      for (const auto& [word, accepted] : k_key_classes)
        if (request->what == word) names = complete_key_names(sources, request->prefix, accepted);
      std::string out;
      for (const auto& n : names) out += n + "\n";
      write_stdout(out);
    } catch (const std::exception&) {
    }
    exit_code = 0;
  });
}

}  // namespace dispatchctl::cli
