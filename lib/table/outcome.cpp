#include "table/outcome.h"

#include "table/functionality_kinds.h"
#include "table/outcome_kernel.h"

#include "table/kernel_kind.h"
#include "util/typed_name.h"

namespace dispatchctl {

namespace {

struct OutcomeInfo {
  std::string_view id, label;
  RowVerdict verdict;
};
constexpr OutcomeInfo k_info[] = {
    {"direct", "C++ kernel (at this key)", RowVerdict::Works},
    {"composite", "composite / alias kernel", RowVerdict::Works},
    {"fallback", "backend fallback", RowVerdict::Works},
    {"fallthrough", "fallthrough (the key is skipped)", RowVerdict::Works},
    {"python", "Python kernel (unknown)", RowVerdict::Unknown},
    {"composite_unknown", "composite; what it calls is a Python kernel (unknown)", RowVerdict::Unknown},
    {"autograd_not_implemented", "autograd not implemented (forward only)", RowVerdict::ForwardOnly},
    {"raises", "raises when called", RowVerdict::Fails},
    {"ambiguous", "ambiguous (raises)", RowVerdict::Fails},
    {"composite_fails", "composite; what it calls fails (raises)", RowVerdict::Fails},
    {"missing", "missing (raises)", RowVerdict::Fails},
};
// One entry per Outcome, in the enum's order (kept in step by hand).
static_assert(std::size(k_info) == k_outcome_count);

const OutcomeInfo& info(Outcome o) { return k_info[static_cast<int>(o)]; }


// PyTorch's own Meta fallback (aten/src/ATen/core/MetaFallbackKernel.cpp).
bool is_release_meta_fallback(const Fallback& fallback) {
  return fallback.source.generator == KernelGenerator::MetaFallback;
}

}  // namespace

bool is_autograd_row(const Catalogue& cat, Key k) {
  if (k == k_undefined || cat.is_alias(k)) return false;
  const auto& wk = cat.well_known();
  const Key f = cat.functionality_of(k);
  return f == wk.autograd_functionality || f == wk.autograd_other || f == wk.autograd_nested_tensor;
}

std::string_view outcome_id(Outcome o) { return info(o).id; }
std::string_view outcome_label(Outcome o) { return info(o).label; }
RowVerdict outcome_verdict(Outcome o) { return info(o).verdict; }

std::string_view verdict_word(RowVerdict verdict) {
  switch (verdict) {
    case RowVerdict::Works: return "works";
    case RowVerdict::Unknown: return "unknown";
    case RowVerdict::ForwardOnly: return "forward_only";
    case RowVerdict::Fails: return "fails";
  }
  return "";
}

std::size_t working_count(const OutcomeCounts& counts) {
  std::size_t n = 0;
  for (Outcome o : k_all_outcomes)
    if (outcome_works(o)) n += counts[static_cast<int>(o)];
  return n;
}

std::optional<Outcome> find_outcome(std::string_view name) {
  const std::string wanted = id_form(name);
  for (Outcome o : k_all_outcomes)
    if (id_form(outcome_id(o)) == wanted || id_form(outcome_label(o)) == wanted) return o;
  if (wanted == "cpp_kernel" || wanted == "cpp" || wanted == "kernel" || name == "C++ kernel" || name == "c++ kernel")
    return Outcome::Direct;
  if (wanted == "python_kernel") return Outcome::Python;
  return std::nullopt;
}

Outcome outcome_detail::classify_kernel(const Catalogue& cat, const Row& row) {
  if (!row.valid()) return Outcome::Missing;
  if (row.rule == Rule::AmbiguousAutogradOther) return Outcome::Ambiguous;
  const ReleaseSpec& spec = cat.spec();
  const bool fallback = row.rule == Rule::BackendFallback;
  // Undefined has no bit to mask, so a fallthrough there is called and asserts (§9.1).
  if (row.key == k_undefined && row.kernel && row.kernel->fallthrough) return Outcome::Raises;
  if (row.fallthrough()) return Outcome::Fallthrough;
  // The profile says whether the release's own Meta fallback raises; a Meta
  // fallback someone else registers in its place (a manifest, a fix) is theirs.
  if (fallback && row.key == cat.well_known().meta && !spec.meta_fallback_error.empty() &&
      is_release_meta_fallback(*row.fallback))
    return Outcome::Raises;
  if (row_language(row) == KernelLanguage::Python) return Outcome::Python;
  if (fallback && row.key != k_undefined) {
    const FunctionalityKindRow* kind = find_kind(cat.name(cat.functionality_of(row.key)));
    if (kind && kind->fallback_raises()) return Outcome::Raises;
  }
  if (is_autograd_row(cat, row.key)) {
    if (fallback && !spec.autograd_fallback_backward_warning.empty()) return Outcome::AutogradNotImplemented;
    if (row.kernel && !fallback && is_autograd_not_implemented(*row.kernel))
      return Outcome::AutogradNotImplemented;
  }
  if (fallback) return Outcome::Fallback;
  return row.rule == Rule::Direct ? Outcome::Direct : Outcome::Composite;
}

std::string dependency_text(const Catalogue& cat, const Dependency& needs) {
  if (!needs.op) return "";
  std::string out = needs.via == DependencyVia::Below ? "passes the call on; needs " : "composite; needs ";
  out += needs.op->name;
  if (needs.via == DependencyVia::Below) out += " at " + cat.name(needs.row.key);
  out += " (";
  out += outcome_id(needs.outcome);  // at the row's own key: the page's cell and explain say which
  out += ")";
  return out;
}

bool row_known_to_raise(const Catalogue& cat, const Row& row) {
  if (!row.valid()) return false;
  const Outcome o = outcome_detail::classify_kernel(cat, row);
  return o == Outcome::Raises || o == Outcome::Ambiguous;
}

bool outcome_does_names_provider(Outcome o) {
  return o == Outcome::Composite || o == Outcome::CompositeUnknown || o == Outcome::CompositeFails;
}

std::string fallback_does(const Catalogue& cat, Key k, const Fallback& fallback) {
  Row probe;
  probe.key = k;
  probe.rule = Rule::BackendFallback;
  probe.fallback = &fallback;
  const Outcome o = outcome_detail::classify_kernel(cat, probe);
  return o == Outcome::Fallback ? "" : outcome_does(cat, probe, o);
}

std::string outcome_does(const Catalogue& cat, const Row& row, Outcome o) {
  const std::string key = row.key == k_undefined ? "Undefined" : cat.name(row.key);
  switch (o) {
    case Outcome::Missing: return "no kernel: a call raises NotImplementedError (Could not run …)";
    case Outcome::Ambiguous:
      return "the ambiguous AutogradOther kernel: a call raises an INTERNAL ASSERT";
    case Outcome::Raises:
      if (row.rule == Rule::BackendFallback) {
        const FunctionalityKindRow* kind = find_kind(cat.name(cat.functionality_of(row.key)));
        if (kind && kind->fallback_raises()) return "the " + key + " backend fallback " + std::string(kind->fallback_does);
        return "the " + key + " backend fallback raises NotImplementedError";
      }
      return "a fallthrough kernel on Undefined is called (no bit masks it) and asserts";
    case Outcome::Fallthrough: return "a fallthrough: a call skips " + key + " and dispatch goes on below it";
    case Outcome::Python: return "a kernel registered from Python: whether a call returns is up to its code";
    case Outcome::AutogradNotImplemented:
      return row.rule == Rule::BackendFallback
                 ? "the autograd-not-implemented backend fallback: the forward runs, backward warns and "
                   "the gradients are missing"
                 : "torchgen's autogradNotImplementedFallback(): the forward runs; backward through it raises";
    case Outcome::Fallback: {
      const std::string functionality = cat.name(cat.functionality_of(row.key));
      if (const FunctionalityKindRow* kind = find_kind(functionality); kind && !kind->fallback_does.empty())
        return "the " + key + " backend fallback " + std::string(kind->fallback_does);
      return "the " + key + " backend fallback runs (one kernel for every operator)";
    }
    case Outcome::CompositeUnknown:
    case Outcome::CompositeFails:
      return std::string(tag_text(row.rule)) + " via " + cat.name(row.provider) +
             ": what its kernel calls decides (" +
             (o == Outcome::CompositeFails ? "it fails there" : "unknown there") + ")";
    case Outcome::Composite:
      if (row.rule == Rule::CompositeImplicitAutograd || row.rule == Rule::CompositeImplicitAutogradNestedTensor)
        return std::string(tag_text(row.rule)) + " via " + cat.name(row.provider) +
               ": decomposes (what it calls, where recorded, works here)";
      return std::string(tag_text(row.rule)) + " via " + cat.name(row.provider) +
             ": a C++ kernel (what it calls, where recorded, works here)";
    case Outcome::Direct: return "a C++ kernel registered at " + key + " computes the result";
  }
  return "";
}

}  // namespace dispatchctl
