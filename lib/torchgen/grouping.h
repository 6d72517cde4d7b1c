// pre_group_native_functions: ops with the same FunctionSchema.signature()
// are variants of one function (functional, inplace, mutable, out=).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "torchgen/model.h"
#include "torchgen/release_rules.h"

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

// add_generated_native_functions skips the group (generates nothing, refuses
// no lone out=): every member a manual binding, a view operator among them
// (set_ aside), or all CompositeImplicitAutograd and none tagged core.
bool generation_skipped(const SignatureGroup& group, const std::vector<NativeFunction>& functions,
                        const ReleaseRules& rules);

// add_generated_native_functions: the member torchgen generates the group's
// missing variants from (mutable, else in-place, out=, functional), or
// nullptr when it generates none for the group (manual bindings, views,
// non-core CompositeImplicitAutograd groups, a lone out=, polygamma_).
const NativeFunction* generation_base(const SignatureGroup& group, const std::vector<NativeFunction>& functions,
                                      const ReleaseRules& rules);

// The `autogen:` names (functional if missing, then out=) that, written on the
// generation base, make a group without an out= a NativeFunctionsGroup; empty
// when torchgen generates nothing for it or it has its out= (variants.cpp).
std::vector<std::string> autogen_to_group(const SignatureGroup& group, const std::vector<NativeFunction>& functions,
                                          const ReleaseRules& rules);

}  // namespace dispatchctl::torchgen
