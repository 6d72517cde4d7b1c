#include "trace/bind_arguments.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "registry/schema_parser.h"
#include "util/errors.h"
#include "util/join.h"

namespace dispatchctl {

namespace {

enum class Slot { Required, Optional, List };

struct TensorParameter {
  const SchemaArgument* argument;
  Slot slot;
};

// The schema's tensor arguments in order; a type variable or Any can hold a
// tensor list, so it takes any number, as a Tensor[] does (tensor_arity).
struct Parameters {
  std::vector<TensorParameter> tensors;
  std::size_t required = 0, optional = 0, lists = 0;
  bool vararg = false;
};

Parameters parameters_of(const FunctionSchema& schema) {
  Parameters p;
  p.vararg = schema.is_vararg;
  for (const SchemaArgument& a : schema.arguments) {
    const bool opaque = a.type.kind == SchemaType::Kind::TypeVar ||
                        (a.type.kind == SchemaType::Kind::Named && a.type.name == "Any");
    Slot slot;
    if (opaque || a.type.tensor_list())
      slot = Slot::List;
    else if (!a.type.tensor_like())
      continue;
    else
      slot = a.type.kind == SchemaType::Kind::Optional || a.default_value ? Slot::Optional : Slot::Required;
    p.tensors.push_back({&a, slot});
    (slot == Slot::Required ? p.required : slot == Slot::Optional ? p.optional : p.lists) += 1;
  }
  return p;
}

// One way the given tensors fit: the first `optionals` Tensor? arguments are
// given, and every list (a vararg's tail counts as one) takes `per_list`.
struct Reading {
  std::size_t optionals = 0, per_list = 0;
};

std::vector<Reading> readings(const Parameters& p, std::size_t given) {
  std::vector<Reading> fits;
  if (given < p.required) return fits;
  const std::size_t extra = given - p.required;
  const std::size_t lists = p.lists + (p.vararg ? 1 : 0);
  for (std::size_t j = 0; j <= std::min(p.optional, extra); ++j) {
    const std::size_t rest = extra - j;
    if (lists == 0 ? rest == 0 : rest % lists == 0) fits.push_back({j, lists == 0 ? 0 : rest / lists});
  }
  return fits;
}

bool writes(const SchemaArgument& a) { return a.is_write(); }

TensorBinding bound(const Parameters& p, const Reading& r) {
  TensorBinding b;
  std::size_t optionals_seen = 0;
  for (const TensorParameter& t : p.tensors) {
    const std::size_t count = t.slot == Slot::Required   ? 1
                              : t.slot == Slot::Optional ? (optionals_seen++ < r.optionals ? 1 : 0)
                                                         : r.per_list;
    b.names.insert(b.names.end(), count, t.argument->name);
    b.written.insert(b.written.end(), count, writes(*t.argument));
  }
  if (p.vararg) {
    b.names.insert(b.names.end(), r.per_list, std::string());
    b.written.insert(b.written.end(), r.per_list, false);
  }
  return b;
}

// In order, one tensor per argument, a list taking what the arguments after
// it leave; past the schema's tensors, nothing.
TensorBinding in_order(const Parameters& p, std::size_t given) {
  TensorBinding b;
  const std::size_t singles = p.required + p.optional;
  std::size_t left_for_lists = given > singles ? given - singles : 0;
  for (const TensorParameter& t : p.tensors) {
    std::size_t count = 1;
    if (t.slot == Slot::List) count = std::exchange(left_for_lists, 0);
    count = std::min(count, given - b.names.size());
    b.names.insert(b.names.end(), count, t.argument->name);
    b.written.insert(b.written.end(), count, writes(*t.argument));
  }
  b.names.resize(given);
  b.written.resize(given, false);
  return b;
}

bool is_out(const FunctionSchema& schema) {
  return std::any_of(schema.arguments.begin(), schema.arguments.end(), [](const SchemaArgument& a) {
    return a.kwarg_only && a.type.tensor_like() && a.is_write();
  });
}

std::string names_of(const Parameters& p, Slot slot) {
  std::vector<std::string> names;
  for (const TensorParameter& t : p.tensors)
    if (t.slot == slot) names.push_back(t.argument->name + (slot == Slot::List ? "[]" : "?"));
  return join(names);
}

[[noreturn]] void refuse_count(const Operator& op, const FunctionSchema& schema, std::size_t given) {
  const TensorArity arity = tensor_arity(schema);
  const std::string names = join(arity.names);
  const std::string wanted = !arity.max ? "at least " + std::to_string(arity.min)
                             : arity.min == *arity.max ? std::to_string(arity.min)
                                                       : std::to_string(arity.min) + " to " + std::to_string(*arity.max);
  throw InputError("trace: " + std::string(op.name) + " takes " + wanted + " Tensor argument" +
                   (wanted == "1" ? "" : "s") + (names.empty() ? "" : " (" + names + ")") + " but " +
                   std::to_string(given) + " were given; pass one --tensor or --keyset per Tensor argument, in order");
}

}  // namespace

TensorBinding bind_tensor_arguments(const Operator& op, std::size_t given) {
  const std::optional<FunctionSchema> schema = operator_schema(op);
  if (!schema) return {};
  const Parameters p = parameters_of(*schema);
  const std::vector<Reading> fits = readings(p, given);
  if (fits.empty()) {
    const TensorArity arity = tensor_arity(*schema);
    if (given < arity.min || (arity.max && given > *arity.max) || p.lists < 2) refuse_count(op, *schema, given);
    throw InputError("trace: " + std::string(op.name) + "'s Tensor[] arguments (" + names_of(p, Slot::List) +
                     ") take the same number of tensors each, as the foreach operators require, but " +
                     std::to_string(given) + " tensors do not split so; pass as many for each");
  }
  if (fits.size() > 1)
    throw InputError("trace: the " + std::to_string(given) + " tensors given fit " + std::string(op.name) +
                     "'s Tensor arguments more than one way: its Tensor? arguments (" + names_of(p, Slot::Optional) +
                     ") and its Tensor[] arguments (" + names_of(p, Slot::List) +
                     ") can each take the ones past the required; leave the Tensor? arguments out, or pass them "
                     "all, so that one reading fits");
  TensorBinding b = bound(p, fits.front());
  b.out_operator = is_out(*schema);
  return b;
}

TensorBinding bind_passed_tensors(const Operator& op, std::size_t given) {
  const std::optional<FunctionSchema> schema = operator_schema(op);
  if (!schema) return {};
  const Parameters p = parameters_of(*schema);
  const std::vector<Reading> fits = readings(p, given);
  TensorBinding b = fits.size() == 1 ? bound(p, fits.front()) : in_order(p, given);
  b.out_operator = is_out(*schema);
  return b;
}

}  // namespace dispatchctl
