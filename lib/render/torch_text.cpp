#include "render/torch_text.h"

namespace dispatchctl {

void append_torch_table(std::string& out, const Catalogue& cat, const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    if (!row.valid()) continue;  // missing rows are not printed
    out += cat.name(row.key);
    out += ": ";
    if (row.fallthrough()) out += "fallthrough ";
    out += row.debug();
    out += " [";
    out += tag_text(row.rule);
    out += "]\n";
  }
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
      out += kernel.signature ? *kernel.signature : std::string("(none)");
      out += " [ ";
      if (kernel.fallthrough) out += "fallthrough ";
      if (kernel.boxed) out += "boxed ";
      if (kernel.unboxed) out += "unboxed ";
      out += "]\n";
    }
  }
}

}  // namespace dispatchctl
