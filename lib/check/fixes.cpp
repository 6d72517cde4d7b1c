// `check --base`: the costs' suggested fixes as edits (Finding::fix). The
// base is what a fix can always go back to, so each fix restores exactly the
// part of the base the change took away: a derivatives.yaml entry (a deleted
// or stubbed formula), an operator's dispatch: table (a lost math or dense
// kernel), a deleted operator's entry. A new operator without a formula gets
// the one entry that needs no formula from dispatchctl: its `- name:` line
// as native_functions.yaml writes the schema (tools/autograd matches the
// text exactly), with its outputs marked non-differentiable for the author to
// replace by formulas. Advice that is a choice only the author can make (a
// formula, a kernel name) stays prose.
#include <algorithm>
#include <map>

#include "check/lint_changes.h"
#include "registry/schema_parser.h"
#include "util/file_io.h"
#include "registry/operator_name.h"
#include "torchgen/schema.h"

namespace dispatchctl {
namespace {

using Lines = std::vector<std::string>;

// The file's lines, each with its '\n' (empty when it cannot be read: a builtin: base has no file).
const Lines& lines_of(std::map<std::string, Lines>& cache, const std::string& file) {
  auto [it, fresh] = cache.try_emplace(file);
  if (!fresh || file.empty()) return it->second;
  std::string text;
  try {
    text = read_input_file(file);
  } catch (const std::exception&) {
    return it->second;
  }
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    it->second.push_back(text.substr(at, end - at));
    at = end;
  }
  return it->second;
}

// A YAML entry: its first line (1-based) and the lines below it indented under it.
struct Range {
  int first = 0, end = 0;  // [first, end), 1-based
};
Range entry_at(const Lines& lines, int line) {
  if (line <= 0 || line > static_cast<int>(lines.size()) || !lines[line - 1].starts_with("- ")) return {};
  int end = line;
  while (end < static_cast<int>(lines.size()) && lines[end].starts_with(" ")) ++end;
  return {line, end + 1};
}

// The entry's `dispatch:` table (its line and the deeper-indented ones), or an empty range.
Range dispatch_table(const Lines& lines, Range entry) {
  for (int n = entry.first + 1; n < entry.end; ++n)
    if (lines[n - 1].starts_with("  dispatch:")) {
      int end = n + 1;
      while (end < entry.end && lines[end - 1].starts_with("    ")) ++end;
      return {n, end};
    }
  return {};
}

std::string text_of(const Lines& lines, Range r) {
  std::string out;
  for (int n = r.first; n < r.end; ++n) out += lines[n - 1];
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

// Where in the change's file the base's entry goes back: before the first
// entry that followed it in the base and is still there (the same first
// line: the next one may have been deleted with it), else at the end.
FixEdit reinsert(const Lines& base, Range entry, const Lines& change, const std::string& file) {
  FixEdit edit{file, static_cast<int>(change.size()) + 1, 0, text_of(base, entry) + "\n"};
  for (int n = entry.end; n <= static_cast<int>(base.size()); ++n) {
    if (!base[n - 1].starts_with("- ")) continue;
    const auto next = std::find(change.begin(), change.end(), base[n - 1]);
    if (next == change.end()) continue;
    edit.line = static_cast<int>(next - change.begin()) + 1;
    break;
  }
  if (edit.line > static_cast<int>(change.size()) && !change.empty() && change.back() != "\n")
    edit.insert = "\n" + text_of(base, entry);
  return edit;
}

const FormulaFact* formula_of(const std::map<std::string, FormulaFact>& formulas, const std::string& op) {
  for (const auto& [name, fact] : formulas)
    if (std::find(fact.ops.begin(), fact.ops.end(), op) != fact.ops.end()) return &fact;
  return nullptr;
}

class Fixer {
 public:
  Fixer(const Registry& before, const Registry& after, const std::map<std::string, FormulaFact>& before_formulas,
        const std::map<std::string, FormulaFact>& after_formulas)
      : before_(before), after_(after), before_formulas_(before_formulas), after_formulas_(after_formulas) {}

  std::optional<SuggestedFix> fix_for(const Finding& f) {
    if (f.rule == "operator-removed") return restore_operator(f.op, f.covers);
    if (f.rule == "math-kernel-lost" || f.rule == "dense-kernel-lost") return restore_dispatch(f.op);
    if (f.rule == "forward-not-implemented" || f.kind == "formula-not-implemented") return restore_formula(f.op);
    if (f.rule != "backward-not-implemented") return std::nullopt;
    if (auto fix = restore_formula(f.op)) return fix;
    if (before_.find(f.op)) return restore_dispatch(f.op);
    return formula_skeleton(f.op, f.covers);
  }

 private:
  // The change's derivatives.yaml (every torchgen: source's entries name it).
  std::string change_derivatives() const {
    return after_formulas_.empty() ? std::string() : after_formulas_.begin()->second.file;
  }

  std::optional<SuggestedFix> restore_formula(const std::string& op) {
    const FormulaFact* was = formula_of(before_formulas_, op);
    if (!was) return std::nullopt;
    const Lines& base = lines_of(cache_, was->file);
    const Range entry = entry_at(base, was->line);
    if (!entry.first) return std::nullopt;
    const FormulaFact* now = formula_of(after_formulas_, was->ops.front());
    if (now && now->ops.front() == was->ops.front()) {
      const Range current = entry_at(lines_of(cache_, now->file), now->line);
      if (!current.first) return std::nullopt;
      return SuggestedFix{"restore the base's derivatives.yaml entry for " + was->ops.front(),
                 {{now->file, current.first, current.end - current.first, text_of(base, entry)}}};
    }
    const std::string file = change_derivatives();
    if (file.empty()) return std::nullopt;
    return SuggestedFix{"restore the base's derivatives.yaml entry for " + was->ops.front(),
               {reinsert(base, entry, lines_of(cache_, file), file)}};
  }

  std::optional<SuggestedFix> restore_dispatch(const std::string& name) {
    const Operator* old = before_.find(name);
    const Operator* now = after_.find(name);
    if (!old || !now || !old->schema || !now->schema) return std::nullopt;
    const Lines& base = lines_of(cache_, std::string(old->schema->origin.file()));
    const std::string file(now->schema->origin.file());
    const Lines& change = lines_of(cache_, file);
    const Range was = entry_at(base, old->schema->origin.line());
    const Range entry = entry_at(change, now->schema->origin.line());
    if (!was.first || !entry.first) return std::nullopt;
    const Range old_table = dispatch_table(base, was);
    const Range table = dispatch_table(change, entry);
    const std::string insert = old_table.first ? text_of(base, old_table) : std::string();
    if (table.first)
      return SuggestedFix{old_table.first ? "give " + name + " the base's dispatch: table back"
                                 : "delete " + name + "'s dispatch: table (CompositeImplicitAutograd again)",
                 {{file, table.first, table.end - table.first, insert}}};
    if (insert.empty()) return std::nullopt;
    return SuggestedFix{"give " + name + " the base's dispatch: table back", {{file, entry.end, 0, insert}}};
  }

  // `covers`: the variants removed with it (one finding): each entry comes back.
  std::optional<SuggestedFix> restore_operator(const std::string& name, const std::vector<std::string>& covers) {
    const Operator* old = before_.find(name);
    if (!old || !old->schema) return std::nullopt;
    const Lines& base = lines_of(cache_, std::string(old->schema->origin.file()));
    const Range entry = entry_at(base, old->schema->origin.line());
    std::string file;  // the change's native_functions.yaml
    for (const Operator& op : after_.operators())
      if (op.schema && op.schema->origin.file().ends_with("native_functions.yaml")) {
        file = std::string(op.schema->origin.file());
        break;
      }
    if (!entry.first || file.empty()) return std::nullopt;
    const Lines& change = lines_of(cache_, file);
    const std::string bare(without_namespace(name));
    if (!base[entry.first - 1].starts_with("- func: " + bare + "(")) {
      // Generated from another entry (`autogen: NAME`): that entry's autogen: line comes back.
      const auto same = std::find(change.begin(), change.end(), base[entry.first - 1]);
      if (same == change.end()) return std::nullopt;
      const Range now = entry_at(change, static_cast<int>(same - change.begin()) + 1);
      auto autogen = [](const Lines& lines, Range r) {
        for (int n = r.first + 1; n < r.end; ++n)
          if (lines[n - 1].starts_with("  autogen:")) return n;
        return 0;
      };
      const int was = autogen(base, entry), is = autogen(change, now);
      if (!was || !now.first) return std::nullopt;
      return SuggestedFix{"give " + base[entry.first - 1].substr(8, base[entry.first - 1].find('(') - 8) +
                              " its autogen: line back (it generates " + name + ")",
                          {{file, is ? is : now.end, is ? 1 : 0, base[was - 1]}}};
    }
    // Its out= operator's deleted variants come back with it, in the base's order.
    std::vector<std::pair<Range, std::string>> entries{{entry, name}};
    for (const auto& [range, variant] : deleted_variants(*old, base)) entries.emplace_back(range, variant);
    for (const std::string& variant : covers) {
      const Operator* was = before_.find(variant);
      if (!was || !was->schema || was->schema->origin.file() != old->schema->origin.file()) return std::nullopt;
      const Range range = entry_at(base, was->schema->origin.line());
      if (!range.first) return std::nullopt;
      // One generated by another's `autogen:` comes back with that entry.
      const bool own = base[range.first - 1].starts_with("- func: " + std::string(without_namespace(variant)) + "(");
      const bool listed = std::any_of(entries.begin(), entries.end(), [&](const auto& e) {
        return e.second == variant || e.first.first == range.first;
      });
      if (!own && !listed) return std::nullopt;
      if (own && !listed) entries.emplace_back(range, variant);
    }
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first.first < b.first.first; });
    std::string description = "put " + name + "'s native_functions.yaml entry back", variants;
    for (const auto& [range, each] : entries)
      if (each != name) variants += (variants.empty() ? "" : ", ") + each;
    if (!variants.empty())
      description = "put " + name + "'s native_functions.yaml entry back with " + variants + "'s" +
                    (covers.empty() ? " (torchgen refuses an out= operator without another variant of its signature)"
                                    : "");
    SuggestedFix fix{description, {}};
    for (const auto& [range, each] : entries) {
      FixEdit edit = reinsert(base, range, change, file);
      if (!fix.edits.empty() && fix.edits.back().line == edit.line)
        fix.edits.back().insert += edit.insert;  // deleted together: they go back together
      else
        fix.edits.push_back(std::move(edit));
    }
    // Their formulas went with them (torchgen refuses a formula for no operator): they come back too,
    // each once: the variants of one signature share their functional's entry (a copy would be a
    // second entry of one schema, which load_derivatives takes silently, the last one winning).
    for (const auto& [range, each] : entries)
      if (auto formula = restore_formula(each)) {
        const FixEdit& e = formula->edits.front();
        if (std::none_of(fix.edits.begin(), fix.edits.end(), [&](const FixEdit& o) {
              return o.file == e.file && o.line == e.line && o.insert == e.insert;
            }))
          fix.edits.push_back(e);
      }
    return fix;
  }

  // An out= operator's functional, in-place and mutable variants (the same
  // torchgen signature) the change deleted with it, when the change keeps
  // none: put back alone, torchgen refuses it ("Found an out= operator that
  // we could not find any other variants of", found applying this fix to
  // nf-sspaddmm-deleted-with-deprecated). In the base's order.
  std::vector<std::pair<Range, std::string>> deleted_variants(const Operator& old, const Lines& base) const {
    const std::optional<FunctionSchema> schema = operator_schema(old);
    if (!schema || !torchgen::is_out_fn(*schema)) return {};
    const std::string sig = torchgen::torchgen_text(torchgen::signature(*schema));
    auto same_signature = [&](const Operator& op) {
      const std::optional<FunctionSchema> s = op.name == old.name ? std::nullopt : operator_schema(op);
      return s && torchgen::torchgen_text(torchgen::signature(*s)) == sig;
    };
    for (const Operator& op : after_.operators())
      if (same_signature(op)) return {};
    std::vector<std::pair<Range, std::string>> variants;
    for (const Operator& op : before_.operators()) {
      if (!op.schema || op.schema->origin.file() != old.schema->origin.file() || after_.find(op.name) ||
          !same_signature(op))
        continue;
      const Range range = entry_at(base, op.schema->origin.line());
      // Its own entry (not one that generates it: autogen:).
      if (!range.first || !base[range.first - 1].starts_with("- func: " + std::string(without_namespace(op.name)) + "("))
        return {};
      variants.emplace_back(range, op.name);
    }
    return variants;
  }

  // Not for a finding that covers other variants: output_differentiability
  // on an entry an in-place variant shares is refused, and a generated out=
  // variant takes no formula from it. A view's NAME_copy takes the view's
  // entry whole, output_differentiability too (add_view_copy_derivatives), as
  // PyTorch's own `indices` and `indices_copy` do.
  std::optional<SuggestedFix> formula_skeleton(const std::string& name, const std::vector<std::string>& covers) {
    const std::string copy = view_copy_name(name);
    if (!covers.empty() && covers != std::vector<std::string>{copy}) return std::nullopt;
    // Nor beside other overloads or variants of the name: an out= variant of
    // its signature with no returns would need output_differentiability: []
    // (gen_autograd refuses the length), the real torchgen 2.14.1 showed.
    const std::string base = name.substr(0, name.find('.'));
    // Nor for an overload named `…functional…`: load_derivatives' canonical_function
    // takes no entry for one (refused by the real torchgen 2.14.1).
    if (name.find('.') != std::string::npos && name.find("functional", name.find('.')) != std::string::npos)
      return std::nullopt;
    // The view's _copy and its out= (generated: no formula) have the view's outputs, or take none.
    auto of_copy = [&](const std::string& other) {
      return !covers.empty() && (other == copy || other.rfind(copy + ".", 0) == 0 || other == copy + "_out");
    };
    for (const Operator& other : after_.operators())
      if (other.name != name && !of_copy(other.name) &&
          (other.name.rfind(base + ".", 0) == 0 || other.name.rfind(base + "_", 0) == 0))
        return std::nullopt;
    const Operator* op = after_.find(name);
    const std::string file = change_derivatives();
    if (!op || !op->schema || file.empty()) return std::nullopt;
    const Lines& natives = lines_of(cache_, std::string(op->schema->origin.file()));
    const int line = op->schema->origin.line();
    if (line <= 0 || line > static_cast<int>(natives.size()) || !natives[line - 1].starts_with("- func: "))
      return std::nullopt;
    std::string schema = natives[line - 1].substr(8);
    schema.erase(schema.find_last_not_of(" \t\r\n") + 1);
    // A generated variant (autogen:) is located at the entry it is made from,
    // whose schema is another operator's: the functional of a mutable operator
    // returns more, and the mutable one would take the entry with the wrong
    // number of outputs (found applying this fix to mutable-op-autogen).
    const std::string unqualified(without_namespace(name));
    if (!schema.starts_with(unqualified + "(")) return std::nullopt;
    const std::optional<FunctionSchema> s = operator_schema(*op);
    if (!s || s->returns.empty()) return std::nullopt;
    std::string flags;
    for (size_t i = 0; i < s->returns.size(); ++i) flags += i ? ", False" : "False";
    const Lines& change = lines_of(cache_, file);
    const bool newline = change.empty() || change.back().ends_with('\n');
    return SuggestedFix{"add " + name + "'s derivatives.yaml entry with its outputs non-differentiable (write formulas "
                               "instead where they are differentiable)",
               {{file, static_cast<int>(change.size()) + 1, 0,
                 std::string(newline ? "\n" : "\n\n") + "- name: " + schema + "\n  output_differentiability: [" +
                     flags + "]\n"}}};
  }

  const Registry& before_;
  const Registry& after_;
  const std::map<std::string, FormulaFact>& before_formulas_;
  const std::map<std::string, FormulaFact>& after_formulas_;
  std::map<std::string, Lines> cache_;
};

}  // namespace

void suggest_fixes(const Registry& before, const Registry& after,
                   const std::map<std::string, FormulaFact>& before_formulas,
                   const std::map<std::string, FormulaFact>& after_formulas, std::vector<Finding>& costs) {
  Fixer fixer(before, after, before_formulas, after_formulas);
  for (Finding& f : costs)
    if (!f.fix) f.fix = fixer.fix_for(f);
}

}  // namespace dispatchctl
