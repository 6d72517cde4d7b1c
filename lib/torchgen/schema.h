// torchgen's view of a schema (torchgen/model.py FunctionSchema): the `func:`
// string of a native_functions.yaml entry, read into the one schema type
// (registry/schema_parser.h) and looked at the way the generators look at it:
// kind, self argument, out= arguments, TensorOptions, the grouping
// `signature()`, and the text torchgen and the dispatcher print for it
// (docs/torchgen-rules.md O3, O4).
#pragma once

#include <stdexcept>

#include <string>
#include <string_view>
#include <vector>

#include "registry/schema_parser.h"
#include "registry/schema_text.h"

namespace dispatchctl::torchgen {

using dispatchctl::FunctionSchema;
using dispatchctl::SchemaArgument;
using dispatchctl::SchemaType;

enum class SchemaKind { Functional, Inplace, Out, Mutable, Scratch };

// torchgen's BaseOperatorName: the operator name without namespace and overload.
struct BaseOperatorName {
  std::string base;  // "add", "and" for __iand__, "normal" for normal_functional
  bool inplace = false;
  bool dunder = false;
  bool functional_overload = false;  // the "_functional" suffix of a generated functional op
  std::string to_string() const;
};

// Read by PyTorch's schema parser (registry/schema_parser.h, the one schema
// parser), then checked for what torchgen takes: the name is qualified
// ("aten::" unless written), so FunctionSchema::full_name() is torchgen's
// full name. Throws std::invalid_argument with PyTorch's wording and the
// column, or torchgen's for what only torchgen refuses (a second '*', a
// non-mutable argument after out=, types beyond T? and T[], alias sets on
// non-Tensor types).
FunctionSchema parse_torchgen_schema(std::string_view text);
// Thrown by parse_torchgen_schema for an unsized list argument whose default
// is no list (`int[] dims=0`): torchgen parses the schema and refuses the
// default when it writes it as C++ (api/cpp.py default_expr).
struct ListDefaultError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

BaseOperatorName parse_base_operator_name(std::string_view text);
BaseOperatorName base_name(const FunctionSchema& s);
// Renames keeping the namespace.
void set_base_name(FunctionSchema& s, const BaseOperatorName& name);
std::string_view unqualified_name(const FunctionSchema& s);  // "add_", "__iand__"
std::string op_name(const FunctionSchema& s);  // "add.Tensor", "add_" (no namespace)

// torchgen's Arguments.out: kwarg-only mutable arguments (parse_torchgen_schema
// refuses a non-mutable one after the first).
bool is_out_argument(const SchemaArgument& a);
bool is_out_fn(const FunctionSchema& s);
SchemaKind schema_kind(const FunctionSchema& s);
bool is_tensor_like(const SchemaType& type);  // Tensor, Tensor?, Tensor[], Tensor?[]
const SchemaArgument* self_argument(const FunctionSchema& s);
// Positional arguments after `self` (all positional arguments without one, O3).
std::vector<const SchemaArgument*> post_self_positional(const FunctionSchema& s);
int tensor_options_start(const FunctionSchema& s);  // kwarg-only dtype, layout, device, pin_memory: index, or -1
bool has_tensor_options(const FunctionSchema& s);

// torchgen's text of the schema (YAML spelling, no namespace), and its grouping signature.
std::string torchgen_text(const FunctionSchema& s);
FunctionSchema signature(const FunctionSchema& s, bool strip_default = false, bool keep_return_names = false);
// view_signature(): the signature with a trailing "_copy" stripped from the
// base name (every "_copy", as Python's str.replace does) and a trailing
// "_scatter" read as "_inverse", so a view, its in-place view and its
// NAME_copy share one (get_grouped_by_view_native_functions).
FunctionSchema view_signature(const FunctionSchema& s);
// The dispatcher's re-print (c10 FunctionSchema printer, rules O4), with the namespace.
std::string dispatcher_text(const FunctionSchema& s, bool dimname_as_str);

}  // namespace dispatchctl::torchgen
