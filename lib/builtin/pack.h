// The built-in registries' binary form ("pack"): PyTorch's dump of a release,
// parsed at build time by the text loader (registry/torch_dump.h) and written
// by lib/builtin/gen/pack_tool.cpp, so start-up reads fixed-size records
// instead of parsing 5 MB of text, and `show OP` touches only OP's records.
// The release's backend fallbacks (fallbacks.json) are packed too: start-up
// parses no JSON.
//
// Layout (little-endian, every field 4-byte aligned; offsets from the start):
//   PackHeader
//   u32 key_names[key_count]          string ids of the key names kernels use
//   PackedOperator operators[operator_count]   sorted by name, as the dump is
//   PackedKernel kernels[kernel_count]         per operator, in registration order
//   PackedFallback fallbacks[fallback_count]   in registration order
//   PackedGeneratedCall calls[generated_call_count]   by kernel index (Registry::generated_call)
//   PackedOutGradCheck checks[out_grad_check_count]   by kernel index (Registry::out_grad_check)
//   PackedCompositeSection sections[composite_section_count]   main recording first, then kinds in key order
//   PackedCompositeKernel composites[composite_kernel_count]   per section, by kernel index (Registry::composite_calls,
//                                                              kind_composite_calls)
//   PackedOperatorCallees callees[callee_operator_count]       by operator index: what its recorded calls name
//   u32 callee_names[callee_name_count]                        string ids, per operator
//   PackedBackward backward[backward_count]    per operator; op = k_no_string: the backward seed
//   PackedRecordedCall recorded[recorded_call_count]   the calls both of these list
//   u32 string_offsets[string_count + 1]       string i = chars[offsets[i], offsets[i+1])
//   char chars[]
// The recorded calls are decoded a section at a time when a command first asks
// for them (Registry::defer_composite_calls): a load replays no section, and a
// filtered load finds the operators they call in `callees`, not by decoding.
// Kernels refer to keys by name, so a pack stays valid when a catalogue's enum
// values move. The reader refuses any inconsistency with InputError.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "registry/registry.h"
#include "registry/torch_dump.h"

namespace dispatchctl {

constexpr char k_pack_magic[8] = {'D', 'C', 'T', 'L', 'P', 'K', '0', '9'};
constexpr std::uint32_t k_no_string = 0xFFFFFFFFu;

struct PackHeader {
  char magic[8];
  std::uint32_t key_count, operator_count, kernel_count, fallback_count, string_count, chars_size;
  std::uint32_t generated_call_count;
  std::uint32_t out_grad_check_count;
  std::uint32_t composite_kernel_count, backward_count, recorded_call_count;
  std::uint32_t composite_calls_backend;  // string id: the backend the calls were recorded on
  std::uint32_t composite_section_count, callee_operator_count, callee_name_count;
};

struct PackedOperator {
  std::uint32_t name, schema, schema_debug;  // string ids; schema = k_no_string: none
  std::uint32_t schema_line;                 // line of "schema:" in the dump
  std::uint32_t first_kernel, kernel_count;
  std::uint8_t alias_analysis;  // index into k_alias_analysis_kinds
  std::uint8_t alias_analysis_explicit;
  std::uint16_t reserved;
};

struct PackedKernel {
  std::uint32_t debug, signature;  // signature = k_no_string: none
  std::uint32_t line;
  std::uint16_t key;    // index into key_names
  std::uint8_t flags;   // k_kernel_*
  std::uint8_t reserved;
};

constexpr std::uint8_t k_kernel_fallthrough = 1, k_kernel_boxed = 2, k_kernel_unboxed = 4;

struct PackedFallback {
  std::uint32_t debug;  // without the "fallthrough " prefix fallbacks.json gives it
  std::uint16_t key;    // index into key_names
  std::uint8_t flags;   // k_kernel_fallthrough
  std::uint8_t reserved;
};

// What a generated composite kernel calls (registry.h GeneratedCall).
struct PackedGeneratedCall {
  std::uint32_t kernel;  // index into kernels
  std::uint32_t callee;  // string id of the operator it calls
  std::uint8_t kind;     // GeneratedCallKind
  std::uint8_t reserved[3];
};

// What a generated autograd kernel of an out= operator checks (registry.h OutGradCheck).
struct PackedOutGradCheck {
  std::uint32_t kernel;   // index into kernels
  std::uint32_t inputs;   // string id: comma-separated argument names
  std::uint32_t outputs;  // string id
};

// What a hand-written composite kernel calls (registry/composite_calls.h).
struct PackedCompositeKernel {
  std::uint32_t kernel;                     // index into kernels
  std::uint32_t first_call, call_count;     // into recorded
  std::uint32_t raises;                     // string id of the message; k_no_string: none
  std::uint32_t raises_type;                // string id of its exception type; k_no_string: none
  std::uint32_t samples;
  std::uint8_t raises_when;                 // CallWhen
  std::uint8_t reserved[3];
};

// One recording's kernels: composites[first, first + count), sorted by kernel.
struct PackedCompositeSection {
  std::uint32_t kind;  // string id of the kind's key (SparseCPU); k_no_string: the main recording
  std::uint32_t first, count;
};

// The operators an operator's recorded calls name, every section's (a filtered
// load loads them as it loads a generated composite's callee).
struct PackedOperatorCallees {
  std::uint32_t op;  // index into operators
  std::uint32_t first, count;  // into callee_names
};

// What an operator's backward calls (op = k_no_string: the gradient seed).
struct PackedBackward {
  std::uint32_t op;  // string id
  std::uint32_t first_call, call_count;
  std::uint8_t flags;  // BackwardNodeFlag: how the recording saw the node
  std::uint8_t reserved[3];
};

struct PackedRecordedCall {
  std::uint32_t op;    // string id of the operator called
  std::uint8_t when;   // CallWhen
  std::uint8_t reserved[3];
};

// The pack of a registry (what the build-time tool writes). Origins keep only
// their line: the reader names the source as it was asked for (builtin:2.14).
std::string write_pack(const Registry& registry);

// Registers the pack's backend fallbacks as import_torch_fallbacks would
// (origins "SOURCE fallbacks (/KEY)"), then its operators (those `only`
// accepts) as import_torch_state would from the dump it was made from: same
// calls, same order, same origins (source:line), with what their generated
// composites call; an operator such a kernel calls is loaded too, filter or not
// (what a row of the operator does depends on it). An OperatorPrefixes filter
// has only the name ranges of its prefixes looked at (names are sorted): the
// cost of `show OP` does not grow with the pack's operators.
// InputError "source: pack: what" on a damaged pack. The
// registry keeps views into `pack` (the built-in ones live as long as the
// process): `pack` must outlive it.
void load_pack(Registry& registry, std::string_view pack, const std::string& source,
               const OperatorFilter& only = {});
// Every operator name, sorted (for shell completion: nothing is registered).
std::vector<std::string_view> pack_operator_names(std::string_view pack, const std::string& source);

}  // namespace dispatchctl
