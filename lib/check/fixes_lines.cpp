// See fixes_lines.h.
#include "check/fixes_lines.h"

#include <algorithm>

#include "util/file_io.h"

namespace dispatchctl::fix_lines {

const Lines& lines_of(std::map<std::string, Lines>& cache, const std::string& file) {
  auto [it, fresh] = cache.try_emplace(file);
  if (!fresh || file.empty()) return it->second;
  std::string text;
  try {
    text = read_input_file(file);
  } catch (const std::exception&) {
    return it->second;
  }
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    it->second.push_back(text.substr(at, end - at));
    at = end;
  }
  return it->second;
}

Range entry_at(const Lines& lines, int line) {
  if (line <= 0 || line > static_cast<int>(lines.size()) || !lines[line - 1].starts_with("- ")) return {};
  int end = line;
  while (end < static_cast<int>(lines.size()) && lines[end].starts_with(" ")) ++end;
  return {line, end + 1};
}

Range dispatch_table(const Lines& lines, Range entry) {
  for (int n = entry.first + 1; n < entry.end; ++n)
    if (lines[n - 1].starts_with("  dispatch:")) {
      int end = n + 1;
      while (end < entry.end && lines[end - 1].starts_with("    ")) ++end;
      return {n, end};
    }
  return {};
}

std::string text_of(const Lines& lines, Range r) {
  std::string out;
  for (int n = r.first; n < r.end; ++n) out += lines[n - 1];
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

FixEdit reinsert(const Lines& base, Range entry, const Lines& change, const std::string& file) {
  FixEdit edit{file, static_cast<int>(change.size()) + 1, 0, text_of(base, entry) + "\n"};
  for (int n = entry.end; n <= static_cast<int>(base.size()); ++n) {
    if (!base[n - 1].starts_with("- ")) continue;
    const auto next = std::find(change.begin(), change.end(), base[n - 1]);
    if (next == change.end()) continue;
    edit.line = static_cast<int>(next - change.begin()) + 1;
    break;
  }
  if (edit.line > static_cast<int>(change.size()) && !change.empty() && change.back() != "\n")
    edit.insert = "\n" + text_of(base, entry);
  return edit;
}

}  // namespace dispatchctl::fix_lines
