#include "check/lint_torchgen_yaml.h"
#include "builtin/builtin_catalogues.h"

#include <cstdlib>
#include <map>

#include "builtin/builtin.h"
#include "load/load_registry.h"
#include "load/source_spec.h"
#include "torchgen/apply.h"
#include "torchgen/backend_yaml.h"
#include "torchgen/grouping.h"
#include "util/file_io.h"
#include "util/errors.h"

namespace dispatchctl::torchgen {
namespace {

constexpr std::string_view k_rule = "torchgen-refusal";

Finding refusal(const NativeFunction& f, std::string message) {
  Finding out;
  out.rule = std::string(k_rule);
  out.severity = Severity::Error;
  out.message = std::move(message);
  out.location = dispatchctl::Location{f.loc.file, "", f.loc.line, 0};
  out.op = f.func.full_name();
  return out;
}

bool is_composite(const std::string& key) {
  return key == "CompositeExplicitAutograd" || key == "CompositeExplicitAutogradNonFunctional" ||
         key == "CompositeImplicitAutograd" || key == "CompositeImplicitAutogradNestedTensor";
}

bool has_tensor_argument(const FunctionSchema& s) {
  for (const auto& a : s.arguments)
    if (type_is_tensor_like(a.type)) return true;
  return false;
}

// NativeFunction.from_yaml's and gen.py's assertions that need the whole entry.
void check_entry(const NativeFunction& f, const TorchgenModel& model, const ReleaseRules& rules,
                 std::vector<Finding>& out) {
  const std::string name = f.name();
  int composites = 0;
  bool ciant = false, ceanf = false;
  for (const auto& key : f.autograd_dispatch_keys) {
    composites += is_composite(key);
    ciant = ciant || key == "CompositeImplicitAutogradNestedTensor";
    ceanf = ceanf || key == "CompositeExplicitAutogradNonFunctional";
  }
  if (composites > 1 && !(composites == 2 && ciant && !ceanf))
    out.push_back(refusal(f, "cannot specify more than one of CompositeExplicitAutograd, "
                             "CompositeExplicitAutogradNonFunctional, or CompositeImplicitAutograd on a single "
                             "kernel; each strictly subsumes the other. If you wanted to provide an explicit "
                             "autograd implementation, specify CompositeExplicitAutograd; otherwise specify "
                             "CompositeImplicitAutograd only"));
  if (f.structured_delegate) {
    for (const auto& key : rules.structured_keys)
      if (f.autograd_dispatch_keys.count(key))
        out.push_back(refusal(f, "if structured_delegate, then must not have " + key +
                                     " in dispatch dictionary (it is delegated!)"));
    const NativeFunction* delegate = model.find(*f.structured_delegate);
    if (!delegate)
      out.push_back(refusal(f, name + " is marked as a structured_delegate pointing to " + *f.structured_delegate +
                                   ", but " + *f.structured_delegate + " is missing."));
    else if (!delegate->structured)
      out.push_back(refusal(f, name + " is marked as a structured_delegate pointing to " + *f.structured_delegate +
                                   ", but " + *f.structured_delegate +
                                   " is not marked as structured. Consider adding 'structured=True' to the "
                                   "delegated operator"));
  }
  if (f.manual_kernel_registration && f.dispatch_written)
    out.push_back(refusal(f, "cannot specify both manual_kernel_registration and dispatch; with manual "
                             "registration, dispatch has no effect!"));
  const std::string base = f.func.name.to_string();
  const bool factory = base.rfind("new_", 0) == 0 || (base.size() > 5 && base.substr(base.size() - 5) == "_like") ||
                       (f.func.has_tensor_options() && !has_tensor_argument(f.func));
  if (!f.dispatch_written && !f.structured && !f.structured_delegate && factory)
    out.push_back(refusal(f, "expected " + base + " to have a CompositeExplicitAutograd dispatch entry, but there "
                             "was no dispatch table.  Factory functions should not have implicit dispatch as "
                             "they should not be decomposed for __torch_dispatch__"));
}

// "PATH:LINE: message" -> a finding at PATH:LINE.
Finding from_input_error(const std::string& what, const TorchgenInputs& inputs) {
  Finding f;
  f.rule = "load-error";
  f.severity = Severity::Error;
  f.message = what;
  for (const YamlSource* s : {&inputs.native_functions, inputs.tags ? &*inputs.tags : nullptr,
                              inputs.derivatives ? &*inputs.derivatives : nullptr}) {
    if (!s || what.rfind(s->path + ":", 0) != 0) continue;
    f.location.file = s->path;
    const char* rest = what.c_str() + s->path.size() + 1;
    char* end = nullptr;
    f.location.line = static_cast<int>(std::strtol(rest, &end, 10));
    f.message = end && end[0] == ':' ? std::string(end + 1 + (end[1] == ' ')) : std::string(rest);
  }
  if (f.location.file.empty()) f.location.file = inputs.native_functions.path;
  return f;
}

}  // namespace

std::vector<Finding> lint_torchgen_yaml(const TorchgenInputs& inputs, const Catalogue& catalogue) {
  std::vector<Finding> out;
  try {
    const ReleaseRules* rules = &rules_for_any_release(catalogue.version(), inputs.native_functions.path);
    ParseOptions options{rules, &catalogue, {"CPU"}};
    TorchgenModel model = parse_torchgen_inputs(inputs, options);
    for (const auto& f : model.functions) check_entry(f, model, *rules, out);
    add_generated_functions(model, *rules);
    for (const SignatureGroup& group : group_by_signature(model.functions)) {
      const auto out_member = group.members.find(SchemaKind::Out);
      if (group.members.size() == 1 && out_member != group.members.end()) {
        const NativeFunction& f = model.functions[out_member->second];
        if (!rules->out_ops_not_grouped.count(f.name()) && !f.manual_cpp_binding)
          out.push_back(refusal(f, "Found an out= operator that we could not find any other variants of: " +
                                       f.func.to_string()));
      }
      for (const auto& [kind, index] : group.members) {
        const NativeFunction& f = model.functions[index];
        if (f.structured && !(group.is_full_group() && kind == SchemaKind::Out))
          out.push_back(refusal(f, "This function is structured, but there was no valid functional variant of it."));
      }
    }
  } catch (const InputError& e) {
    out.push_back(from_input_error(e.what(), inputs));
  }
  return out;
}

bool load_torchgen_source_for_check(const std::string& source, std::unique_ptr<Registry>& registry,
                                    std::vector<Finding>& findings, std::vector<std::string>& files) {
  const bool backend = source.rfind(k_torchgen_backend_prefix, 0) == 0;
  if (!backend && source.rfind(k_torchgen_prefix, 0) != 0) return false;
  TorchgenInputs inputs{{source, ""}, std::nullopt, std::nullopt};
  try {
    // Parsed as -m parses it: "torchgen:PATH?build-backends=CPU,CUDA" works here too.
    const SourceSpec spec = parse_source_spec(source);
    const std::string path = spec.argument;
    inputs.native_functions.path = path;
    if (!registry) {
      // A backend YAML names PyTorch's operators; torchgen's own YAML defines them.
      if (backend) registry = load_registry({std::string(k_default_registry)});
      else registry = std::make_unique<Registry>(*builtin_catalogue(k_default_release), std::string(k_default_release));
    }
    if (backend) {
      files.push_back(path);
      apply_backend_yaml(*registry, {path, read_input_file(path)});
      return true;
    }
    inputs = read_torchgen_inputs(path);
    files.push_back(inputs.native_functions.path);
    if (inputs.derivatives) files.push_back(inputs.derivatives->path);
    const size_t before = findings.size();
    for (auto& f : lint_torchgen_yaml(inputs, registry->catalogue())) findings.push_back(std::move(f));
    for (size_t i = before; i < findings.size(); ++i)
      if (findings[i].rule == "load-error") return true;  // the YAML does not load
    TorchgenOptions options;
    if (!spec.build_backends.empty())
      options.build_backends = parse_build_backends(spec.build_backends, registry->torch_version());
    apply_torchgen(*registry, inputs, options);
  } catch (const InputError& e) {
    findings.push_back(from_input_error(e.what(), inputs));
  }
  return true;
}

}  // namespace dispatchctl::torchgen
