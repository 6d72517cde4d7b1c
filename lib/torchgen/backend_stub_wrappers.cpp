#include "torchgen/backend_stub_wrappers.h"

#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "torchgen/schema.h"
#include "util/errors.h"

namespace dispatchctl::torchgen {
namespace {

constexpr std::string_view k_aten = "aten::";

std::string short_name(const std::string& op) { return op.substr(k_aten.size()); }

// What pre_group_native_functions keys a function by: its signature() text.
struct Variant {
  std::string op;
  SchemaKind kind;
  FunctionSchema schema;
};

class SignatureGroups {
 public:
  explicit SignatureGroups(const Registry& registry) : registry_(registry) {
    for (const auto& op : registry.operators()) {
      const std::string_view name = op.name;
      if (name.substr(0, k_aten.size()) != k_aten || !op.schema) continue;
      std::string_view unqualified = name.substr(k_aten.size());
      unqualified = unqualified.substr(0, unqualified.find('.'));
      by_base_[parse_base_operator_name(unqualified).base].push_back(&op);
    }
  }

  // The variants sharing `functional`'s signature, when they form a
  // NativeFunctionsGroup (a functional and an out= variant); empty otherwise.
  std::map<SchemaKind, Variant> group_of(const std::string& functional) const {
    std::map<SchemaKind, Variant> group;
    const auto parsed = parse(functional);
    if (!parsed || schema_kind(*parsed) != SchemaKind::Functional) return group;
    std::string unqualified = short_name(functional);
    unqualified = unqualified.substr(0, unqualified.find('.'));
    const auto candidates = by_base_.find(parse_base_operator_name(unqualified).base);
    if (candidates == by_base_.end()) return group;
    const std::string wanted = torchgen_text(signature(*parsed));
    for (const Operator* op : candidates->second) {
      auto schema = parse(op->name);
      if (!schema || torchgen_text(signature(*schema)) != wanted) continue;
      const SchemaKind kind = schema_kind(*schema);
      group.emplace(kind, Variant{std::string(op->name), kind, std::move(*schema)});
    }
    if (!group.count(SchemaKind::Functional) || !group.count(SchemaKind::Out)) group.clear();
    return group;
  }

 private:
  std::optional<FunctionSchema> parse(const std::string& op) const {
    const Operator* o = registry_.find(op);
    if (!o || !o->schema) return std::nullopt;
    try {
      return parse_torchgen_schema(std::string_view(o->schema->text));
    } catch (const std::invalid_argument&) {
      return std::nullopt;  // not a schema torchgen reads: no native function, no group
    }
  }

  const Registry& registry_;
  std::unordered_map<std::string, std::vector<const Operator*>> by_base_;
};

size_t out_argument_count(const FunctionSchema& s) {
  size_t n = 0;
  for (const auto& a : s.arguments) n += is_out_argument(a) ? 1 : 0;
  return n;
}

// Where gen_out_inplace_wrapper raises, the real generator writes nothing.
void check_wrappable(const Variant& v, const std::string& functional, const std::string& file, int line) {
  const std::string fix = "; list " + short_name(v.op) + " under the same key too, or drop " +
                          short_name(functional);
  if (v.kind == SchemaKind::Mutable)
    throw InputError(file + ":" + std::to_string(line) + ": gen_backend_stubs cannot generate a wrapper for " +
                     short_name(v.op) + ", the mutable variant of " + short_name(functional) +
                     " (it fails: \"gen_out_inplace_wrapper called on a functional op\")" + fix);
  if (v.schema.returns.empty() && out_argument_count(v.schema) != 1)
    throw InputError(file + ":" + std::to_string(line) + ": gen_backend_stubs cannot generate a wrapper for " +
                     short_name(v.op) + " around " + short_name(functional) + ": it returns nothing and has " +
                     std::to_string(out_argument_count(v.schema)) +
                     " out= arguments (it fails: \"Expected exactly 1 out argument\")" + fix);
}

}  // namespace

std::vector<StubWrapper> stub_wrappers(const Registry& registry,
                                       const std::vector<std::pair<std::string, int>>& listed,
                                       const std::string& file) {
  std::vector<StubWrapper> wrappers;
  if (listed.empty()) return wrappers;
  const SignatureGroups groups(registry);
  std::set<std::string> names;
  for (const auto& [op, line] : listed) names.insert(op);
  std::set<std::string> done;
  for (const auto& [functional, line] : listed) {
    if (!done.insert(functional).second) continue;
    // gen_unstructured visits a group's variants in functions() order: functional, out=, in-place, mutable.
    const auto group = groups.group_of(functional);
    for (const SchemaKind kind : {SchemaKind::Out, SchemaKind::Inplace, SchemaKind::Mutable}) {
      const auto it = group.find(kind);
      if (it == group.end() || names.count(it->second.op)) continue;
      check_wrappable(it->second, functional, file, line);
      wrappers.push_back({it->second.op, functional, line});
    }
  }
  return wrappers;
}

}  // namespace dispatchctl::torchgen
