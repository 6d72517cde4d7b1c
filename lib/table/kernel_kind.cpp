#include "table/kernel_kind.h"

namespace dispatchctl {

namespace {

// A ".py" file name: followed by ":line", a space, or the end of the text.
bool mentions_py_file(std::string_view text) {
  for (size_t at = text.find(".py"); at != std::string_view::npos; at = text.find(".py", at + 1)) {
    const size_t end = at + 3;
    if (end == text.size() || text[end] == ':' || text[end] == ' ' || text[end] == ')') return true;
  }
  return false;
}

}  // namespace

KernelLanguage kernel_language(std::string_view debug, std::string_view origin_file) {
  if (mentions_py_file(debug) || mentions_py_file(origin_file)) return KernelLanguage::Python;
  // torch/csrc/utils/python_dispatch.cpp's file name for registrations that
  // do not pass one (all of them in 1.13).
  if (debug.find("registered at /dev/null") != std::string_view::npos) return KernelLanguage::Python;
  return KernelLanguage::Cpp;
}

KernelLanguage kernel_language(const Kernel& kernel) {
  return kernel_language(kernel.debug, kernel.origin.file());
}

KernelLanguage row_language(const Row& row) {
  if (!row.valid()) return KernelLanguage::None;
  if (row.fallback) return kernel_language(row.fallback->debug, row.fallback->origin.file());
  return row.kernel ? kernel_language(*row.kernel) : KernelLanguage::Cpp;
}

std::string_view language_words(KernelLanguage language) {
  switch (language) {
    case KernelLanguage::None: return "no kernel";
    case KernelLanguage::Cpp: return "C++ kernel";
    case KernelLanguage::Python: return "python kernel";
  }
  return "";
}

std::string_view language_id(KernelLanguage language) {
  switch (language) {
    case KernelLanguage::None: return "none";
    case KernelLanguage::Cpp: return "cpp";
    case KernelLanguage::Python: return "python";
  }
  return "";
}

}  // namespace dispatchctl
