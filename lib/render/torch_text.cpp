#include "render/torch_text.h"

#include <cstring>
#include <stdexcept>

namespace dispatchctl {


// The whole job prints ~470,000 rows: size the table first, then copy into place
// (one resize per table rather than seven appends per row).
void append_torch_table(std::string& out, const Catalogue& cat, const std::vector<Row>& rows) {
  constexpr std::string_view k_fallthrough = "fallthrough ";
  size_t size = 0;
  for (const Row& row : rows)
    if (row.valid())  // missing rows are not printed
      size += cat.name(row.key).size() + 2 + (row.fallthrough() ? k_fallthrough.size() : 0) + row.debug().size() + 4 +
              tag_text(row.rule).size();
  size_t at = out.size();
  out.resize(at + size);
  char* p = out.data() + at;
  auto put = [&p](std::string_view text) {
    std::memcpy(p, text.data(), text.size());
    p += text.size();
  };
  for (const Row& row : rows) {
    if (!row.valid()) continue;
    put(cat.name(row.key));
    put(": ");
    if (row.fallthrough()) put(k_fallthrough);
    put(row.debug());
    put(" [");
    put(tag_text(row.rule));
    put("]\n");
  }
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
