// dispatchctl keys: the key catalogue of a release.
#include "builtin/builtin.h"
#include "builtin/builtin_catalogues.h"
#include "common.h"
#include "keys/profile.h"
#include "registry/key_lookup.h"
#include "render/keys_render.h"
#include "render/json_document.h"

namespace dispatchctl::cli {

namespace {
// "1.13 or 2.14": the releases built in (builtin_releases().versions()).
std::string versions_text() {
  const std::vector<std::string> versions = builtin_releases().versions();
  std::string text;
  for (size_t i = 0; i < versions.size(); ++i)
    text += (i == 0 ? "" : i + 1 == versions.size() ? " or " : ", ") + versions[i];
  return text;
}

struct KeysCommand {
  std::string version = std::string(k_default_release);
  std::string alias;
  bool json_alias = false;
  std::string format;
  RegistryOptions registry;
  bool json() const { return json_alias || format == "json"; }

  int run() const {
    std::unique_ptr<Registry> loaded;
    if (!registry.manifests.empty()) loaded = open_registry(registry);
    const Catalogue* cat = loaded ? &loaded->catalogue() : builtin_catalogue(version);
    if (!cat) {
      throw InputError("--torch-version " + version + ": not supported; supported: " +
                       builtin_releases().versions_text());
    }
    if (!alias.empty()) {
      const Key k = require_key(*cat, alias, "--alias", &builtin_releases());
      if (!cat->is_alias(k))
        throw InputError("--alias " + alias + ": not an alias key; alias keys are Autograd, "
                         "CompositeImplicitAutograd, CompositeExplicitAutograd, … (see 'dispatchctl keys')");
      write_stdout(json() ? json_document(alias_json(*cat, k)).dump(2) + "\n" : alias_text(*cat, k));
      return 0;
    }
    // The full release, as show and the other commands say it: the loaded
    // registry's, else the built-in registry's of that release.
    const BuiltinRegistry* builtin = find_builtin(std::string(cat->version()));
    const std::string torch_version = loaded    ? loaded->torch_version()
                                      : builtin ? std::string(builtin->version)
                                                : std::string(cat->version());
    write_stdout(json() ? catalogue_json(*cat, torch_version).dump(2) + "\n" : catalogue_text(*cat, output_width()));
    return 0;
  }
};
}  // namespace

void setup_keys(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<KeysCommand>();
  CLI::App* sub = app.add_subcommand("keys", "Print a release's dispatch-key catalogue");
  sub->footer(
      "Backends, functionality keys in priority order, every runtime key in table order (~ marks "
      "names Python's parseDispatchKey rejects), the alias keys and the runtime keys each fills, "
      "the autogradother backends and the backend set of each autograd key.\n\n"
      "Examples:\n"
      "  dispatchctl keys\n"
      "  dispatchctl keys --torch-version " + major_minor(builtin_registries().back().version) + " --format json\n"
      "  dispatchctl keys -m mine.json        (the release an export was made from)\n"
      "  dispatchctl keys --alias CompositeExplicitAutogradNonFunctional");
  add_registry_options(sub, command->registry);
  sub->add_option("--torch-version", command->version,
                  "A built-in release: " + versions_text() + " (patch ignored); -m FILE takes the release of an export")
      ->capture_default_str()
      ->type_name("V");
  sub->add_option("--alias", command->alias, "Only this alias key's runtime keys")->type_name("NAME");
  add_format_option(sub, command->format, {"text", "json"});
  sub->add_flag("--json", command->json_alias, "Same as --format json")->group("");
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
