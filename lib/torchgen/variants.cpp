// O2: native_function_generation.add_generated_native_functions — the out=
// and functional variants torchgen adds so that every mutating op sits in a
// (functional, inplace, mutable, out=) group.
#include <map>

#include "torchgen/grouping.h"
#include "torchgen/inputs.h"

namespace dispatchctl::torchgen {
namespace {

std::string out_overload(const std::string& overload) { return overload.empty() ? "out" : overload + "_out"; }

// generate_out_args_from_schema: out arguments for the tensor-like returns.
void add_out_args_from_returns(const FunctionSchema& from, FunctionSchema& to) {
  std::set<char> used;
  for (const auto& a : from.arguments)
    if (!a.alias.empty()) used.insert(a.alias.front());
  std::string valid;
  for (char c = 'a'; c <= 'z'; ++c)
    if (!used.count(c)) valid += c;
  bool all_tensors = true;
  for (const auto& r : from.returns) all_tensors = all_tensors && type_text(r) == "Tensor";
  to.returns.clear();
  for (size_t i = 0; i < from.returns.size(); ++i) {
    const auto& r = from.returns[i];
    if (!is_tensor_like(r.type)) {
      to.returns.push_back(r);
      continue;
    }
    SchemaArgument out;
    out.name = from.returns.size() == 1 ? "out" : "out" + std::to_string(i);
    out.type = r.type;
    out.size = r.size;
    out.alias = std::string(1, i < valid.size() ? valid[i] : 'z') + "!";
    out.kwarg_only = true;  // kwarg-only and mutable: an out= argument
    to.arguments.push_back(out);
    if (all_tensors) {
      SchemaArgument returned;
      returned.type = out.type;
      returned.size = out.size;
      returned.alias = out.alias;
      to.returns.push_back(std::move(returned));
    }
  }
}

FunctionSchema out_schema(const FunctionSchema& base) {
  FunctionSchema out;
  switch (schema_kind(base)) {
    case SchemaKind::Inplace: {  // self_to_out_signature
      out = base;
      SchemaArgument extra;
      for (auto& a : out.arguments)
        if (!a.kwarg_only && a.name == "self") {
          extra = a;
          a.alias.clear();
        }
      extra.name = "out";
      extra.default_value.reset();
      extra.kwarg_only = true;  // with self's mutable alias: an out= argument
      out.arguments.push_back(extra);
      break;
    }
    case SchemaKind::Mutable:  // mutable_to_out_signature
      out = base;
      add_out_args_from_returns(base, out);
      break;
    default: {  // functional_to_out_signature
      out = signature(base);
      add_out_args_from_returns(base, out);
      break;
    }
  }
  const BaseOperatorName name = base_name(base);
  set_base_name(out, {name.base, false, name.dunder, false});
  out.overload_name = out_overload(base.overload_name);
  return out;
}

FunctionSchema functional_schema(const FunctionSchema& base) {
  FunctionSchema f = signature(base, false, true);
  BaseOperatorName name = base_name(f);
  name.functional_overload = schema_kind(base) == SchemaKind::Mutable;
  set_base_name(f, name);
  f.overload_name = base.overload_name;
  return f;
}

NativeFunction generated_from(const NativeFunction& base, FunctionSchema schema) {
  NativeFunction f;
  f.func = std::move(schema);
  f.loc = base.loc;
  f.dispatch["CompositeExplicitAutograd"] = false;
  f.autograd_dispatch_keys = {"CompositeExplicitAutograd"};
  f.dispatch_written = true;
  f.tags = {"generated"};
  if (base.tags.count("nondeterministic_seeded")) f.tags.insert("nondeterministic_seeded");
  f.generated = true;
  f.generated_abstract = base.is_abstract();
  f.generated_abstract_for_autograd = base.is_abstract_for_autograd();
  return f;
}

}  // namespace

std::vector<std::string> autogen_to_group(const SignatureGroup& group, const std::vector<NativeFunction>& functions,
                                          const ReleaseRules& rules) {
  const NativeFunction* base = generation_base(group, functions, rules);
  if (!base || group.members.count(SchemaKind::Out)) return {};
  std::vector<std::string> names;
  if (!group.members.count(SchemaKind::Functional)) names.push_back(op_name(functional_schema(base->func)));
  names.push_back(op_name(out_schema(base->func)));
  return names;
}

void add_generated_functions(TorchgenModel& model, const ReleaseRules& rules) {
  const std::vector<SignatureGroup> groups = group_by_signature(model.functions);
  std::vector<NativeFunction> added;
  for (const auto& group : groups) {
    const NativeFunction* base = generation_base(group, model.functions, rules);
    if (!base) continue;
    const bool out = group.members.count(SchemaKind::Out) != 0;
    const bool functional = group.members.count(SchemaKind::Functional) != 0;
    bool base_valid = schema_kind(base->func) == SchemaKind::Inplace;
    for (const auto& r : base->func.returns) base_valid = base_valid || is_tensor_like(r.type);
    bool needs_out = false;
    for (const auto& name : base->autogen) needs_out = needs_out || name.find("out") != std::string::npos;
    const bool gets_out = !out && base_valid && needs_out;
    if (gets_out) added.push_back(generated_from(*base, out_schema(base->func)));
    if (!functional && (out || gets_out)) added.push_back(generated_from(*base, functional_schema(base->func)));
  }
  for (auto& f : added) model.functions.push_back(std::move(f));
}

}  // namespace dispatchctl::torchgen
