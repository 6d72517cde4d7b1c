#include "util/json_locate.h"

namespace dispatchctl {
namespace {

// A recursive-descent scan that records the position of every value under
// its JSON pointer. It validates nothing beyond what it needs to walk.
class Scanner {
 public:
  Scanner(std::string_view text, std::unordered_map<std::string, TextPosition>& out)
      : text_(text), out_(out) {}

  void run() {
    skip_space();
    value("", 0);
  }

 private:
  static constexpr int k_max_depth = 256;

  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        line_start_ = pos_ + 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      ++pos_;
    }
  }

  TextPosition here() const {
    return {line_, static_cast<int>(pos_ - line_start_) + 1};
  }

  bool value(const std::string& pointer, int depth) {
    if (pos_ >= text_.size() || depth > k_max_depth) return false;
    out_.emplace(pointer, here());
    const char c = text_[pos_];
    if (c == '{') return object(pointer, depth);
    if (c == '[') return array(pointer, depth);
    if (c == '"') return string(nullptr);
    // number, true, false, null: up to the next delimiter
    const size_t start = pos_;
    while (pos_ < text_.size() && std::string_view(",]} \t\r\n").find(text_[pos_]) == std::string_view::npos)
      ++pos_;
    if (pos_ == start) out_.erase(pointer);  // no value here: broken JSON
    return pos_ > start;
  }

  bool object(const std::string& pointer, int depth) {
    ++pos_;  // {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '}') return ++pos_, true;
    while (pos_ < text_.size()) {
      std::string key;
      if (text_[pos_] != '"' || !string(&key)) return false;
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ':') return false;
      ++pos_;
      skip_space();
      if (!value(pointer + "/" + escape(key), depth + 1)) return false;
      skip_space();
      if (pos_ >= text_.size()) return false;
      if (text_[pos_] == '}') return ++pos_, true;
      if (text_[pos_] != ',') return false;
      ++pos_;
      skip_space();
    }
    return false;
  }

  bool array(const std::string& pointer, int depth) {
    ++pos_;  // [
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ']') return ++pos_, true;
    for (size_t index = 0; pos_ < text_.size(); ++index) {
      if (!value(pointer + "/" + std::to_string(index), depth + 1)) return false;
      skip_space();
      if (pos_ >= text_.size()) return false;
      if (text_[pos_] == ']') return ++pos_, true;
      if (text_[pos_] != ',') return false;
      ++pos_;
      skip_space();
    }
    return false;
  }

  // A string starting at pos_ (the quote); its raw content into *key.
  // Keys with escapes are kept as written except \" and \\, enough for
  // the field names of our formats.
  bool string(std::string* key) {
    ++pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (c == '\\' && pos_ < text_.size()) {
        const char e = text_[pos_++];
        if (key) key->push_back(e == '"' || e == '\\' || e == '/' ? e : '\\');
        if (key && !(e == '"' || e == '\\' || e == '/')) key->push_back(e);
        continue;
      }
      if (c == '\n') return false;
      if (key) key->push_back(c);
    }
    return false;
  }

  // RFC 6901: '~' -> "~0", '/' -> "~1".
  static std::string escape(const std::string& key) {
    std::string out;
    for (char c : key) {
      if (c == '~') out += "~0";
      else if (c == '/') out += "~1";
      else out += c;
    }
    return out;
  }

  std::string_view text_;
  std::unordered_map<std::string, TextPosition>& out_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
};

}  // namespace

JsonLocator::JsonLocator(std::string_view text) { Scanner(text, positions_).run(); }

std::optional<TextPosition> JsonLocator::locate(std::string_view pointer) const {
  auto it = positions_.find(std::string(pointer == "/" ? "" : pointer));
  if (it == positions_.end()) return std::nullopt;
  return it->second;
}

}  // namespace dispatchctl
