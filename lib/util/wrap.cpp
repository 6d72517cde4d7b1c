#include "util/wrap.h"

#include <string_view>
#include <vector>

namespace dispatchctl {
namespace {

// Pieces of a word too long for a line: split after '/', ',', '(' and
// before "::", so "./build/aten/src/ATen/RegisterCPU_0.cpp:1307" breaks
// between directories.
std::vector<std::string_view> pieces(std::string_view word) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i + 1 < word.size(); ++i) {
    const bool after = word[i] == '/' || word[i] == ',' || word[i] == '(';
    const bool before = word.compare(i + 1, 2, "::") == 0 && i + 1 > start;
    if (after || before) {
      out.push_back(word.substr(start, i + 1 - start));
      start = i + 1;
    }
  }
  out.push_back(word.substr(start));
  return out;
}

void wrap_line(std::string& out, std::string_view text, size_t& column, size_t indent, size_t width) {
  // Every space separates two words (runs of spaces are kept, so callers can
  // pad); the space at a line break is dropped.
  bool line_start = true;
  auto new_line = [&] {
    out += '\n';
    out.append(indent, ' ');
    column = indent;
  };
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line_start && column + 1 + word.size() > width) {
      new_line();
      line_start = true;
    }
    if (!line_start) {
      out += ' ';
      ++column;
    }
    line_start = false;
    if (column + word.size() <= width) {
      out += word;
      column += word.size();
      continue;
    }
    for (auto piece : pieces(word)) {  // longer than a line: break it where it can break
      if (column + piece.size() > width && column > indent) new_line();
      out += piece;
      column += piece.size();
    }
  }
}

}  // namespace

std::string wrap_words(const std::string& text, size_t first_column, size_t indent, size_t width) {
  std::string out;
  size_t column = first_column;
  size_t pos = 0;
  while (true) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    wrap_line(out, std::string_view(text).substr(pos, end - pos), column, indent, width);
    if (end >= text.size()) break;
    out += '\n';
    out.append(indent, ' ');
    column = indent;
    pos = end + 1;
  }
  return out;
}

}  // namespace dispatchctl
