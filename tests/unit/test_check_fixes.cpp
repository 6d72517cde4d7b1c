// check --base's suggested fixes (lib/check/fixes.cpp), each kind on a small
// YAML: the edit steps expected are written here from torchgen's rules (the
// text a fix must put back to be the base again, where torchgen reads it),
// never copied from what the code produced.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "check/lint_changes.h"
#include "check/load.h"
#include "util/file_io.h"

using namespace dispatchctl;

namespace {

// The base: a function group with one formula (my_op, my_op_, my_op.out:
// one derivatives.yaml entry serves them all), an implicit
// CompositeImplicitAutograd operator, a CPU one with a formula, and an
// operator that generates its out= variant (autogen:).
const std::string k_natives =
    "- func: my_op(Tensor self) -> Tensor\n"                             // 1
    "  variants: function, method\n"                                     // 2
    "  dispatch:\n"                                                      // 3
    "    CPU: my_op_cpu\n"                                               // 4
    "\n"                                                                 // 5
    "- func: my_op_(Tensor(a!) self) -> Tensor(a!)\n"                    // 6
    "  variants: function, method\n"                                     // 7
    "  dispatch:\n"                                                      // 8
    "    CPU: my_op_cpu_\n"                                              // 9
    "\n"                                                                 // 10
    "- func: my_op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"  // 11
    "  dispatch:\n"                                                      // 12
    "    CPU: my_op_out\n"                                               // 13
    "\n"                                                                 // 14
    "- func: my_math(Tensor self) -> Tensor\n"                           // 15
    "\n"                                                                 // 16
    "- func: my_dense(Tensor self) -> Tensor\n"                          // 17
    "  dispatch:\n"                                                      // 18
    "    CPU: my_dense_cpu\n"                                            // 19
    "\n"                                                                 // 20
    "- func: my_flip(Tensor self, int[] dims) -> Tensor\n"               // 21
    "  variants: function, method\n"                                     // 22
    "  dispatch:\n"                                                      // 23
    "    CPU: my_flip_cpu\n"                                             // 24
    "  autogen: my_flip.out\n";                                          // 25

const std::string k_my_op_formula =
    "- name: my_op(Tensor self) -> Tensor\n"
    "  self: grad * 2\n"
    "  result: auto_element_wise\n";
const std::string k_my_dense_formula =
    "- name: my_dense(Tensor self) -> Tensor\n"
    "  self: grad\n";
const std::string k_formulas = k_my_op_formula + "\n" + k_my_dense_formula;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// A torchgen: folder with the two files (tags.yaml: the release's).
std::string folder(const std::string& name, const std::string& natives, const std::string& formulas) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dispatchctl-test-" + std::to_string(::getpid()) + "-fixes-" + name);
  std::filesystem::create_directories(dir);
  write_file_atomically((dir / "native_functions.yaml").string(), natives);
  write_file_atomically((dir / "derivatives.yaml").string(), formulas);
  return dir.string();
}

struct Fixed {
  std::string natives, derivatives;  // the change's files, as fix edits name them
  std::vector<Finding> costs;
};

// The fixes suggest_fixes gives the costs (rule, operator, covers, kind as
// lint_changes gives them) of the change against the base.
Fixed fix(const std::string& name, const std::string& natives, const std::string& formulas,
          std::vector<Finding> costs, const std::string& base_formulas = k_formulas) {
  const std::string base_dir = folder(name + "-base", k_natives, base_formulas);
  const std::string change_dir = folder(name, natives, formulas);
  CheckLoad before = load_for_check({"torchgen:" + base_dir});
  CheckLoad after = load_for_check({"torchgen:" + change_dir});
  REQUIRE(before.registry);
  REQUIRE(after.registry);
  suggest_fixes(*before.registry, *after.registry, before.formulas, after.formulas, costs);
  std::filesystem::remove_all(base_dir);
  std::filesystem::remove_all(change_dir);
  return {change_dir + "/native_functions.yaml", change_dir + "/derivatives.yaml", std::move(costs)};
}

Finding cost(std::string rule, std::string op, std::vector<std::string> covers = {}, std::string kind = "") {
  Finding f;
  f.rule = std::move(rule);
  f.op = std::move(op);
  f.covers = std::move(covers);
  f.kind = std::move(kind);
  return f;
}

void check_edit(const FixEdit& e, const std::string& file, int line, int remove, const std::string& insert) {
  CHECK(e.file == file);
  CHECK(e.line == line);
  CHECK(e.remove == remove);
  CHECK(e.insert == insert);
}

}  // namespace

TEST_CASE("fixes: a deleted formula comes back before the entry that followed it in the base") {
  // tools/autograd reads one entry per functional; its in-place and out= variants take it too.
  const Fixed r = fix("formula-deleted", k_natives, k_my_dense_formula,
                      {cost("backward-not-implemented", "aten::my_op", {"aten::my_op_", "aten::my_op.out"})});
  REQUIRE(r.costs[0].fix);
  CHECK(r.costs[0].fix->description == "restore the base's derivatives.yaml entry for aten::my_op");
  REQUIRE(r.costs[0].fix->edits.size() == 1);
  check_edit(r.costs[0].fix->edits[0], r.derivatives, 1, 0, k_my_op_formula + "\n");
}

TEST_CASE("fixes: a formula stubbed with not_implemented, or without its forward formula, is replaced by the base's") {
  const std::string stubbed = replaced(k_formulas, "self: grad * 2", "self: not_implemented(\"my_op\")");
  const Fixed r = fix("formula-stubbed", k_natives, stubbed,
                      {cost("backward-not-implemented", "aten::my_op", {}, "formula-not-implemented")});
  REQUIRE(r.costs[0].fix);
  REQUIRE(r.costs[0].fix->edits.size() == 1);
  check_edit(r.costs[0].fix->edits[0], r.derivatives, 1, 3, k_my_op_formula);

  // The forward formula's cost names the in-place variant (the functional falls back to a decomposition).
  const Fixed forward = fix("forward-deleted", k_natives, replaced(k_formulas, "  result: auto_element_wise\n", ""),
                            {cost("forward-not-implemented", "aten::my_op_", {}, "forward-formula-deleted")});
  REQUIRE(forward.costs[0].fix);
  REQUIRE(forward.costs[0].fix->edits.size() == 1);
  check_edit(forward.costs[0].fix->edits[0], forward.derivatives, 1, 2, k_my_op_formula);
}

TEST_CASE("fixes: a lost dispatch: table comes back; one added to a CompositeImplicitAutograd operator goes") {
  const Fixed dense = fix("dense-lost", replaced(k_natives, "CPU: my_dense_cpu", "SparseCPU: my_dense_sparse"),
                          k_formulas, {cost("dense-kernel-lost", "aten::my_dense")});
  REQUIRE(dense.costs[0].fix);
  CHECK(dense.costs[0].fix->description == "give aten::my_dense the base's dispatch: table back");
  REQUIRE(dense.costs[0].fix->edits.size() == 1);
  check_edit(dense.costs[0].fix->edits[0], dense.natives, 18, 2, "  dispatch:\n    CPU: my_dense_cpu\n");

  // A dispatch: table replaces the implicit CompositeImplicitAutograd entry: deleting it gives it back.
  const std::string math = replaced(k_natives, "- func: my_math(Tensor self) -> Tensor\n",
                                    "- func: my_math(Tensor self) -> Tensor\n  dispatch:\n    SparseCPU: my_math_sparse\n");
  const Fixed lost = fix("math-lost", math, k_formulas,
                         {cost("math-kernel-lost", "aten::my_math"), cost("backward-not-implemented", "aten::my_math")});
  for (const Finding& f : lost.costs) {
    REQUIRE(f.fix);
    CHECK(f.fix->description == "delete aten::my_math's dispatch: table (CompositeImplicitAutograd again)");
    REQUIRE(f.fix->edits.size() == 1);
    check_edit(f.fix->edits[0], lost.natives, 16, 2, "");
  }

  // A formula written for it goes with the table: gen_variable_type refuses a formula for an
  // operator without a dispatch: section (the real torchgen 2.14.1 on
  // e11-fliplr-to-backends-with-formula's first fix), the blank line it was appended after too.
  const std::string math_formula = "\n- name: my_math(Tensor self) -> Tensor\n  self: grad\n";
  const Fixed formula =
      fix("math-lost-formula", math, k_formulas + math_formula, {cost("math-kernel-lost", "aten::my_math")});
  REQUIRE(formula.costs[0].fix);
  CHECK(formula.costs[0].fix->description ==
        "delete aten::my_math's dispatch: table (CompositeImplicitAutograd again) and its derivatives.yaml entry "
        "(torchgen refuses a formula for a CompositeImplicitAutograd operator)");
  REQUIRE(formula.costs[0].fix->edits.size() == 2);
  check_edit(formula.costs[0].fix->edits[0], formula.natives, 16, 2, "");
  check_edit(formula.costs[0].fix->edits[1], formula.derivatives, 7, 3, "");

  // The table gone altogether: the base's goes back under the entry's last line.
  const Fixed bare = fix("table-gone", replaced(k_natives, "  dispatch:\n    CPU: my_dense_cpu\n", ""),
                         k_my_op_formula, {cost("dense-kernel-lost", "aten::my_dense")});
  REQUIRE(bare.costs[0].fix);
  REQUIRE(bare.costs[0].fix->edits.size() == 1);
  check_edit(bare.costs[0].fix->edits[0], bare.natives, 18, 0, "  dispatch:\n    CPU: my_dense_cpu\n");
}

TEST_CASE("fixes: a removed operator's entry comes back with its formula (torchgen refuses a formula for no operator)") {
  const std::string natives = replaced(k_natives,
                                       "- func: my_dense(Tensor self) -> Tensor\n  dispatch:\n    CPU: my_dense_cpu\n\n", "");
  const Fixed r = fix("removed", natives, k_my_op_formula, {cost("operator-removed", "aten::my_dense")});
  REQUIRE(r.costs[0].fix);
  CHECK(r.costs[0].fix->description == "put aten::my_dense's native_functions.yaml entry back");
  REQUIRE(r.costs[0].fix->edits.size() == 2);
  // Before my_flip, the entry that followed it in the base.
  check_edit(r.costs[0].fix->edits[0], r.natives, 17,
             0, "- func: my_dense(Tensor self) -> Tensor\n  dispatch:\n    CPU: my_dense_cpu\n\n");
  // derivatives.yaml ends with my_op's entry: appended after a blank line.
  check_edit(r.costs[0].fix->edits[1], r.derivatives, 4, 0, "\n" + k_my_dense_formula);
}

TEST_CASE("fixes: an operator an autogen: line generated comes back with that line") {
  const Fixed r = fix("autogen-dropped", replaced(k_natives, "  autogen: my_flip.out\n", ""), k_formulas,
                      {cost("operator-removed", "aten::my_flip.out")});
  REQUIRE(r.costs[0].fix);
  CHECK(r.costs[0].fix->description == "give my_flip its autogen: line back (it generates aten::my_flip.out)");
  REQUIRE(r.costs[0].fix->edits.size() == 1);
  check_edit(r.costs[0].fix->edits[0], r.natives, 25, 0, "  autogen: my_flip.out\n");
}

TEST_CASE("fixes: an autogen: line deleted with the dispatch: table comes back with it, and the deleted formula") {
  // add_generated_native_functions generates nothing for a non-core CompositeImplicitAutograd
  // operator: the autogen: line alone leaves my_flip.out gone (e11-rot90-to-implicit-formula-dropped).
  const std::string table = "  dispatch:\n    CPU: my_flip_cpu\n  autogen: my_flip.out\n";
  const Fixed r = fix("autogen-implicit", replaced(k_natives, table, ""), k_formulas,
                      {cost("operator-removed", "aten::my_flip.out")});
  REQUIRE(r.costs[0].fix);
  CHECK(r.costs[0].fix->description == "give my_flip its dispatch: table and autogen: line back (it generates "
                                       "aten::my_flip.out; a CompositeImplicitAutograd operator generates nothing)");
  REQUIRE(r.costs[0].fix->edits.size() == 1);
  check_edit(r.costs[0].fix->edits[0], r.natives, 23, 0, table);

  // Its formula deleted with them comes back: the explicit kernel's backward raises without one.
  const std::string flip_formula = "- name: my_flip(Tensor self, int[] dims) -> Tensor\n  self: grad.flip(dims)\n";
  const Fixed formula = fix("autogen-implicit-formula", replaced(k_natives, table, ""), k_formulas,
                            {cost("operator-removed", "aten::my_flip.out")}, k_formulas + "\n" + flip_formula);
  REQUIRE(formula.costs[0].fix);
  CHECK(formula.costs[0].fix->description.ends_with(", with its derivatives.yaml entry"));
  REQUIRE(formula.costs[0].fix->edits.size() == 2);
  check_edit(formula.costs[0].fix->edits[0], formula.natives, 23, 0, table);
  check_edit(formula.costs[0].fix->edits[1], formula.derivatives, 7, 0, "\n" + flip_formula);
}

TEST_CASE("fixes: a deleted out= operator comes back with the variants deleted with it, and their one formula once") {
  // torchgen refuses an out= operator without another variant of its signature
  // ("Found an out= operator that we could not find any other variants of"); the
  // variants share one derivatives.yaml entry, which goes back once (a copy would
  // be a second entry of one schema in the file, which load_derivatives takes
  // silently, the last one winning).
  const std::string natives = k_natives.substr(k_natives.find("- func: my_math"));
  const Fixed r = fix("out-deleted", natives, k_my_dense_formula, {cost("operator-removed", "aten::my_op.out")});
  REQUIRE(r.costs[0].fix);
  CHECK(r.costs[0].fix->description ==
        "put aten::my_op.out's native_functions.yaml entry back with aten::my_op, aten::my_op_'s (torchgen refuses an "
        "out= operator without another variant of its signature)");
  REQUIRE(r.costs[0].fix->edits.size() == 2);
  check_edit(r.costs[0].fix->edits[0], r.natives, 1, 0, k_natives.substr(0, k_natives.find("- func: my_math")));
  check_edit(r.costs[0].fix->edits[1], r.derivatives, 1, 0, k_my_op_formula + "\n");
}

TEST_CASE("fixes: a new operator without a formula gets its - name: entry, outputs non-differentiable") {
  // The schema exactly as native_functions.yaml writes it (tools/autograd matches the text), one flag per output.
  const std::string added = "\n- func: my_new(Tensor self) -> (Tensor, Tensor)\n  dispatch:\n    CPU: my_new_cpu\n";
  const Fixed r = fix("new-op", k_natives + added, k_formulas, {cost("backward-not-implemented", "aten::my_new")});
  REQUIRE(r.costs[0].fix);
  CHECK(r.costs[0].fix->description == "add aten::my_new's derivatives.yaml entry with its outputs non-differentiable "
                                       "(write formulas instead where they are differentiable)");
  REQUIRE(r.costs[0].fix->edits.size() == 1);
  check_edit(r.costs[0].fix->edits[0], r.derivatives, 7, 0,
             "\n- name: my_new(Tensor self) -> (Tensor, Tensor)\n  output_differentiability: [False, False]\n");

  // Every operator of its signature takes the entry (match_differentiability_info): an out=
  // variant with as many returns takes the flags too (e11-smoothstep-tensor-overload-no-formula);
  // another overload of the name has its own signature and entry.
  const std::string out = "\n- func: my_new.out(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> "
                          "(Tensor(a!), Tensor(b!))\n  dispatch:\n    CPU: my_new_out\n";
  const std::string overload = "\n- func: my_new.other(Tensor self, Tensor other) -> Tensor\n  dispatch:\n"
                               "    CPU: my_new_other_cpu\n";
  const Fixed beside = fix("new-op-overload", k_natives + added + out + overload, k_formulas,
                           {cost("backward-not-implemented", "aten::my_new", {"aten::my_new.out"})});
  REQUIRE(beside.costs[0].fix);
  REQUIRE(beside.costs[0].fix->edits.size() == 1);
  CHECK(beside.costs[0].fix->edits[0].insert == r.costs[0].fix->edits[0].insert);

  // An in-place variant cannot take False (gen_differentiable_outputs: "output_differentiability=False
  // for inplace operation"), nor an out= returning () the length (my_chunks, refused by the real torchgen).
  const std::string one = "\n- func: my_one(Tensor self) -> Tensor\n  dispatch:\n    CPU: my_one_cpu\n"
                          "\n- func: my_one_(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n    CPU: my_one_cpu_\n";
  const Fixed inplace = fix("new-op-inplace", k_natives + one, k_formulas,
                            {cost("backward-not-implemented", "aten::my_one", {"aten::my_one_"})});
  CHECK_FALSE(inplace.costs[0].fix);
  const std::string list = "\n- func: my_list(Tensor self) -> Tensor[]\n  dispatch:\n    CPU: my_list_cpu\n"
                           "\n- func: my_list.out(Tensor self, *, Tensor(a!)[] out) -> ()\n  dispatch:\n"
                           "    CPU: my_list_out\n";
  const Fixed empty = fix("new-op-list", k_natives + list, k_formulas,
                          {cost("backward-not-implemented", "aten::my_list", {"aten::my_list.out"})});
  CHECK_FALSE(empty.costs[0].fix);
  const Fixed uncovered = fix("new-op-list-uncovered", k_natives + list, k_formulas,
                              {cost("backward-not-implemented", "aten::my_list")});
  CHECK_FALSE(uncovered.costs[0].fix);
}

TEST_CASE("fixes: a new view without a formula gets one entry, which its _copy takes too") {
  // load_derivatives' add_view_copy_derivatives gives NAME_copy the view's entry,
  // output_differentiability included (PyTorch's own indices / indices_copy);
  // the generated _copy.out takes no formula (match_differentiability_info).
  const std::string added =
      "\n- func: my_view(Tensor(a) self, int dim) -> Tensor(a)\n  variants: function\n  dispatch:\n"
      "    CompositeExplicitAutograd: my_view\n\n- func: my_view_copy(Tensor self, int dim) -> Tensor\n"
      "  variants: function\n  dispatch:\n    CompositeExplicitAutogradNonFunctional: my_view_copy\n"
      "  tags: view_copy\n  autogen: my_view_copy.out\n";
  const Fixed r = fix("new-view", k_natives + added, k_formulas,
                      {cost("backward-not-implemented", "aten::my_view", {"aten::my_view_copy"})});
  REQUIRE(r.costs[0].fix);
  REQUIRE(r.costs[0].fix->edits.size() == 1);
  check_edit(r.costs[0].fix->edits[0], r.derivatives, 7, 0,
             "\n- name: my_view(Tensor(a) self, int dim) -> Tensor(a)\n  output_differentiability: [False]\n");
  // Its formula written for the _copy instead: the entry becomes the view's (add_view_copy_derivatives
  // gives the _copy the view's formula, never the view the _copy's: e11-diag-view-formula-on-copy).
  const std::string copy_formula = "\n- name: my_view_copy(Tensor self, int dim) -> Tensor\n  self: grad\n";
  const Fixed moved = fix("new-view-copy-formula", k_natives + added, k_formulas + copy_formula,
                          {cost("backward-not-implemented", "aten::my_view")});
  REQUIRE(moved.costs[0].fix);
  CHECK(moved.costs[0].fix->description == "write aten::my_view_copy's derivatives.yaml entry for the view "
                                           "aten::my_view (its _copy takes the view's formula, not the view its _copy's)");
  REQUIRE(moved.costs[0].fix->edits.size() == 1);
  check_edit(moved.costs[0].fix->edits[0], moved.derivatives, 8, 1,
             "- name: my_view(Tensor(a) self, int dim) -> Tensor(a)\n");

  // Covering another operator than its _copy (an in-place variant): none.
  const Fixed other = fix("new-view-other", k_natives + added, k_formulas,
                          {cost("backward-not-implemented", "aten::my_view", {"aten::my_view_"})});
  CHECK_FALSE(other.costs[0].fix);
}
