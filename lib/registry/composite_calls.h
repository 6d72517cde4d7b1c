// What a hand-written composite kernel calls through the dispatcher, recorded
// by running the release (docs/composite-calls.md, the contract): per kernel
// its immediate callees and whether it always raises (a stub), per
// differentiable operator what its backward calls, and what `.backward()`
// calls to make the gradient seed. Absent means unknown, never "calls nothing".
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "keys/catalogue.h"
#include "registry/string_pool.h"

namespace dispatchctl {

// "always": called on every sample the kernel ran on; "some_inputs": on some.
enum class CallWhen : std::uint8_t { Always, SomeInputs };
std::string_view call_when_id(CallWhen when);  // "always", "some_inputs"

struct RecordedCall {
  Text op;  // "aten::div.out"
  CallWhen when = CallWhen::Always;
};

// How the recording saw one backward node's calls (docs/composite-calls.md,
// `backward_gradients` and an entry's `mode_dependent`): each flag a way the
// recorded call differs from the engine's, so some calls are not certain.
enum BackwardNodeFlag : std::uint8_t {
  // Given every output's gradient: the engine gives only the used output's
  // (undefined for the rest, which some formulas replace by zeros).
  k_backward_every_output_gradient = 1,
  // Given a contiguous gradient: after out.sum() the engine's is expanded
  // (stride 0), and a formula whose path depends on strides calls others.
  k_backward_contiguous_gradient = 2,
  // Seen under a TorchDispatchMode, and without it the node calls other
  // operators (at::isTensorSubclassLike is true under a mode).
  k_backward_mode_dependent = 4,
};
// The flags of a recording without `backward_gradients` (and of a manifest's
// own entries): every output's gradient, contiguous.
inline constexpr std::uint8_t k_backward_flags_unstated =
    k_backward_every_output_gradient | k_backward_contiguous_gradient;

// One kernel's recorded calls (Registry::composite_calls).
struct CompositeCalls {
  std::vector<RecordedCall> calls;  // immediate callees, in order of first call
  OptionalText raises;              // the kernel raised this (PyTorch's message) on its samples
  OptionalText raises_type;         // its Python exception type ("NotImplementedError"); absent: not recorded
  CallWhen raises_when = CallWhen::Always;
  std::uint32_t samples = 0;
};

// Recorded calls a loader decodes only when a command first asks for them (a
// built-in pack's sections: most commands never do, and one that follows
// composites at one kind needs that kind's only). `decode` hands each kernel's
// calls of the section of `kind` (nullopt: the main recording) to `add`, by the
// kernel's registration sequence; their strings outlive the registry.
class DeferredCompositeCalls {
 public:
  virtual ~DeferredCompositeCalls() = default;
  using Add = std::function<void(std::uint32_t sequence, CompositeCalls calls)>;
  virtual void decode(std::optional<Key> kind, const Add& add) const = 0;
};

}  // namespace dispatchctl

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace dispatchctl {

class Registry;

// Records a composite-calls object (docs/composite-calls.md; a manifest's
// top-level "composite_calls") on the kernels `registry` holds: each entry's
// operator's newest kernel at its key. Entries for operators or kernels the
// registry does not hold (a filtered load) are skipped. InputError
// "SOURCE: POINTER: what; fix" on anything the format does not allow.
// Returns the number of kernels recorded.
std::size_t apply_composite_calls(Registry& registry, const nlohmann::ordered_json& object, const std::string& source,
                                  const std::string& pointer);
std::size_t apply_composite_calls_text(Registry& registry, std::string_view text, const std::string& source);
// The registry's recorded calls in the same format (what a manifest writer embeds).
nlohmann::ordered_json composite_calls_json(const Registry& registry);

}  // namespace dispatchctl
