// "Did you mean …?" for mistyped key and operator names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dispatchctl {

// Edit distance, case-insensitive.
int edit_distance(std::string_view a, std::string_view b);
// The closest candidate within a typo's distance, else the shortest one the
// word starts (at least 4 characters), if any.
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string_view>& candidates);
// "; did you mean 'X'?" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace dispatchctl
