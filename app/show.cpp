// dispatchctl show OP...: the computed dispatch table of operators.
#include "common.h"
#include "live/live_table.h"
#include "render/live_render.h"
#include "query/op_select.h"
#include "query/predicates.h"
#include "render/key_summary.h"
#include "render/show_render.h"
#include "render/torch_text.h"
#include "render/json_document.h"

namespace dispatchctl::cli {

namespace {
struct ShowCommand {
  RegistryOptions registry;
  std::vector<std::string> ops;
  std::string format;
  bool all_keys = false;
  bool live = false;

  // --live: the rows PyTorch's incremental updates leave (§3.3), else the
  // recomputed table, into `rows`: one buffer reused for every operator.
  const std::vector<Row>& table_of(const Registry& reg, const Operator& op, std::optional<LiveTable>& lt,
                                   std::vector<Row>& rows, const std::vector<Row>* kept = nullptr) const {
    if (kept) return *kept;
    if (!live) {
      compute_table(reg, op, rows);
      return rows;
    }
    lt = replay_live_table(reg, op);
    return lt->rows;
  }

  // The header line saying rows of backends this build has no kernels for
  // (CUDA on the built-in CPU-only registries) are a CPU-only PyTorch's.
  // `kept` holds the tables of a few operators, computed here once for the
  // note and the printing; a glob's thousands are computed twice instead
  // (memory stays flat).
  std::string build_note(const Registry& reg, const std::vector<const Operator*>& selected,
                         std::vector<Row>& rows, std::vector<std::vector<Row>>& kept) const {
    const BuildBackends build = build_backends(reg);
    if (build.not_compiled.empty()) return "";
    constexpr size_t k_kept_tables = 64;
    const bool keep = !live && selected.size() <= k_kept_tables;
    std::vector<Key> shown;
    for (const Operator* op : selected) {
      std::vector<Row>& table = keep ? kept.emplace_back() : rows;
      compute_table(reg, *op, table);
      for (const Row& row : table)
        if (row.valid()) shown.push_back(row.key);
    }
    return not_compiled_note(reg.catalogue(), build, shown);
  }

  int run() const {
    auto [reg, selected] = load_and_select(registry.manifests, ops);
    const Catalogue& cat = reg->catalogue();
    const bool blocks = selected.size() > 1;
    std::vector<Row> rows;
    std::string out;
    if (format == "json") {
      nlohmann::ordered_json doc = json_document();
      doc["torch_version"] = reg->torch_version;
      std::vector<std::vector<Row>> kept;
      if (const std::string note = build_note(*reg, selected, rows, kept); !note.empty()) doc["build_note"] = note;
      doc["operators"] = nlohmann::ordered_json::array();
      for (size_t i = 0; i < selected.size(); ++i) {
        const Operator* op = selected[i];
        std::optional<LiveTable> lt;
        auto j = show_json(*reg, *op, table_of(*reg, *op, lt, rows, i < kept.size() ? &kept[i] : nullptr),
                           {all_keys, false});
        if (lt) annotate_live_json(j, *reg, *op, *lt);
        doc["operators"].push_back(std::move(j));
      }
      out = doc.dump(2) + "\n";
    } else {
      // Operator by operator into one buffer, handed to stdout a megabyte at
      // a time: memory stays flat however many tables are printed.
      constexpr size_t k_flush_bytes = 1 << 20;
      // Room for a megabyte only when that much may come: for a few tables a
      // 1 MB buffer is an mmap and munmap at start-up for nothing.
      if (selected.size() > 16) out.reserve(k_flush_bytes + (64 << 10));
      const ShowOptions options{all_keys, stdout_is_color_terminal(), output_width()};
      std::vector<std::vector<Row>> kept;
      if (format == "text")
        if (const std::string note = build_note(*reg, selected, rows, kept); !note.empty())
          out += wrap_words("note: " + note, 0, 2, options.width) + "\n";
      for (size_t i = 0; i < selected.size(); ++i) {
        const Operator* op = selected[i];
        std::optional<LiveTable> lt;
        if (format == "text") {
          if (op != selected.front()) out += '\n';
          append_show_text(out, *reg, *op, table_of(*reg, *op, lt, rows, i < kept.size() ? &kept[i] : nullptr),
                           options);
          if (lt) append_stale_text(out, *reg, *op, *lt, options.color, options.width);
        } else {
          if (blocks) {
            out += "=== ";
            out += op->name;
            out += '\n';
          }
          if (format == "torch-table") append_torch_table(out, cat, table_of(*reg, *op, lt, rows));
          else append_torch_state(out, cat, *op);
        }
        if (out.size() > k_flush_bytes) {
          write_stdout(out);
          out.clear();
        }
      }
    }
    write_stdout(out);
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
      "  dispatchctl show aten::linear --all-keys -m builtin:1.13.1\n"
      "  dispatchctl show aten::mm -m builtin:2.14.1 -m examples/privateuse1_backend.json");
  sub->add_option("OP", command->ops, "Operators: name, bare name or glob")->required();
  add_registry_options(sub, command->registry);
  add_format_option(sub, command->format, {"text", "json", "torch-table", "torch-state"});
  sub->add_flag("--live", command->live,
                 "Show the live table: replay registrations in order as PyTorch updates it and "
                 "mark stale rows (live != recomputed); torch-table then prints the live rows");
  sub->add_flag("--all-keys", command->all_keys, "Also list missing rows (keys without a kernel)");
  sub->callback([command, &exit_code] { exit_code = command->run(); });
}

}  // namespace dispatchctl::cli
