#include "trace/tensor_count.h"

#include <string>
#include <variant>

#include "registry/schema_parser.h"
#include "util/errors.h"
#include "util/join.h"

namespace dispatchctl {

void check_tensor_count(const Operator& op, std::size_t given) {
  if (!op.schema) return;  // a dangling impl: nothing to check against
  auto parsed = parse_function_schema(op.schema->text, {true});
  const auto* schema = std::get_if<FunctionSchema>(&parsed);
  if (!schema) return;
  const TensorArity arity = tensor_arity(*schema);
  if (given >= arity.min && (!arity.max || given <= *arity.max)) return;
  const std::string names = join(arity.names);
  const std::string wanted = !arity.max ? "at least " + std::to_string(arity.min)
                             : arity.min == *arity.max ? std::to_string(arity.min)
                                                       : std::to_string(arity.min) + " to " + std::to_string(*arity.max);
  throw InputError("trace: " + std::string(op.name) + " takes " + wanted + " Tensor argument" +
                   (wanted == "1" ? "" : "s") + (names.empty() ? "" : " (" + names + ")") + " but " +
                   std::to_string(given) +
                   " were given; pass one --tensor or --keyset per Tensor argument, in order");
}

}  // namespace dispatchctl
