// The inputs of a simulated call (docs/dispatch-semantics.md §5.1, §5.3): the
// key sets of its tensor arguments and the thread-local include/exclude
// sets, built from presets and options with the release's data.
#pragma once

#include <string>
#include <vector>

#include "keys/tensor_presets.h"
#include "keys/catalogue.h"

namespace dispatchctl {

// What the user asked for, as written on the command line.
struct CallOptions {
  std::vector<std::string> tensors;   // presets: cpu, meta, cpu:conj:requires_grad …
  std::vector<std::string> keysets;   // K1,K2,… (one argument each)
  // Which of the two each tensor argument is, in argument order (the command
  // line's order of --tensor and --keyset); empty: the presets, then the key sets.
  enum class Form : char { Preset, Keyset };
  std::vector<Form> order;
  std::vector<std::string> autocast;  // devices: cpu, cuda …
  bool inference_mode = false;
  bool no_grad = false;
  std::vector<std::string> tls_include, tls_exclude;
};

struct TensorArg {
  std::string spec;  // "cpu:conj", or "--keyset CPU,AutogradCPU"
  KeySet keys;
  // The preset's key set or a modifier's key was inferred, not observed on the
  // release (the profile says so: a CPU-only build cannot make a CUDA tensor).
  bool inferred = false;
  // Requires grad (the `requires_grad` modifier: a non-leaf, which the
  // generated in-place kernels accept; `leaf`: a leaf that requires grad,
  // which they refuse). Neither changes the key set.
  bool requires_grad = false;
  bool leaf = false;
  // Made under torch.inference_mode() (the `inference` modifier): it has no
  // version counter, so an in-place update outside inference mode raises.
  bool inference = false;
};

struct CallSetup {
  std::vector<TensorArg> arguments;  // in argument order
  KeySet tls_included, tls_excluded;
  std::vector<std::string> tls_steps;  // how the TLS came about, one line each
  bool grad_mode = true;               // --no-grad: autograd kernels record no history
  bool inference_mode = false;         // --inference-mode
};

// Throws InputError (with did-you-mean) for unknown presets, modifiers, keys, devices.
CallSetup make_call_setup(const Catalogue& cat, const CallOptions& options);

}  // namespace dispatchctl
