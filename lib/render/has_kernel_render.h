// `has-kernel`'s answer as a sentence ("yes: aten::add.Tensor has a kernel
// registered at CPU") and as JSON (schemas/has-kernel.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "query/has_kernel.h"

namespace dispatchctl {

std::string_view answer_word(HasKernelAnswer answer);  // "yes", "no", "unknown"
// The sentence after "ANSWER: ".
std::string has_kernel_text(const Catalogue& cat, const HasKernelResult& r);
// The backward's answer and sentence, the text format's second line after "backward: "; "" when not asked.
std::string has_kernel_backward_text(const HasKernelResult& r);
nlohmann::ordered_json has_kernel_json(const Registry& registry, const HasKernelResult& r);

}  // namespace dispatchctl
