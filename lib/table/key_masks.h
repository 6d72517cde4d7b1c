// What the §3.2 rules test for each runtime key of a release, precomputed
// once per catalogue so that computing a whole table is a few bit operations
// per row (compute_table). compute_row with an Explanation keeps the
// step-by-step form; a unit test holds the two to the same rows.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "keys/catalogue.h"

namespace dispatchctl {

// A set of key enum values (a catalogue has at most 256 keys, as Operator::present).
using KeyBits = std::array<std::uint64_t, 4>;

inline bool intersects(const KeyBits& a, const KeyBits& b) {
  return ((a[0] & b[0]) | (a[1] & b[1]) | (a[2] & b[2]) | (a[3] & b[3])) != 0;
}
// A set of row positions in table order (a table has at most 256 rows, one per runtime key).
using RowBits = KeyBits;

// Bit i of RowMask::covered: the alias rule i (in KeyMasks::aliases order) applies to the key.
struct RowMask {
  Key key = k_undefined;
  std::uint8_t covered = 0;
  bool autograd_other = false;
  KeyBits backend_keys{};  // registered non-alias keys that keep the math kernel away
};

struct KeyMasks {
  // The alias rules in §3.2 order: CEA-NonFunctional, CEA, Nested, CIA, Autograd, Batched.
  static constexpr int k_ceanf = 0, k_cea = 1, k_nested = 2, k_cia = 3, k_autograd = 4, k_batched = 5;
  std::array<std::optional<Key>, 6> aliases;
  KeyBits autogradother_keys{};  // registered non-alias keys on autogradother backends
  std::vector<RowMask> rows;     // one per runtime key, table order
  // Per alias rule: the rows it applies to (RowMask::covered, by rule).
  std::array<RowBits, 6> rows_covered{};
  std::vector<std::int16_t> row_of_key;  // by key value: its row position, or -1 (alias keys)
};

// Built on first use per catalogue (catalogues live as long as the process); thread-safe.
const KeyMasks& key_masks(const Catalogue& cat);

}  // namespace dispatchctl
