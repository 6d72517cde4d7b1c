#include "util/suggest.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace dispatchctl {

int edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: a swap of two neighbours ('Meat' -> 'Meta')
  // counts as one typo.
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

namespace {
size_t common_prefix(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// An operator's name without its overload ("aten::add.Tensor" -> "aten::add");
// other words are their own base.
std::string_view base_name(std::string_view name) {
  const size_t ns = name.find("::");
  return name.substr(0, name.find('.', ns == std::string_view::npos ? 0 : ns + 2));
}

// How a candidate at the best distance ranks, best first: one that the word
// starts or that starts the word ('aten::addd' -> 'aten::add': a key held
// down, not 'aten::addr': another operator), then one of the word's own
// overload family ('aten::add.Tensr' -> 'aten::add.Tensor'), then the longer
// common prefix ('aten::ad' -> 'aten::add', not 'aten::pad').
auto tie_rank(std::string_view word, std::string_view candidate) {
  const size_t prefix = common_prefix(word, candidate);
  const bool starts = prefix == std::min(word.size(), candidate.size());
  const bool same_family = base_name(word) == base_name(candidate);
  return std::make_tuple(starts, same_family, prefix);
}
}  // namespace

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string_view>& candidates) {
  // Allow roughly one typo per four characters, at least two.
  if (word.size() > 256) return std::nullopt;  // not a typo; keep hostile input cheap
  const int limit = std::clamp<int>(static_cast<int>(word.size()) / 4, 2, 6);
  std::optional<std::string> best;
  int best_distance = limit + 1;
  for (auto candidate : candidates) {
    // Cheap bound: lengths differing by more than the limit cannot match.
    const int length_gap = std::abs(static_cast<int>(candidate.size()) - static_cast<int>(word.size()));
    if (length_gap > best_distance) continue;
    const int d = edit_distance(word, candidate);
    if (d < best_distance || (d == best_distance && best && tie_rank(word, candidate) > tie_rank(word, *best))) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  if (best || word.size() < 4) return best;
  // No typo close enough: a word that starts a name is likely that name cut
  // short ('CompositeExplicit' -> 'CompositeExplicitAutograd'); take the shortest.
  for (auto candidate : candidates) {
    if (candidate.size() <= word.size() || (best && candidate.size() >= best->size())) continue;
    bool prefix = true;
    for (size_t i = 0; i < word.size() && prefix; ++i)
      prefix = std::tolower(static_cast<unsigned char>(word[i])) == std::tolower(static_cast<unsigned char>(candidate[i]));
    if (prefix) best = std::string(candidate);
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates) {
  auto match = closest_match(word, candidates);
  return match ? "; did you mean '" + *match + "'?" : "";
}

}  // namespace dispatchctl
