// PyTorch's own text formats, byte for byte (docs/dispatch-semantics.md §4):
// dumpComputedTable (_dispatch_dump_table) and dumpState (_dispatch_dump).
#pragma once

#include <string>
#include <vector>

#include "util/chunked_output.h"
#include "table/table.h"

namespace dispatchctl {

// Appends `KEY: [fallthrough ]DEBUG [TAG]\n` for every valid row.
void append_torch_table(std::string& out, const Catalogue& cat, const std::vector<Row>& rows);
// The same rows into a fixed buffer handed on as it fills (the whole-registry job).
void append_torch_table(ChunkedOutput& out, const Catalogue& cat, const std::vector<Row>& rows);
void append_torch_state(std::string& out, const Catalogue& cat, const Operator& op);

}  // namespace dispatchctl
