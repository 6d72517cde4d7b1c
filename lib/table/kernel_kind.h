// Which language a kernel was written in, read off what PyTorch printed for
// it. Python registrations (torch.library, torch/_meta_registrations.py,
// torch/_prims, custom ops) are a kind of their own: they may raise for
// inputs their C++ counterparts handle (data-dependent output shapes under
// Meta), so "the row holds a kernel" does not mean "a call works".
#pragma once

#include <string_view>

#include "table/table.h"

namespace dispatchctl {

enum class KernelLanguage : std::uint8_t { None, Cpp, Python };

// From a debug text ("registered at …/torch/_meta_registrations.py:53") and
// the origin file of the registration. 2.x names the .py file; 1.13's Python
// binding names every Python registration "/dev/null" (verified live on
// Debian's 1.13.1: torch.library.Library.impl → "registered at /dev/null:N").
KernelLanguage kernel_language(std::string_view debug, std::string_view origin_file = {});
KernelLanguage kernel_language(const Kernel& kernel);
inline bool is_python_kernel(const Kernel& kernel) {
  return kernel_language(kernel) == KernelLanguage::Python;
}
// The language of the kernel a row runs (a fallback's too); None when missing.
KernelLanguage row_language(const Row& row);
// "python kernel", "C++ kernel", "no kernel".
std::string_view language_words(KernelLanguage language);
// "python", "cpp", "none" (JSON).
std::string_view language_id(KernelLanguage language);

}  // namespace dispatchctl
