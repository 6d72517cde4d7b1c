// dispatchctl show OP...: the computed dispatch table of operators.
#include "builtin/builtin.h"
#include "common.h"
#include "live/live_table.h"
#include "render/live_render.h"
#include "load/selection.h"
#include "registry/op_select.h"
#include "query/predicates.h"
#include "keys/key_summary.h"
#include "render/show_render.h"
#include "table/torch_text.h"
#include "render/json_document.h"
#include "util/file_io.h"
#include "util/log.h"

namespace dispatchctl::cli {

namespace {

// The header line saying rows of backends this build has no kernels for
// (CUDA on the built-in CPU-only registries) are a CPU-only PyTorch's. It
// names backends in the order their keys first show a row, so each key is
// kept once, at its first appearance.
class BuildNote {
 public:
  explicit BuildNote(const Registry& reg) : build_(build_of(reg)), seen_(reg.catalogue().key_count()) {}
  bool possible() const { return !build_.not_compiled.empty(); }
  void add(const std::vector<Row>& rows) {
    if (!possible()) return;
    for (const Row& row : rows)
      if (row.valid() && !seen_[row.key]) {
        seen_[row.key] = true;
        shown_.push_back(row.key);
      }
  }
  std::string text(const Catalogue& cat) const { return possible() ? not_compiled_note(cat, build_, shown_) : ""; }

 private:
  BuildBackends build_;
  std::vector<bool> seen_;
  std::vector<Key> shown_;
};

struct ShowCommand {
  RegistryOptions registry;
  std::vector<std::string> ops;
  std::string format, output;
  bool all_keys = false;
  bool live = false;

  // --live: the rows PyTorch's incremental updates leave (§3.3), else the
  // recomputed table (one buffer reused for every operator). `note`, when
  // given, learns the recomputed rows: the table is computed once for both.
  const std::vector<Row>& table_of(const Registry& reg, const Operator& op, std::optional<LiveTable>& lt,
                                   TableComputer& computer, BuildNote* note = nullptr) const {
    if (!live) {
      const std::vector<Row>& rows = computer.compute(op);
      if (note) note->add(rows);
      return rows;
    }
    if (note && note->possible()) note->add(computer.compute(op));
    lt = replay_live_table(reg, op);
    return lt->rows;
  }

  int run() const {
    if (!output.empty() && output != "-") require_writable_output(output);
    // -o FILE: gathered, then written atomically once complete.
    std::string document;
    const auto emit = [&](std::string_view text) {
      if (output.empty() || output == "-") write_stdout(text);
      else document += text;
    };
    auto [reg, selected] = load_and_select(registry.request(), ops);
    const Catalogue& cat = reg->catalogue();
    const bool blocks = selected.size() > 1;
    TableComputer computer(*reg);
    if (format == "json") {
      BuildNote note(*reg);
      auto operators = nlohmann::ordered_json::array();
      for (const Operator* op : selected) {
        std::optional<LiveTable> lt;
        auto j = show_json(*reg, *op, table_of(*reg, *op, lt, computer, &note), {all_keys, false});
        if (lt) annotate_live_json(j, *reg, *op, *lt);
        operators.push_back(std::move(j));
      }
      emit(show_json_document_text(*reg, note.text(cat), std::move(operators),
                                   predicted_registry_note(reg->sources)));
    } else {
      // Operator by operator into one fixed buffer handed to stdout as it
      // fills (util/chunked_output.h): memory stays flat and small however
      // many tables are printed.
      ChunkedOutput chunks(emit);
      std::string out;  // one text or state block at a time
      const ShowOptions options{all_keys, stdout_is_color_terminal(), output_width()};
      if (format == "text") {
        // The note (stderr, like every note; -q silences it) comes first but
        // depends on every table: a pass of its own over the same
        // TableComputer. Keeping the tables for the rendering instead would
        // cost 14 MB for '*' (page faults cost more than the pass).
        BuildNote note(*reg);
        if (note.possible() && log_enabled(LogLevel::note))
          for (const Operator* op : selected) note.add(computer.compute(*op));
        if (const std::string text = note.text(cat); !text.empty()) log_note("{}", text);
        if (const std::string text = predicted_registry_note(reg->sources); !text.empty()) log_note("{}", text);
      }
      for (const Operator* op : selected) {
        std::optional<LiveTable> lt;
        out.clear();
        if (format == "text") {
          if (op != selected.front()) out += '\n';
          append_show_text(out, *reg, *op, table_of(*reg, *op, lt, computer), options);
          if (lt) append_stale_text(out, *reg, *op, *lt, options.color, options.width);
        } else {
          if (blocks) {
            chunks.append("=== ");
            chunks.append(op->name);
            chunks.append("\n");
          }
          if (format == "torch-table") append_torch_table(chunks, cat, table_of(*reg, *op, lt, computer));
          else append_torch_state(out, cat, *op);
        }
        chunks.append(out);
      }
      chunks.flush();
    }
    if (write_output(document, output)) log_note("wrote {}", output);
    keep_until_exit(std::move(reg));
    return 0;
  }
};
}  // namespace

void setup_show(CLI::App& app, int& exit_code) {
  auto command = std::make_shared<ShowCommand>();
  CLI::App* sub = app.add_subcommand(
      "show", "Show operators' computed dispatch tables: which kernel each key runs, and from where");
  sub->footer(
      "OP is a full name (aten::add.Tensor), a bare name for all its overloads (aten::nonzero "
      "means aten::nonzero and aten::nonzero.out), or a glob ('aten::add*', '*'; quote it so the "
      "shell does not expand it). Python's spellings work too: torch.ops.aten.add.Tensor, "
      "aten.add.Tensor, aten::nonzero.default (the unnamed overload alone). A name or glob that "
      "matches nothing is exit 2 with a did-you-mean.\n"
      "Formats: text (grouped, for people), json (stable fields, see README), torch-table "
      "(byte-identical to torch._C._dispatch_dump_table), torch-state (byte-identical to "
      "torch._C._dispatch_dump). With several operators the torch formats print '=== NAME' "
      "before each block, sorted by name.\n"
      "The built-in registries are CPU-only builds: their CUDA rows are what a CPU-only PyTorch "
      "computes (text says so in a note); export your CUDA build (-m python) "
      "for CUDA answers.\n\n"
      "Examples:\n"
      "  dispatchctl show aten::add\n"
      "  dispatchctl show aten::add.Tensor --format torch-table\n"
      "  dispatchctl show aten::linear --all-keys -m " + oldest_builtin() + "\n"
      "  dispatchctl show aten::mm -m " + newest_builtin() + " -m examples/privateuse1_backend.json");
  sub->add_option("OP", command->ops, "Operators: name, bare name or glob")->required();
  add_registry_options(sub, command->registry);
  add_format_option(sub, command->format, {"text", "json", "torch-table", "torch-state"});
  add_output_option(sub, command->output, "Tables (or JSON)");
  sub->add_flag("--live", command->live,
                 "Show the live table: replay registrations in order as PyTorch updates it and "
                 "mark stale rows (live != recomputed); torch-table then prints the live rows");
  sub->add_flag("--all-keys", command->all_keys, "Also list missing rows (keys without a kernel)");
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
