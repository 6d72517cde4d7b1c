// pre_group_native_functions: ops with the same FunctionSchema.signature()
// are variants of one function (functional, inplace, mutable, out=).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "torchgen/model.h"

namespace dispatchctl::torchgen {

struct SignatureGroup {
  std::string signature;
  std::map<SchemaKind, size_t> members;  // kind -> index into the functions
  // NativeFunctionsGroup.from_dict: a real group needs a functional and an out= op.
  bool is_full_group() const {
    return members.size() > 1 && members.count(SchemaKind::Functional) && members.count(SchemaKind::Out);
  }
};

// In order of first appearance, as Python's dict keeps them.
std::vector<SignatureGroup> group_by_signature(const std::vector<NativeFunction>& functions);

}  // namespace dispatchctl::torchgen
