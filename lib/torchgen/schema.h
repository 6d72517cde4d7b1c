// torchgen's FunctionSchema (torchgen/model.py): the `func:` string of a
// native_functions.yaml entry, parsed into the pieces the generators look at
// (kind, self argument, out= arguments, TensorOptions, alias annotations),
// the grouping `signature()`, and the text the dispatcher prints for it
// (docs/torchgen-rules.md O3, O4).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl::torchgen {

struct SchemaArgument {
  std::string type;        // without the alias annotation: "Tensor", "Tensor?[]", "int[1]"
  std::string annotation;  // inside the parentheses: "a!", "a", "a -> *"; empty if none
  std::string name;
  std::optional<std::string> default_value;  // as written in the YAML
  bool kwarg_only = false;
  bool out = false;  // kwarg-only mutable (and everything after it)
  bool is_write() const { return annotation.find('!') != std::string::npos; }
  bool is_wildcard() const { return annotation.find("->") != std::string::npos; }
};

struct SchemaReturn {
  std::string type;
  std::string annotation;
  std::string name;
  bool is_write() const { return annotation.find('!') != std::string::npos; }
};

enum class SchemaKind { Functional, Inplace, Out, Mutable, Scratch };

struct BaseOperatorName {
  std::string base;  // "add", "and" for __iand__, "normal" for normal_functional
  bool inplace = false;
  bool dunder = false;
  bool functional_overload = false;  // the "_functional" suffix of a generated functional op
  std::string to_string() const;
};

struct FunctionSchema {
  std::string ns = "aten";
  BaseOperatorName name;
  std::string overload;
  std::vector<SchemaArgument> arguments;  // in order; `*` between positional and kwarg-only
  std::vector<SchemaReturn> returns;

  std::string op_name() const;  // "add.Tensor", "add_" (no namespace)
  std::string full_name() const { return ns + "::" + op_name(); }
  SchemaKind kind() const;
  const SchemaArgument* self_argument() const;
  // Positional arguments after `self` (all positional arguments without one, O3).
  std::vector<const SchemaArgument*> post_self_positional() const;
  bool has_tensor_options() const;   // kwarg-only dtype, layout, device, pin_memory in a row
  int tensor_options_start() const;  // index into arguments, or -1
  bool has_out() const;
  // torchgen's text of the schema (YAML spelling), and of its grouping signature.
  std::string to_string() const;
  FunctionSchema signature(bool strip_default = false, bool keep_return_names = false) const;
  // The dispatcher's re-print (c10 FunctionSchema printer, rules O4).
  std::string dispatcher_text(bool dimname_as_str) const;

  using TypePrinter = std::function<std::string(const std::string&)>;
  using DefaultPrinter = std::function<std::string(const SchemaArgument&)>;
  std::string print(bool with_namespace, const TypePrinter& type_text, const DefaultPrinter& default_text) const;
};

// Read by PyTorch's schema parser (registry/schema_parser.h, the one schema
// parser) and adapted to this model: types in YAML spelling ("int[1]?",
// "Tensor[]" with annotation "a!"). Throws std::invalid_argument with PyTorch's
// wording and the column, or torchgen's for what only torchgen refuses (a
// second '*', a non-mutable argument after out=, types beyond T? and T[]).
FunctionSchema parse_function_schema(std::string_view text);
BaseOperatorName parse_base_operator_name(std::string_view text);
bool type_is_tensor_like(std::string_view type);
// "Tensor[]" + "a!" -> "Tensor(a!)[]".
std::string with_annotation(const std::string& type, const std::string& annotation);

}  // namespace dispatchctl::torchgen
