#include "registry/manifest_stream.h"

#include <cstring>
#include <iterator>
#include <memory>
#include <unordered_set>
#include <vector>

#include "util/errors.h"
#include "util/file_io.h"
#include "util/json_parse.h"

namespace dispatchctl {
namespace {

using json = nlohmann::ordered_json;

// The SAX consumer: a DOM builder that skips the "operators" array, building
// each of its elements on its own and passing it on when complete.
class ManifestSax {
 public:
  ManifestSax(const std::string& source, const OperatorSink& sink, const OperatorsStart& on_operators)
      : source_(source), sink_(sink), on_operators_(on_operators) {}

  bool null() { return value(json(nullptr)); }
  bool boolean(bool v) { return value(json(v)); }
  bool number_integer(json::number_integer_t v) { return value(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(json(v)); }
  bool number_float(json::number_float_t v, const std::string&) { return value(json(v)); }
  bool string(std::string& v) { return value(json(std::move(v))); }
  bool binary(json::binary_t&) { return true; }  // JSON text has none
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& name) {
    check_depth();
    Frame& frame = frames_.back();
    auto& members = frame.value->get_ref<json::object_t&>();
    const bool top_level = frames_.size() == 1 && frame.value == &top_;
    if (top_level && name == "operators") {
      // Resolved by the value that follows: an array is streamed, anything else kept.
      if (operators_named_ && duplicate_.empty()) duplicate_ = name;
      operators_named_ = pending_operators_ = true;
      return true;
    }
    if (json* existing = find(frame, members, name)) {
      if (duplicate_.empty()) duplicate_ = name;
      slot_ = existing;  // the second one wins, as nlohmann's DOM parser does
      return true;
    }
    // Straight onto ordered_map's vector: its own insert searches again.
    auto& entries = static_cast<std::vector<std::pair<const std::string, json>>&>(members);
    entries.emplace_back(std::move(name), json());
    if (frame.keys) frame.keys->insert(entries.back().first);
    slot_ = &entries.back().second;
    return true;
  }

  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) {
    error_id_ = e.id;
    error_what_ = e.what();
    error_byte_ = byte;
    return false;
  }

  json top_;
  std::string duplicate_;
  int error_id_ = 0;
  std::string error_what_;
  size_t error_byte_ = 0;

 private:
  struct Frame {
    json* value = nullptr;  // null: the "operators" array being streamed
    std::unique_ptr<std::unordered_set<std::string>> keys;  // made once an object grows large
    bool element = false;  // an element of "operators": passed on when it closes
  };

  // Small objects are searched in place; a large one gets a set.
  static json* find(Frame& frame, json::object_t& members, const std::string& name) {
    constexpr size_t k_linear = 16;
    if (!frame.keys && members.size() >= k_linear) {
      frame.keys = std::make_unique<std::unordered_set<std::string>>();
      for (const auto& [k, _] : members) frame.keys->insert(k);
    }
    if (frame.keys) return frame.keys->count(name) ? &members.find(name)->second : nullptr;
    for (auto& [k, v] : members)
      if (k == name) return &v;
    return nullptr;
  }

  // nlohmann's DOM parser recurses per level: the same bound as parse_json_or_throw.
  void check_depth() const {
    if (frames_.size() > static_cast<size_t>(k_max_json_depth)) throw json_too_deep(source_);
  }

  // Where the next value goes, or nullptr when it is a whole operator.
  json* place(json&& v) {
    if (frames_.empty()) return &(top_ = std::move(v));
    if (pending_operators_) {
      pending_operators_ = false;
      auto& entries = static_cast<std::vector<std::pair<const std::string, json>>&>(
          top_.get_ref<json::object_t&>());
      entries.emplace_back("operators", json());
      slot_ = &entries.back().second;
    }
    Frame& frame = frames_.back();
    if (!frame.value) return nullptr;
    if (frame.value->is_array()) {
      auto& items = frame.value->get_ref<json::array_t&>();
      items.push_back(std::move(v));
      return &items.back();
    }
    *slot_ = std::move(v);
    return slot_;
  }

  bool in_operators() const { return !frames_.empty() && !frames_.back().value; }

  bool value(json&& v) {
    check_depth();
    if (in_operators()) sink_(std::move(v));  // an operator that is not a container
    else place(std::move(v));
    return true;
  }

  bool open(json&& container) {
    check_depth();
    if (pending_operators_ && container.is_array()) {
      pending_operators_ = false;
      frames_.push_back({nullptr, nullptr, false});
      if (on_operators_) on_operators_(top_);
    } else if (in_operators()) {
      element_ = std::move(container);
      frames_.push_back({&element_, nullptr, true});
    } else {
      frames_.push_back({place(std::move(container)), nullptr, false});
    }
    return true;
  }

  bool close() {
    const bool element_done = frames_.back().element;
    frames_.pop_back();
    if (element_done) sink_(std::move(element_)), element_ = json();
    return true;
  }

  const std::string& source_;
  const OperatorSink& sink_;
  OperatorsStart on_operators_;
  std::vector<Frame> frames_;
  json* slot_ = nullptr;
  json element_;
  bool pending_operators_ = false, operators_named_ = false;
};

// The file in 1 MiB blocks, as an input iterator for sax_parse; notes where
// the first NUL byte is (nlohmann's lexer would take it for the end).
class BlockReader {
 public:
  explicit BlockReader(std::ifstream& in) : in_(in), buffer_(size_t{1} << 20) { fill(); }
  bool at_end() const { return pos_ == size_; }
  const char& current() const { return buffer_[pos_]; }
  void advance() {
    if (++pos_ == size_) fill();
  }
  void drain() {
    while (!at_end()) pos_ = size_, fill();
  }
  bool saw_nul() const { return saw_nul_; }
  size_t bytes() const { return offset_ + size_; }

 private:
  void fill() {
    offset_ += size_;
    in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    size_ = static_cast<size_t>(in_.gcount());
    pos_ = 0;
    saw_nul_ = saw_nul_ || std::memchr(buffer_.data(), 0, size_) != nullptr;
  }
  std::ifstream& in_;
  std::vector<char> buffer_;
  size_t pos_ = 0, size_ = 0, offset_ = 0;
  bool saw_nul_ = false;
};

struct BlockIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  BlockReader* reader = nullptr;  // null: the end
  reference operator*() const { return reader->current(); }
  BlockIterator& operator++() {
    reader->advance();
    return *this;
  }
  BlockIterator operator++(int) {
    BlockIterator before = *this;
    reader->advance();
    return before;
  }
  bool done() const { return !reader || reader->at_end(); }
  bool operator==(const BlockIterator& other) const { return done() == other.done(); }
};

StreamedManifest finish(ManifestSax& sax, bool parsed, std::string_view text, const std::string& source) {
  if (!parsed) throw json_error(sax.error_id_, sax.error_what_, sax.error_byte_, text, source);
  if (!sax.duplicate_.empty()) throw json_duplicate_key(source, sax.duplicate_);
  return {std::move(sax.top_), text.size()};
}

}  // namespace

StreamedManifest stream_manifest_text(std::string_view text, const std::string& source, const OperatorSink& sink,
                                      const OperatorsStart& on_operators) {
  check_json_text(text, source);
  ManifestSax sax(source, sink, on_operators);
  const bool parsed = json::sax_parse(text.begin(), text.end(), &sax);
  return finish(sax, parsed, text, source);
}

StreamedManifest stream_manifest_file(const std::string& path, const std::string& source, const OperatorSink& sink,
                                      const OperatorsStart& on_operators) {
  if (!is_seekable_input(path)) {  // a pipe: read once, whole (read_input_file keeps its bytes for a reread)
    const std::string text = read_input_file(path);
    return stream_manifest_text(text, source, sink, on_operators);
  }
  std::ifstream in = open_input_file(path);
  char magic[2] = {};
  in.read(magic, 2);
  in.clear();
  in.seekg(0);
  if (is_gzip(std::string_view(magic, static_cast<size_t>(in.good() ? 2 : 0)))) {
    const std::string text = read_input_file(path);
    return stream_manifest_text(text, source, sink, on_operators);
  }
  BlockReader reader(in);
  ManifestSax sax(source, sink, on_operators);
  bool parsed = false;
  try {
    parsed = json::sax_parse(BlockIterator{&reader}, BlockIterator{}, &sax);
    if (parsed) reader.drain();  // what follows the document must be checked for NUL too
  } catch (const InputError&) {
    check_json_text(read_input_file(path), source);  // an empty file or a NUL says so first
    throw;
  }
  if (parsed && !reader.saw_nul()) {
    StreamedManifest out = finish(sax, true, {}, source);
    out.bytes = reader.bytes();
    return out;
  }
  // Errors only: the whole text, to say where (line:column) and to say it
  // the way parse_json_or_throw does.
  const std::string text = read_input_file(path);
  check_json_text(text, source);
  StreamedManifest out = finish(sax, parsed, text, source);
  out.bytes = reader.bytes();
  return out;
}

}  // namespace dispatchctl
