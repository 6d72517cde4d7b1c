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

#include "check/fixes_lines.h"
#include "check/lint_changes.h"
#include "registry/schema_parser.h"
#include "registry/operator_name.h"
#include "torchgen/schema.h"

namespace dispatchctl {
namespace {

using namespace fix_lines;

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
    if (auto fix = formula_to_view(f.op)) return fix;
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
    if (table.first && !old_table.first)
      return back_to_implicit(name, {file, table.first, table.end - table.first, ""});
    if (table.first)
      return SuggestedFix{"give " + name + " the base's dispatch: table back",
                          {{file, table.first, table.end - table.first, insert}}};
    if (insert.empty()) return std::nullopt;
    return SuggestedFix{"give " + name + " the base's dispatch: table back", {{file, entry.end, 0, insert}}};
  }

  // The dispatch: table deleted, a CompositeImplicitAutograd operator again.
  // A formula the change wrote for it goes too: gen_variable_type refuses a
  // formula for an operator without a dispatch: section ("There's a formula
  // for fliplr(or its functional variant) in derivatives.yaml. It's required
  // to add a dispatch section", found applying this fix to
  // e11-fliplr-to-backends-with-formula). Not one written for its functional
  // (the functional would lose it): no fix then.
  std::optional<SuggestedFix> back_to_implicit(const std::string& name, FixEdit table) {
    SuggestedFix fix{"delete " + name + "'s dispatch: table (CompositeImplicitAutograd again)", {std::move(table)}};
    const FormulaFact* formula = formula_of(after_formulas_, name);
    if (!formula || formula_of(before_formulas_, name)) return fix;
    if (formula->ops.front() != name) return std::nullopt;
    const Lines& lines = lines_of(cache_, formula->file);
    Range entry = entry_at(lines, formula->line);
    if (!entry.first) return std::nullopt;
    if (entry.first > 1 && lines[entry.first - 2] == "\n") --entry.first;  // the blank line it was added after
    fix.description += " and its derivatives.yaml entry (torchgen refuses a formula for a CompositeImplicitAutograd "
                       "operator)";
    fix.edits.push_back({formula->file, entry.first, entry.end - entry.first, ""});
    return fix;
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
      const std::string from = base[entry.first - 1].substr(8, base[entry.first - 1].find('(') - 8);
      const Range table = dispatch_table(base, entry);
      if (!table.first || dispatch_table(change, now).first)
        return SuggestedFix{"give " + from + " its autogen: line back (it generates " + name + ")",
                            {{file, is ? is : now.end, is ? 1 : 0, base[was - 1]}}};
      // The entry lost its dispatch: table too: a CompositeImplicitAutograd operator gets no
      // generated variants (add_generated_native_functions skips the non-core ones), so the
      // autogen: line alone leaves NAME.out gone (e11-rot90-to-implicit-formula-dropped).
      // The table comes back, and the formula the change deleted with it: without one the
      // explicit kernel's backward raises.
      SuggestedFix fix{"give " + from + " its dispatch: table and autogen: line back (it generates " + name +
                           "; a CompositeImplicitAutograd operator generates nothing)",
                       {{file, is ? is : now.end, is ? 1 : 0, text_of(base, table) + base[was - 1]}}};
      const std::string generator = qualified_name(from, name.substr(0, name.find("::")));
      if (!formula_of(after_formulas_, generator))
        if (auto formula = restore_formula(generator)) {
          fix.description += ", with its derivatives.yaml entry";
          fix.edits.push_back(formula->edits.front());
        }
      return fix;
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

  // The operator's schema as its native_functions.yaml entry writes it (tools/autograd
  // matches a `- name:` line's text exactly).
  std::optional<std::string> written_schema(const Operator& op) {
    if (!op.schema) return std::nullopt;
    const Lines& natives = lines_of(cache_, std::string(op.schema->origin.file()));
    const int line = op.schema->origin.line();
    if (line <= 0 || line > static_cast<int>(natives.size()) || !natives[line - 1].starts_with("- func: "))
      return std::nullopt;
    std::string schema = natives[line - 1].substr(8);
    schema.erase(schema.find_last_not_of(" \t\r\n") + 1);
    // A generated variant (autogen:) is located at the entry it is made from,
    // whose schema is another operator's: the functional of a mutable operator
    // returns more, and the mutable one would take the entry with the wrong
    // number of outputs (found applying this fix to mutable-op-autogen).
    if (!schema.starts_with(std::string(without_namespace(op.name)) + "(")) return std::nullopt;
    return schema;
  }

  // A view whose formula was written for its NAME_copy: load_derivatives'
  // add_view_copy_derivatives gives the _copy the view's entry, never the view
  // the _copy's, so the entry's `- name:` line becomes the view's (the same
  // arguments: torchgen pairs a view with its _copy only then) and both take it
  // (e11-diag-view-formula-on-copy).
  std::optional<SuggestedFix> formula_to_view(const std::string& name) {
    const Operator* view = after_.find(name);
    const Operator* copy = after_.find(view_copy_name(name));
    const std::optional<FunctionSchema> s = view ? operator_schema(*view) : std::nullopt;
    if (!copy || !s || std::none_of(s->returns.begin(), s->returns.end(), [](const auto& r) {
          return !r.alias.empty() && !r.is_write();
        }))
      return std::nullopt;
    const FormulaFact* formula = formula_of(after_formulas_, copy->name);
    const std::optional<std::string> schema = written_schema(*view);
    if (!formula || formula->ops.front() != copy->name || !schema) return std::nullopt;
    const Lines& lines = lines_of(cache_, formula->file);
    if (formula->line <= 0 || formula->line > static_cast<int>(lines.size()) ||
        !lines[formula->line - 1].starts_with("- name: "))
      return std::nullopt;
    return SuggestedFix{"write " + copy->name + "'s derivatives.yaml entry for the view " + name +
                            " (its _copy takes the view's formula, not the view its _copy's)",
                        {{formula->file, formula->line, 1, "- name: " + *schema + "\n"}}};
  }

  // Only for a finding that covers out= variants of its outputs (below) or a
  // view's NAME_copy, which takes the view's entry whole, output_differentiability
  // too (add_view_copy_derivatives), as PyTorch's own `indices` and `indices_copy` do.
  std::optional<SuggestedFix> formula_skeleton(const std::string& name, const std::vector<std::string>& covers) {
    // Nor for an overload named `…functional…`: load_derivatives' canonical_function
    // takes no entry for one (refused by the real torchgen 2.14.1).
    if (name.find('.') != std::string::npos && name.find("functional", name.find('.')) != std::string::npos)
      return std::nullopt;
    const Operator* op = after_.find(name);
    const std::optional<FunctionSchema> s = op ? operator_schema(*op) : std::nullopt;
    if (!s || s->returns.empty()) return std::nullopt;
    // The view's _copy and its out= (generated: no formula) have the view's outputs, or take none.
    const std::string copy = view_copy_name(name);
    auto of_copy = [&](const std::string& other) {
      return !covers.empty() && (other == copy || other.rfind(copy + ".", 0) == 0 || other == copy + "_out");
    };
    // Every operator of its signature takes the entry (match_differentiability_info):
    // an out= variant with as many returns takes the flags too (smoothstep.Tensor_out,
    // e11-smoothstep-tensor-overload-no-formula), an in-place one cannot
    // (gen_differentiable_outputs refuses False for it) nor an out= returning ()
    // (my_chunks: the length, the real torchgen 2.14.1 showed). Other overloads of
    // the name have other signatures and entries of their own.
    const std::string sig = torchgen::torchgen_text(torchgen::signature(*s, true));
    auto takes_flags = [&](const Operator& other) {
      const std::optional<FunctionSchema> o = operator_schema(other);
      return o && torchgen::schema_kind(*o) == torchgen::SchemaKind::Out && o->returns.size() == s->returns.size();
    };
    for (const std::string& each : covers) {
      const Operator* other = after_.find(each);
      if (!of_copy(each) && (!other || !takes_flags(*other))) return std::nullopt;
    }
    const std::string base = name.substr(0, name.find('.'));
    for (const Operator& other : after_.operators()) {
      if (other.name == name || of_copy(other.name) || std::ranges::find(covers, std::string_view(other.name)) != covers.end() ||
          (other.name.rfind(base + ".", 0) != 0 && other.name.rfind(base + "_", 0) != 0))
        continue;
      const std::optional<FunctionSchema> o = operator_schema(other);
      if (!o || torchgen::torchgen_text(torchgen::signature(*o, true)) == sig) return std::nullopt;
    }
    const std::string file = change_derivatives();
    const std::optional<std::string> schema = written_schema(*op);
    if (file.empty() || !schema) return std::nullopt;
    std::string flags;
    for (size_t i = 0; i < s->returns.size(); ++i) flags += i ? ", False" : "False";
    const Lines& change = lines_of(cache_, file);
    const bool newline = change.empty() || change.back().ends_with('\n');
    return SuggestedFix{"add " + name + "'s derivatives.yaml entry with its outputs non-differentiable (write formulas "
                               "instead where they are differentiable)",
               {{file, static_cast<int>(change.size()) + 1, 0,
                 std::string(newline ? "\n" : "\n\n") + "- name: " + *schema + "\n  output_differentiability: [" +
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
