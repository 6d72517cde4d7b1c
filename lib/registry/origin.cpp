#include "registry/origin.h"

#include <deque>
#include <mutex>
#include <unordered_map>

namespace dispatchctl {

struct Origin::Interned {
  const std::string* file;  // each file name once, however many pointers it has
  std::string pointer;
};

namespace {

// A process holds a handful of files (and a fallback pointer or two): each
// (file, pointer) pair once, never freed, so an Origin is a pointer and numbers.
const Origin::Interned* intern(std::string_view file, std::string_view pointer) {
  if (file.empty() && pointer.empty()) return nullptr;
  // Registrations come file after file: the last pair is asked for again and again.
  thread_local const Origin::Interned* last = nullptr;
  if (last && *last->file == file && last->pointer == pointer) return last;
  static std::mutex mutex;
  static std::deque<Origin::Interned> pairs;
  static std::unordered_map<std::string, const Origin::Interned*> pair_of;  // "FILE\0POINTER"
  static std::unordered_map<std::string, const std::string*> file_of;
  std::string key;
  key.reserve(file.size() + 1 + pointer.size());
  key.append(file).append(1, '\0').append(pointer);
  const std::lock_guard lock(mutex);
  auto [pair, added] = pair_of.try_emplace(std::move(key), nullptr);
  if (added) {
    auto [name, _] = file_of.try_emplace(std::string(file), nullptr);
    if (!name->second) name->second = &name->first;  // a map's keys do not move
    pair->second = &pairs.emplace_back(Origin::Interned{name->second, std::string(pointer)});
  }
  return last = pair->second;
}

}  // namespace

Origin::Origin(std::string_view file, std::string_view pointer, int line)
    : where_(intern(file, pointer)), number_(line > 0 ? static_cast<std::uint32_t>(line) : 0),
      text_pointer_(!pointer.empty()) {}

Origin Origin::manifest_schema(std::string_view file, std::uint32_t op) {
  Origin origin(file, {}, 0);
  origin.kind_ = Kind::ManifestSchema;
  origin.number_ = op;
  return origin;
}

Origin Origin::manifest_kernel(std::string_view file, std::uint32_t op, std::uint32_t kernel) {
  Origin origin(file, {}, 0);
  origin.kind_ = Kind::ManifestKernel;
  origin.number_ = op;
  origin.kernel_ = kernel;
  return origin;
}

Text Origin::file() const { return where_ ? Text(*where_->file) : Text(); }

std::string Origin::pointer() const {
  switch (kind_) {
    case Kind::ManifestSchema: return "/operators/" + std::to_string(number_) + "/schema";
    case Kind::ManifestKernel:
      return "/operators/" + std::to_string(number_) + "/kernels/" + std::to_string(kernel_);
    case Kind::Plain: break;
  }
  return where_ ? where_->pointer : std::string();
}

std::string Origin::to_string() const {
  if (line() > 0) return std::string(file()) + ":" + std::to_string(line());
  if (has_pointer()) return std::string(file()) + ": " + pointer();
  return std::string(file());
}

}  // namespace dispatchctl
