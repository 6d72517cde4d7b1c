// findSchemaDifferences (c10/core/op_registration/infer_schema.cpp): does a
// C++ kernel's inferred signature fit the operator's schema?
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

struct ParsedSignature {
  std::vector<std::string> argument_types;  // alias annotations removed
  std::vector<std::string> return_types;
};

// Parses "ns::op.overload(Tensor(a!) self, *, Scalar alpha=1) -> Tensor(a!)"
// or an inferred "(Tensor _0, Scalar _1) -> Tensor _0"; nullopt if malformed.
std::optional<ParsedSignature> parse_signature(std::string_view text);

// Splits schema text at top-level commas (not inside () [] or quotes), trimmed.
std::vector<std::string_view> split_top_level(std::string_view s);

// PyTorch's reason text ("The number of arguments is different. 3 vs 2.")
// when they disagree; nullopt when they agree or either cannot be parsed.
std::optional<std::string> schema_difference(std::string_view schema, std::string_view signature);

}  // namespace dispatchctl
