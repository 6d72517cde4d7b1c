// The Registry's operator lookup by name (issue 14): an open-addressing table
// of 8-byte slots over the operators' own names, instead of a node per name
// (a std::string key and an allocation each, ~70 bytes per operator).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace dispatchctl {

class NameIndex {
 public:
  static constexpr std::uint32_t k_none = 0xFFFFFFFFu;

  // The position whose name() is `name`, or k_none.
  template <class NameOf>
  std::uint32_t find(std::string_view name, const NameOf& name_of) const {
    if (slots_.empty()) return k_none;
    const std::uint32_t hash = hash_of(name);
    for (std::size_t i = hash & mask(); slots_[i].position != k_none; i = (i + 1) & mask())
      if (slots_[i].hash == hash && name_of(slots_[i].position) == name) return slots_[i].position;
    return k_none;
  }
  // Adds a name not in the index yet.
  template <class NameOf>
  void insert(std::string_view name, std::uint32_t position, const NameOf& name_of) {
    if ((count_ + 1) * 2 > slots_.size()) grow(count_ + 1, name_of);
    place(hash_of(name), position);
    ++count_;
  }
  // Room for `count` names without growing.
  template <class NameOf>
  void reserve(std::size_t count, const NameOf& name_of) {
    if (count * 2 > slots_.size()) grow(count, name_of);
  }

 private:
  struct Slot {
    std::uint32_t position = k_none, hash = 0;
  };
  static std::uint32_t hash_of(std::string_view name) {
    return static_cast<std::uint32_t>(std::hash<std::string_view>{}(name));
  }
  std::size_t mask() const { return slots_.size() - 1; }
  void place(std::uint32_t hash, std::uint32_t position) {
    std::size_t i = hash & mask();
    while (slots_[i].position != k_none) i = (i + 1) & mask();
    slots_[i] = {position, hash};
  }
  template <class NameOf>
  void grow(std::size_t count, const NameOf& name_of) {
    std::size_t size = 16;
    while (size < count * 2) size *= 2;
    slots_.assign(size, Slot{});
    for (std::uint32_t p = 0; p < count_; ++p) place(hash_of(name_of(p)), p);
  }

  std::vector<Slot> slots_;  // a power of two, at most half full
  std::uint32_t count_ = 0;  // positions 0..count_-1 are indexed
};

}  // namespace dispatchctl
