// libFuzzer target: the schema parser (registry/schema_parser.h). Input = one
// schema text; parsed with and without type variables, then the Tensor arity.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "registry/schema_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dispatchctl;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool typevars : {false, true}) {
    auto parsed = parse_function_schema(text, {typevars});
    if (auto* schema = std::get_if<FunctionSchema>(&parsed)) (void)tensor_arity(*schema);
    else if (std::get<SchemaError>(parsed).offset > text.size()) __builtin_trap();  // must point inside
  }
  return 0;
}
