#include "render/torch_text.h"

#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace dispatchctl {


namespace {

constexpr std::string_view k_fallthrough = "fallthrough ";
constexpr int k_rules = static_cast<int>(Rule::Missing) + 1;

// What a row's line is made of besides its kernel's debug text, spelled once
// per catalogue: "KEY: " per key and " [TAG]\n" per rule.
struct RowPieces {
  std::vector<std::string> key_prefix;
  std::array<std::string, k_rules> tag_suffix;
};

RowPieces build_pieces(const Catalogue& cat) {
  RowPieces pieces;
  for (Key k = 0; k < cat.key_count(); ++k) pieces.key_prefix.push_back(cat.name(k) + ": ");
  for (int r = 0; r < k_rules; ++r)
    pieces.tag_suffix[r] = " [" + std::string(tag_text(static_cast<Rule>(r))) + "]\n";
  return pieces;
}

// Catalogues live as long as the process (as key_masks' cache assumes).
const RowPieces& row_pieces(const Catalogue& cat) {
  static std::mutex mutex;
  static std::unordered_map<const Catalogue*, std::unique_ptr<RowPieces>> built;
  std::lock_guard lock(mutex);
  auto& slot = built[&cat];
  if (!slot) slot = std::make_unique<RowPieces>(build_pieces(cat));
  return *slot;
}

// `KEY: [fallthrough ]DEBUG [TAG]\n`: its length, and the line written at `p`.
size_t row_size(const RowPieces& pieces, const Row& row) {
  return pieces.key_prefix[row.key].size() + (row.fallthrough() ? k_fallthrough.size() : 0) + row.debug().size() +
         pieces.tag_suffix[static_cast<int>(row.rule)].size();
}

char* put(char* p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

char* write_row(char* p, const RowPieces& pieces, const Row& row) {
  p = put(p, pieces.key_prefix[row.key]);
  if (row.fallthrough()) p = put(p, k_fallthrough);
  p = put(p, row.debug());
  return put(p, pieces.tag_suffix[static_cast<int>(row.rule)]);
}

}  // namespace

// Missing rows are not printed (PyTorch prints only the valid entries).
void append_torch_table(ChunkedOutput& out, const Catalogue& cat, const std::vector<Row>& rows) {
  const RowPieces& pieces = row_pieces(cat);
  for (const Row& row : rows) {
    if (!row.valid()) continue;
    out.commit(write_row(out.reserve(row_size(pieces, row)), pieces, row));
  }
}

void append_torch_table(std::string& out, const Catalogue& cat, const std::vector<Row>& rows) {
  const RowPieces& pieces = row_pieces(cat);
  size_t size = 0;
  for (const Row& row : rows)
    if (row.valid()) size += row_size(pieces, row);
  const size_t at = out.size();
  out.resize(at + size);
  char* p = out.data() + at;
  for (const Row& row : rows)
    if (row.valid()) p = write_row(p, pieces, row);
  if (p != out.data() + out.size()) throw std::logic_error("append_torch_table: sized and written rows differ");
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
  for (const auto& kk : op.by_key) {
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
      out += kernel.signature ? *kernel.signature : Text("(none)");
      out += " [ ";
      if (kernel.fallthrough) out += "fallthrough ";
      if (kernel.boxed) out += "boxed ";
      if (kernel.unboxed) out += "unboxed ";
      out += "]\n";
    }
  }
}

}  // namespace dispatchctl
