#include "check/finding.h"
#include "check/lint.h"

namespace dispatchctl {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::optional<Severity> parse_severity(std::string_view name) {
  if (name == "note") return Severity::Note;
  if (name == "warning") return Severity::Warning;
  if (name == "error") return Severity::Error;
  return std::nullopt;
}

const std::vector<RuleInfo>& check_rules() {
  static const std::vector<RuleInfo> rules = {
      {"load-error", Severity::Error, "A manifest cannot be read or does not follow the manifest format",
       "The file is missing, is not JSON, or does not follow the manifest format (unknown field, unknown key, "
       "unsupported torch_version). Loading of that file stops at the error; fix it as the message says."},
      {"torchgen-refusal", Severity::Error, "torchgen refuses the YAML (native_functions, tags, derivatives)",
       "Real torchgen stops the PyTorch build on this entry (an assert of torchgen/model.py, gen.py, "
       "native_function_generation.py or tools/autograd); the message has torchgen's reason and the fix. "
       "Every other command refuses the same YAML with the same line. See the README's table of refusals."},
      {"duplicate-definition", Severity::Error, "An operator's schema is defined twice",
       "PyTorch refuses a second def() of the same name and overload (\"Tried to register an operator "
       "... multiple times\"). Remove one \"schema\" or rename the overload."},
      {"duplicate-fallback", Severity::Error, "A second backend fallback for one dispatch key",
       "PyTorch refuses it (\"Tried to register multiple backend fallbacks for the same dispatch key\"). "
       "Keep one fallback per key."},
      {"signature-mismatch", Severity::Error, "A kernel's inferred signature disagrees with the schema",
       "PyTorch refuses the registration. Fix the kernel's \"signature\" or "
       "the operator's \"schema\"."},
      {"dangling-impl", Severity::Warning, "Kernels for an operator that no manifest defines",
       "An impl without a def: PyTorch keeps it (dumpState prints 'schema: (none)') but the operator "
       "cannot be called. Add the \"schema\" or load the manifest that defines it."},
      {"kernel-override", Severity::Warning, "A kernel overrides an earlier one on the same key",
       "PyTorch warns \"Overriding a previously registered kernel for the same operator and the same "
       "dispatch key\". 'previous kernel' in its text is the first registration that fixed the "
       "operator's C++ signature, not necessarily the overridden kernel. 2.x prints the "
       "warning once per process and never for Meta or MTIA; 1.13 prints every one."},
      {"autogradother-ambiguity", Severity::Error, "AutogradOther is ambiguous: a call there raises",
       "CompositeImplicitAutograd together with a kernel on an AutogradOther backend (FPGA, Vulkan, "
       "Metal, MkldnnCPU, Quantized*, Sparse*, SparseCsr* …) makes the AutogradOther row "
       "'ambiguous autogradother'. Register an Autograd kernel for those backends, "
       "or drop one of the two."},
      {"cia-with-backend-kernel", Severity::Warning,
       "CompositeImplicitAutograd together with backend or CompositeExplicitAutograd kernels",
       "torchgen accepts it (PyTorch's own linear, matmul, chunk, narrow do it): a backend kernel "
       "keeps the math kernel away from its key and its autograd key, a CompositeExplicitAutograd "
       "kernel from every Autograd* key. The finding names the keys that lose the math kernel and "
       "says whether gradients survive there (they do when the operator has its own Autograd "
       "kernel, e.g. a derivatives.yaml formula; dropout-like operators without one lose them). "
       "Register an Autograd kernel or drop the CIA kernel if that is not what you want."},
      {"no-autograd-kernel", Severity::Warning, "Backend kernels without an autograd kernel",
       "An operator with kernels for CPU, CUDA … (or CompositeExplicitAutograd) and nothing at "
       "Autograd, Autograd<backend> or CompositeImplicitAutograd: calls reach the autograd backend "
       "fallback. On 2.x that is the autograd-not-implemented fallback (the forward runs, backward "
       "warns and the gradients are missing); on 1.13 a fallthrough (outputs do not require grad). "
       "Register a kernel at Autograd (or CompositeImplicitAutograd), or a fallthrough at Autograd "
       "if the operator is not differentiable."},
      {"math-kernel-lost", Severity::Warning, "A change takes the math kernel away from keys (check --base)",
       "The operator had a CompositeImplicitAutograd kernel before the change and has none after it, so "
       "keys it used to fill (CPU included, for a YAML entry that gains a dispatch: table such as a lone "
       "SparseCPU entry) now have no kernel and calls there raise. The message says whether gradients "
       "survive: an operator with a derivatives.yaml formula keeps them, a dropout-like one without a "
       "formula loses them (backward-not-implemented). List CompositeImplicitAutograd in the "
       "dispatch table or give those keys kernels."},
      {"operator-removed", Severity::Error, "A change removes an operator (check --base)",
       "An operator the base defines is not defined after the change: every call raises, and so does every "
       "caller (composites, derivatives.yaml formulas, Python bindings, other libraries). PyTorch deprecates "
       "an operator before removing it. Keep the entry."},
      {"dense-kernel-lost", Severity::Error, "A change leaves CPU or CUDA without a kernel (check --base)",
       "The operator had a kernel for CPU or CUDA (its own, or a composite's) before the change and has none "
       "after it: calls there raise. Give those keys their kernels back."},
      {"backward-not-implemented", Severity::Warning,
       "A change leaves an operator's backward unimplemented (check --base)",
       "Backward worked before the change (a generated VariableType kernel, or the decomposition of a "
       "CompositeImplicitAutograd kernel) and the operator's Autograd kernel is "
       "PyTorch's boxed autograd-not-implemented kernel after it (its derivatives.yaml formula is gone, "
       "or it moved from CompositeImplicitAutograd to explicit kernels without one), or a new operator "
       "with a differentiable output comes without a formula: the forward runs, "
       "backward raises \"derivative for OP is not implemented\". Add the formula."},
      {"forward-not-implemented", Severity::Warning,
       "A change leaves an operator's forward-mode AD unimplemented (check --base)",
       "The operator's derivatives.yaml entry had a forward formula (`result: …`) before the change and has none "
       "after it: torch.func.jvp and forward-mode AD raise \"Trying to use forward AD with OP that does not support "
       "it\". Keep the forward formula."},
      {"required-key", Severity::Error, "A required key is left without a kernel",
       "With --require KEY (or \"require\" in dispatchctl.json), every operator in scope must get a "
       "kernel from its own registrations at KEY; a backend fallback or nothing does not count. An "
       "alias key stands for its runtime keys the operator has a backend kernel for (--require "
       "Autograd: AutogradCPU for an operator with a CPU kernel, …)."},
      {"stale-live-row", Severity::Warning, "Registration order leaves live dispatch-table rows stale",
       "PyTorch updates its live table incrementally; some orders (CIA before CEA, CIA before a Sparse or "
       "building-block kernel) leave rows that calls use but that _dispatch_dump_table no longer shows. Register "
       "in the other order or add the missing kernel. Operators read from a PyTorch dump are skipped: a dump does "
       "not record registration order."},
      {"foreign-backend-key", Severity::Note, "A kernel at another backend's key than the manifest's own",
       "A backend's manifest registers at its own backend's keys (an npu build: PrivateUse1, "
       "AutogradPrivateUse1); a kernel at another backend's key (XPU) is one its build cannot have: a copy of "
       "another backend's registration, or two builds in one manifest. Register it at the backend's own key or "
       "drop it."},
  };
  return rules;
}

const RuleInfo* find_rule(std::string_view id) {
  for (const auto& r : check_rules())
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace dispatchctl
