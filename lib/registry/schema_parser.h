// Operator schemas read as PyTorch's schema parser reads them
// (torch/csrc/jit/frontend/function_schema_parser.cpp and
// schema_type_parser.cpp): types, alias annotations, defaults, the `*`
// keyword-only marker, returns and overload names. What it refuses is refused
// here, with its wording where it has one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dispatchctl {

struct SchemaType {
  enum class Kind { Named, TypeVar, List, Optional, Tuple, Dict, Future, Await, RRef, Union, CustomClass };
  Kind kind = Kind::Named;
  std::string name;  // Named: "Tensor", "int", "ScalarType", …; TypeVar: "t"; CustomClass: its qualified name
  std::vector<SchemaType> contained;
  bool tensor_like() const;   // Tensor, Tensor?, Tensor[], Tensor?[] …
  bool tensor_list() const;   // Tensor[] or Tensor?[] (a list of tensors, any length)
  bool operator==(const SchemaType&) const = default;
};

struct SchemaArgument {
  SchemaType type;
  std::string name;
  std::optional<int> size;                    // int[2]
  std::optional<std::string> default_value;   // as written
  bool kwarg_only = false;
  std::string alias;                          // "a!", "a -> *", "" (as written, without parentheses)
  size_t name_offset = 0;                     // where the name is in the schema text
  bool is_write() const { return alias.find('!') != std::string::npos; }     // Tensor(a!)
  bool is_wildcard() const { return alias.find("->") != std::string::npos; }  // Tensor(a -> *)
};

struct FunctionSchema {
  std::string name;           // "aten::add"
  std::string overload_name;  // "Tensor", "" for the default overload
  std::vector<SchemaArgument> arguments;
  std::vector<SchemaArgument> returns;
  bool is_vararg = false;
  bool is_varret = false;
  std::string full_name() const { return overload_name.empty() ? name : name + "." + overload_name; }
};

struct SchemaError {
  size_t offset = 0;    // byte offset in the schema text where PyTorch points
  std::string message;  // PyTorch's words, e.g. "unknown type specifier 'Tensr'"
  std::string fix;      // "did you mean 'Tensor'?" or ""
};

struct SchemaParseOptions {
  // Lower-case unknown type names are type variables (`t`, `t1`). PyTorch 2.x
  // allows them only in aten:: and prim:: schemas; 1.13 allowed them anywhere.
  bool typevars_everywhere = false;
};

std::variant<FunctionSchema, SchemaError> parse_function_schema(std::string_view text,
                                                                 const SchemaParseOptions& options = {});

struct Operator;
// A registered operator's schema, parsed as the registry accepted it (type
// variables anywhere); nullopt for an operator without one (a dangling impl).
std::optional<FunctionSchema> operator_schema(const Operator& op);

// The number of --tensor arguments a call of this schema can take: at least
// `min`, at most `max` (nullopt: no upper bound, a Tensor[] or Any argument).
struct TensorArity {
  size_t min = 0;
  std::optional<size_t> max;
  std::vector<std::string> names;  // the tensor arguments, "self", "other?", "tensors[]"
};
TensorArity tensor_arity(const FunctionSchema& schema);

}  // namespace dispatchctl
