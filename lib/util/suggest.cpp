#include "util/suggest.h"

#include <algorithm>
#include <cctype>

namespace dispatchctl {

int edit_distance(std::string_view a, std::string_view b) {
  std::vector<int> previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

namespace {
size_t common_prefix(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}
}  // namespace

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string_view>& candidates) {
  // Allow roughly one typo per four characters, at least two.
  const int limit = std::max<int>(2, static_cast<int>(word.size()) / 4);
  std::optional<std::string> best;
  int best_distance = limit + 1;
  for (auto candidate : candidates) {
    // Cheap bound: lengths differing by more than the limit cannot match.
    const int length_gap = std::abs(static_cast<int>(candidate.size()) - static_cast<int>(word.size()));
    if (length_gap > best_distance) continue;
    const int d = edit_distance(word, candidate);
    // Ties go to the longer common prefix: 'aten::ad' -> 'aten::add', not 'aten::pad'.
    if (d < best_distance ||
        (d == best_distance && best && common_prefix(word, candidate) > common_prefix(word, *best))) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates) {
  auto match = closest_match(word, candidates);
  return match ? "; did you mean '" + *match + "'?" : "";
}

}  // namespace dispatchctl
