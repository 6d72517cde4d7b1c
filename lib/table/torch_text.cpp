#include "table/torch_text.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

#include "table/catalogue_cache.h"

namespace dispatchctl {


namespace {

constexpr std::string_view k_fallthrough = "fallthrough ";
constexpr int k_rules = static_cast<int>(Rule::Missing) + 1;

// A short piece of a line kept in a fixed slot, so that writing it is one
// fixed-size copy (a few vector moves, no memcpy call); a row may therefore
// write up to k_slot bytes past its end, which its writer leaves room for.
constexpr size_t k_slot = 48;
struct Piece {
  std::array<char, k_slot> padded{};
  std::string text;

  explicit Piece(std::string t) : text(std::move(t)) {
    std::memcpy(padded.data(), text.data(), std::min(text.size(), k_slot));
  }
};

// What a row's line is made of besides its kernel's debug text, spelled once
// per catalogue: "KEY: " per key and " [TAG]\n" per rule.
struct RowPieces {
  std::vector<Piece> key_prefix;
  std::vector<Piece> tag_suffix;
  Piece fallthrough{std::string(k_fallthrough)};
};

RowPieces build_pieces(const Catalogue& cat) {
  RowPieces pieces;
  for (Key k = 0; k < cat.key_count(); ++k) pieces.key_prefix.emplace_back(cat.name(k) + ": ");
  for (int r = 0; r < k_rules; ++r)
    pieces.tag_suffix.emplace_back(" [" + std::string(tag_text(static_cast<Rule>(r))) + "]\n");
  return pieces;
}

const RowPieces& row_pieces(const Catalogue& cat) {
  return once_per_catalogue<RowPieces>(cat, [](const Catalogue& c) { return build_pieces(c); });
}

char* put(char* p, const Piece& piece) {
  if (piece.text.size() <= k_slot) std::memcpy(p, piece.padded.data(), k_slot);
  else std::memcpy(p, piece.text.data(), piece.text.size());
  return p + piece.text.size();
}

// One printed row, `KEY: [fallthrough ]DEBUG [TAG]\n`: its length and its
// writer (which may scribble up to k_slot bytes past the line's end).
struct RowText {
  const Piece& key;
  const Piece* fallthrough;
  std::string_view debug;
  const Piece& tag;

  RowText(const RowPieces& pieces, const Row& row)
      : key(pieces.key_prefix[row.key]),
        fallthrough(row.fallthrough() ? &pieces.fallthrough : nullptr),
        debug(row.debug()),
        tag(pieces.tag_suffix[static_cast<int>(row.rule)]) {}

  size_t size() const {
    return key.text.size() + (fallthrough ? fallthrough->text.size() : 0) + debug.size() + tag.text.size();
  }
  char* write(char* p) const {
    p = put(p, key);
    if (fallthrough) p = put(p, *fallthrough);
    std::memcpy(p, debug.data(), debug.size());
    return put(p + debug.size(), tag);
  }
};

}  // namespace

// Missing rows are not printed (PyTorch prints only the valid entries).
void append_torch_table(ChunkedOutput& out, const Catalogue& cat, const std::vector<Row>& rows) {
  const RowPieces& pieces = row_pieces(cat);
  for (const Row& row : rows) {
    if (!row.valid()) continue;
    const RowText line(pieces, row);
    const size_t size = line.size();
    char* p = out.reserve(size + k_slot);
    line.write(p);
    out.commit(p + size);
  }
}

void append_torch_table(std::string& out, const Catalogue& cat, const std::vector<Row>& rows) {
  const RowPieces& pieces = row_pieces(cat);
  size_t size = 0;
  for (const Row& row : rows)
    if (row.valid()) size += RowText(pieces, row).size();
  const size_t at = out.size();
  out.resize(at + size + k_slot);
  char* p = out.data() + at;
  for (const Row& row : rows)
    if (row.valid()) {
      const RowText line(pieces, row);
      line.write(p);
      p += line.size();
    }
  if (p != out.data() + at + size) throw std::logic_error("append_torch_table: sized and written rows differ");
  out.resize(at + size);
}

void append_torch_state(std::string& out, const Catalogue& cat, const Operator& op) {
  out += "name: ";
  out += op.name;
  out += '\n';
  if (!op.schema) {
    out += "schema: (none)\n";
  } else {
    out += "schema: " + op.schema->text + "\n";
    out += "debug: " + op.schema->debug + "\n";
    out += "alias analysis kind: " + op.schema->alias_analysis;
    out += op.schema->alias_analysis_explicit ? "\n" : " (default)\n";
  }
  for (const auto& kk : op.by_key()) {
    bool first = true;
    for (auto index : kk.newest_first) {
      const Kernel& kernel = op.registrations[index];
      out += cat.name(kk.key);
      if (cat.is_alias(kk.key)) out += "[alias]";
      if (!first) out += " (inactive)";
      first = false;
      out += ": ";
      out += kernel.debug;
      out += " :: ";
      out += kernel.signature.value_or("(none)");
      out += " [ ";
      if (kernel.fallthrough) out += "fallthrough ";
      if (kernel.boxed) out += "boxed ";
      if (kernel.unboxed) out += "unboxed ";
      out += "]\n";
    }
  }
}

}  // namespace dispatchctl
