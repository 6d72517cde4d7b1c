// native_functions.yaml / tags.yaml / derivatives.yaml -> TorchgenModel,
// refusing what torchgen's parser refuses with file:line.
#include <yaml-cpp/yaml.h>

#include <optional>
#include <set>
#include <stdexcept>

#include "torchgen/deprecated.h"
#include "torchgen/inputs.h"
#include "torchgen/python_split.h"
#include "torchgen/refusals.h"
#include "torchgen/refusals_detail.h"
#include "torchgen/refusals_model2.h"
#include "torchgen/yaml_reading.h"
#include "util/errors.h"
#include "util/split_list.h"
#include "util/suggest.h"

namespace dispatchctl::torchgen {
namespace {

std::string scalar(const YAML::Node& node, const std::string& file, const std::string& field) {
  if (!node.IsScalar()) refuse_reading("malformed-entry", file, line_of(node), "'" + field + "' must be a string");
  return node.Scalar();
}

bool boolean(const YAML::Node& node, const std::string& file, const std::string& field) {
  if (const auto b = yaml_bool(node)) return *b;
  const std::string s = node.IsScalar() ? node.Scalar() : "";
  refuse_reading("field-value", file, line_of(node), "'" + field + "' must be True or False, not '" + s + "'",
         "; write " + field + ": True or False");
}

// A comma-separated dispatch key list ("CPU, CUDA: kernel", split on "," and
// stripped as torchgen does): torchgen refuses an empty item too.
std::vector<std::string> field_list(const std::string& text, const std::string& file, int line,
                                    const std::string& field) {
  try {
    return split_list(text, "'" + field + "'");
  } catch (const InputError& e) {
    const std::string what = e.what();  // "'FIELD': what; fix"
    const size_t fix_at = what.rfind("; ");
    refuse_reading("malformed-entry", file, line, what.substr(0, fix_at), fix_at == std::string::npos ? "" : what.substr(fix_at));
  }
}

// A type the release's BaseTy lacks is recorded, not thrown: the model reads
// on (another release's YAML read with these rules still loads for comparison).
FunctionSchema schema_at(const std::string& text, const std::string& file, int line, const ReleaseRules& rules,
                         std::vector<Refusal>& refusals) {
  try {
    FunctionSchema schema = parse_torchgen_schema(text);
    if (const std::string type = unrecognized_type(schema, rules); !type.empty())
      refusals.push_back({{file, line}, schema.full_name(), "illegal-schema",
                          "unrecognized type " + type + " in '" + text + "'",
                          std::string(kind_fix("illegal-schema"))});
    return schema;
  } catch (const ListDefaultError& e) {
    refuse_reading("list-default", file, line, std::string(e.what()) + " in '" + text + "'");
  } catch (const std::invalid_argument& e) {
    refuse_reading("illegal-schema", file, line, "malformed schema '" + text + "': " + e.what());
  }
}

bool abstract_for(const std::set<std::string>& keys, bool delegate) {
  if (delegate) return true;
  for (const auto& k : keys)
    if (k != "CompositeImplicitAutograd" && k != "CompositeImplicitAutogradNestedTensor") return true;
  return keys.empty();
}

struct EntryParser {
  const ParseOptions& options;
  const std::string& file;
  const std::set<std::string>& valid_tags;
  std::vector<Refusal>& refusals;

  std::string checked_key(const std::string& key, int line) const {
    if (options.catalogue && !options.catalogue->find(key) && key != "Default") {
      std::vector<std::string_view> names = options.catalogue->key_names();
      refuse_reading("unknown-dispatch-key", file, line, "unknown dispatch key '" + key + "'", did_you_mean(key, names));
    }
    return key;
  }

  std::set<std::string> ignored_keys() const {
    std::set<std::string> ignored = options.rules->gen_py_ignored_keys;
    for (const auto& backend : options.build_backends) {
      auto it = options.rules->backend_keys.find(backend);
      if (it != options.rules->backend_keys.end())
        for (const auto& k : it->second) ignored.erase(k);
    }
    return ignored;
  }

  void parse_tags(NativeFunction& f, const YAML::Node& node) const {
    std::vector<std::string> tags;
    if (node.IsSequence() && options.rules->tags_may_be_list) {
      for (const auto& t : node) tags.push_back(scalar(t, file, "tags"));
    } else {
      // 2.x reads a string as ONE tag ("tags: core, pointwise" is the tag "core, pointwise"); 1.13
      // split it on ", " exactly.
      const std::string text = scalar(node, file, "tags");
      if (options.rules->tags_may_be_list) tags = {text};
      else if (!text.empty()) tags = python_split(text, ", ");
    }
    for (const auto& t : tags) {
      if (!valid_tags.empty() && !valid_tags.count(t)) {
        std::vector<std::string_view> names(valid_tags.begin(), valid_tags.end());
        refuse_reading("illegal-tag", file, line_of(node), "illegal tag " + t, did_you_mean(t, names), f.func.full_name());
      }
      f.tags.insert(t);
    }
  }

  // Values torchgen asserts on while reading the entry (NativeFunction.from_yaml):
  // recorded as refusals, the entry read on with torchgen's default.
  void parse_checked_fields(NativeFunction& f, const YAML::Node& entry) const {
    // At the entry's line, as torchgen reports it ("in FILE:LINE" of the entry).
    auto refuse = [&](const YAML::Node&, const std::string& field, const std::string& reason,
                      const std::string& fix) {
      refusals.push_back({f.loc, f.func.full_name(), "field-value", field + ": " + reason, fix});
    };
    for (const char* field : {"device_guard", "use_const_ref_for_mutable_tensors"}) {
      const YAML::Node n = entry[field];
      if (!n) continue;
      if (!yaml_bool(n))
        refuse(n, field, "not a bool: " + (n.IsScalar() ? n.Scalar() : std::string()),
               "write " + std::string(field) + ": True or False");
    }
    if (const YAML::Node n = entry["device_check"]) {
      const std::string v = n.IsScalar() ? n.Scalar() : "";
      if (v != "ExactSame" && v != "NoCheck")
        refuse(n, "device_check", "unknown DeviceCheckType " + v, "write device_check: NoCheck or ExactSame");
    }
    // Precompute.parse takes any truthy value and asserts a list (a `precomputed: ARG -> ...` on one line).
    if (const YAML::Node n = entry["precomputed"]; n && !n.IsSequence() && !n.IsNull() &&
                                                   (n.IsMap() ? n.size() > 0 : !n.Scalar().empty()))
      refuse(n, "precomputed", std::string("precomputed must be a list, got ") + (n.IsMap() ? "a map" : "a string"),
             "write `precomputed:` and its `- ARG -> TYPE NAME, TYPE NAME` lines below it");
    if (const YAML::Node n = entry["precomputed"]; n && n.IsSequence() && n.size() > 0) {
      std::vector<std::string> lines;
      for (const auto& line : n) lines.push_back(line.IsScalar() ? line.Scalar() : "");
      if (const std::string problem = precomputed_problem(lines); !problem.empty())
        refuse(n, "precomputed", problem, "write `- ARG -> TYPE NAME, TYPE NAME` lines with lowercase names");
    }
    if (const YAML::Node n = entry["variants"]) {
      f.variants.clear();
      for (const auto& v : python_split(scalar(n, file, "variants"), ", ")) {
        if (v == "function" || v == "method") {
          f.variants.insert(v);
          continue;
        }
        refuse(n, "variants", "illegal variant " + v, "write variants: function, method (or one of them)");
        // The rest of the model reads the variants meant (`function,method`, `method ,function`):
        // one finding for the spelling, not also its cascade (no function variant, so no Python
        // binding, and the out= variant read as lone: sixth corpus' variants-no-space).
        for (const std::string& part : python_split(v, ","))
          for (const char* meant : {"function", "method"})
            if (part.find(meant) != std::string::npos) f.variants.insert(meant);
      }
    }
  }

  // Read as written; what torchgen asserts on them is in refusals_more.cpp.
  void parse_asserted_fields(NativeFunction& f, const YAML::Node& entry) const {
    if (auto n = entry["structured_inherits"]) f.structured_inherits = scalar(n, file, "structured_inherits");
    if (auto n = entry["python_module"]) f.python_module = scalar(n, file, "python_module");
    if (auto n = entry["category_override"]) f.category_override = scalar(n, file, "category_override");
    if (auto n = entry["cpp_no_default_args"]) {
      // NativeFunction.from_yaml asserts the list ("cpp_no_default_args is not a list: keepdim").
      if (!n.IsSequence())
        refuse_reading("field-value", file, line_of(n),
                       "cpp_no_default_args is not a list: " + (n.IsScalar() ? n.Scalar() : std::string("a map")),
                       "; write cpp_no_default_args: ['NAME']");
      for (const auto& a : n) f.cpp_no_default_args.push_back(scalar(a, file, "cpp_no_default_args"));
    }
    if (auto n = entry["device_check"]) f.device_check_written_no_check = n.IsScalar() && n.Scalar() == "NoCheck";
    if (auto n = entry["device_guard"]) f.device_guard = yaml_bool(n).value_or(true);
    f.precomputed = static_cast<bool>(entry["precomputed"]);
    if (auto n = entry["use_const_ref_for_mutable_tensors"])
      f.use_const_ref_for_mutable_tensors = yaml_bool(n).value_or(false);
  }

  NativeFunction parse(const YAML::Node& entry) const {
    if (!entry.IsMap()) refuse_reading("malformed-entry", file, line_of(entry), "expected an entry '- func: ...'");
    NativeFunction f;
    f.loc = {file, line_of(entry)};
    std::vector<std::string_view> fields(options.rules->known_fields.begin(), options.rules->known_fields.end());
    for (const auto& kv : entry) {
      const std::string field = kv.first.Scalar();
      if (!options.rules->known_fields.count(field))
        refuse_reading("unknown-field", file, line_of(kv.first), "unknown field '" + field + "' in a native_functions.yaml entry",
               did_you_mean(field, fields));
    }
    if (!entry["func"]) refuse_reading("malformed-entry", file, f.loc.line, "entry without 'func:'");
    f.func = schema_at(scalar(entry["func"], file, "func"), file, line_of(entry["func"]), *options.rules, refusals);
    if (auto n = entry["structured"]) f.structured = boolean(n, file, "structured");
    if (auto n = entry["structured_delegate"]) f.structured_delegate = scalar(n, file, "structured_delegate");
    if (auto n = entry["manual_cpp_binding"]) f.manual_cpp_binding = boolean(n, file, "manual_cpp_binding");
    if (auto n = entry["manual_kernel_registration"])
      f.manual_kernel_registration = boolean(n, file, "manual_kernel_registration");
    if (auto n = entry["autogen"]) {
      const std::string text = scalar(n, file, "autogen");
      if (!text.empty()) f.autogen = python_split(text, ", ");
    }
    if (auto n = entry["tags"]) parse_tags(f, n);
    parse_asserted_fields(f, entry);
    parse_checked_fields(f, entry);
    const std::set<std::string> ignored = ignored_keys();
    if (auto d = entry["dispatch"]) {
      if (!d.IsMap()) refuse_reading("malformed-entry", file, line_of(d), "'dispatch' must map dispatch keys to kernel names");
      f.dispatch_written = true;
      for (const auto& kv : d) {
        const int line = line_of(kv.first);
        scalar(kv.second, file, "dispatch kernel");
        for (const auto& key : field_list(kv.first.Scalar(), file, line, "dispatch")) {
          checked_key(key, line);
          f.autograd_dispatch_keys.insert(key);
          if (ignored.count(key)) continue;
          if (!options.rules->native_dispatch_keys.count(key))
            refusals.push_back({{file, line}, f.func.full_name(), "unsupported-dispatch-key",
                                "Dispatch key " + key + " of kernel " + kv.second.Scalar() +
                                    " is not a supported dispatch key.",
                                std::string(kind_fix("unsupported-dispatch-key"))});
          f.dispatch[key] = f.structured && options.rules->structured_keys.count(key);
          f.kernel_names[key] = kv.second.Scalar();
        }
      }
    } else if (!f.structured && !f.structured_delegate) {
      f.dispatch["CompositeImplicitAutograd"] = false;
      f.autograd_dispatch_keys.insert("CompositeImplicitAutograd");
    }
    if (const YAML::Node loop = entry["ufunc_inner_loop"]) {
      std::vector<std::pair<std::string, std::string>> loops;  // a plain string is the Generic loop
      if (loop.IsScalar()) loops.emplace_back("", loop.Scalar());
      if (loop.IsMap())
        for (const auto& kv : loop) loops.emplace_back(kv.first.Scalar(), scalar(kv.second, file, "ufunc_inner_loop"));
      if (const std::string problem = ufunc_inner_loop_problem(loops, *options.rules); !problem.empty())
        refuse_reading("ufunc-inner-loop", file, line_of(loop), problem, "", f.func.full_name());
      for (auto& [key, value] : loops) f.ufunc_inner_loop.emplace_back(key.empty() ? "Generic" : key, value);
      if (!f.structured)
        refuse_reading("ufunc-not-structured", file, line_of(entry["ufunc_inner_loop"]), "ufunc must be structured", "",
               f.func.full_name());
      for (const auto& key : options.rules->ufunc_keys) {
        if (f.dispatch.count(key))
          refuse_reading("ufunc-inner-loop", file, f.loc.line, "ufunc should not have explicit dispatch entry for " + key, "",
                 f.func.full_name());
        f.dispatch[key] = true;
        f.autograd_dispatch_keys.insert(key);
      }
    }
    return f;
  }
};

std::set<std::string> parse_tags_yaml(const YamlSource& source) {
  std::set<std::string> tags;
  for (const auto& entry : load_entry_list(source, "- func: ...")) {
    if (!entry.IsMap() || !entry["tag"])
      refuse_reading("malformed-entry", source.path, line_of(entry), "expected an entry '- tag: NAME'");
    // Other fields are ignored, as parse_tags_yaml_struct ignores them (checked with the real torchgen 2.14.1).
    const std::string tag = scalar(entry["tag"], source.path, "tag");
    const YAML::Node desc = entry["desc"];
    if (!desc || (desc.IsScalar() && desc.Scalar().empty()) || desc.IsNull())
      refuse_reading("tag-without-desc", source.path, line_of(entry), "Tag '" + tag + "' must have a non-empty description");
    tags.insert(tag);
  }
  return tags;
}

bool is_formula_key(const std::string& var) {
  return var != "name" && var != "dispatch" && var != "output_differentiability";
}

// load_derivatives pops name, dispatch and output_differentiability from the
// entry only: under a `dispatch:` key every name is a formula's (an
// output_differentiability there is a forward formula for no output).
void collect_formula_keys(const YAML::Node& formulas, DifferentiabilityInfo& info, const std::string& key,
                          bool in_dispatch) {
  if (!formulas.IsMap()) return;
  for (const auto& kv : formulas) {
    const std::string names = kv.first.Scalar();
    if (!in_dispatch && !is_formula_key(names)) continue;
    info.formula_keys.emplace_back(names, line_of(kv.first));
    const std::string text = kv.second.IsScalar() ? kv.second.Scalar() : "";
    info.formulas.push_back({key, names, text, line_of(kv.first), text == "non_differentiable"});
  }
}

// Top-level in an entry, with or without `dispatch:` (load_derivatives.py pops it first).
void read_output_differentiability(const YAML::Node& entry, DifferentiabilityInfo& info) {
  if (const YAML::Node od = entry["output_differentiability"]; od && od.IsSequence()) {
    DifferentiabilityInfo::OutputDifferentiability written{od.size(), false, false, line_of(od), {}};
    for (const auto& v : od) {
      const std::optional<bool> flag = yaml_bool(v);  // a str (quoted too) is a condition
      written.conditions = written.conditions || !flag;
      const bool is_false = flag == false;
      written.any_false = written.any_false || is_false;
      written.differentiable.push_back(!is_false);
    }
    info.output_differentiability = written;
  }
}

// A formula other than `non_differentiable` for an input (result: formulas are forward-mode only).
bool has_formula(const YAML::Node& formulas) {
  if (!formulas.IsMap()) return false;
  for (const auto& kv : formulas) {
    const std::string var = kv.first.Scalar();
    if (var == "name" || var == "dispatch" || var == "output_differentiability" || var.rfind("result", 0) == 0)
      continue;
    if (!kv.second.IsScalar() || kv.second.Scalar() != "non_differentiable") return true;
  }
  return false;
}

std::vector<DifferentiabilityInfo> parse_derivatives(const YamlSource& source, const EntryParser& keys) {
  std::vector<DifferentiabilityInfo> infos;
  for (const auto& entry : load_entry_list(source, "- func: ...")) {
    if (!entry.IsMap() || !entry["name"])
      refuse_reading("malformed-entry", source.path, line_of(entry), "expected an entry '- name: SCHEMA'");
    DifferentiabilityInfo info;
    info.loc = {source.path, line_of(entry)};
    info.written_name = scalar(entry["name"], source.path, "name");
    info.func = schema_at(info.written_name, source.path, line_of(entry["name"]), *keys.options.rules, keys.refusals);
    if (auto d = entry["dispatch"]) {
      if (!d.IsMap()) refuse_reading("malformed-entry", source.path, line_of(d), "'dispatch' must map autograd keys to formulas");
      for (const auto& kv : d) {
        info.keys[keys.checked_key(kv.first.Scalar(), line_of(kv.first))] = has_formula(kv.second);
        collect_formula_keys(kv.second, info, kv.first.Scalar(), true);
      }
    } else {
      info.keys["Default"] = has_formula(entry);
      collect_formula_keys(entry, info, "Default", false);
    }
    read_output_differentiability(entry, info);
    infos.push_back(std::move(info));
  }
  return infos;
}

// yaml-cpp's other exceptions (a conversion of an odd node) as one InputError line.
template <class F>
auto guarded(const std::string& file, F&& parse) {
  try {
    return parse();
  } catch (const YAML::Exception& e) {
    fail_reading(file, e.mark.line + 1, "unexpected YAML: " + e.msg);
  }
}

}  // namespace

TorchgenModel parse_torchgen_inputs(const TorchgenInputs& inputs, const ParseOptions& options) {
  TorchgenModel model;
  if (inputs.tags) model.valid_tags = guarded(inputs.tags->path, [&] { return parse_tags_yaml(*inputs.tags); });
  EntryParser parser{options, inputs.native_functions.path, model.valid_tags, model.parse_refusals};
  guarded(inputs.native_functions.path, [&] {
    std::map<std::string, int> seen;
    for (const auto& entry : load_entry_list(inputs.native_functions, "- func: ...")) {
      NativeFunction f = parser.parse(entry);
      auto [it, fresh] = seen.emplace(f.name(), f.loc.line);
      if (!fresh)
        refuse_reading("duplicate-operator", f.loc.file, f.loc.line,
               "duplicate operator " + f.name() + " (first at line " + std::to_string(it->second) + ")", "",
               f.func.full_name());
      model.functions.push_back(std::move(f));
    }
    return 0;
  });
  if (inputs.derivatives) {
    EntryParser key_checker{options, inputs.derivatives->path, model.valid_tags, model.parse_refusals};
    model.derivatives = guarded(inputs.derivatives->path, [&] { return parse_derivatives(*inputs.derivatives, key_checker); });
    model.has_derivatives_yaml = true;
  }
  if (inputs.deprecated) model.deprecated = parse_deprecated_yaml(*inputs.deprecated);
  return model;
}

bool NativeFunction::is_abstract() const {
  if (generated) return generated_abstract;
  std::set<std::string> keys;
  for (const auto& [k, structured_kernel] : dispatch) keys.insert(k);
  return abstract_for(keys, structured_delegate.has_value());
}

bool NativeFunction::is_abstract_for_autograd() const {
  if (generated) return generated_abstract_for_autograd;
  return abstract_for(autograd_dispatch_keys, structured_delegate.has_value());
}

bool NativeFunction::is_view_op(const std::set<std::string>& inplace_view_exceptions) const {
  for (const auto& r : func.returns)
    if (!r.alias.empty() && !r.is_write()) return true;
  if (tags.count("inplace_view") && !inplace_view_exceptions.count(name())) return true;
  for (const auto& a : func.arguments)
    if (a.is_wildcard()) return true;
  return false;
}

const NativeFunction* TorchgenModel::find(const std::string& op_name) const {
  if (indexed_ > functions.size()) index_.clear(), indexed_ = 0;  // functions was replaced by a shorter list
  for (; indexed_ < functions.size(); ++indexed_) index_.emplace(functions[indexed_].name(), indexed_);
  const auto it = index_.find(op_name);
  return it == index_.end() ? nullptr : &functions[it->second];
}

}  // namespace dispatchctl::torchgen
