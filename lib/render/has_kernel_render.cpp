#include "render/has_kernel_render.h"

#include "render/json_document.h"
#include "render/show_render.h"

namespace dispatchctl {

std::string_view answer_word(HasKernelAnswer answer) {
  switch (answer) {
    case HasKernelAnswer::Yes: return "yes";
    case HasKernelAnswer::No: return "no";
    case HasKernelAnswer::Unknown: return "unknown";
  }
  return "unknown";
}

namespace {

std::string_view question_word(HasKernelQuestion question) {
  switch (question) {
    case HasKernelQuestion::Registered: return "registered";
    case HasKernelQuestion::Computed: return "computed";
    case HasKernelQuestion::Works: return "works";
  }
  return "registered";
}

std::string registered_text(const Catalogue& cat, const HasKernelResult& r) {
  std::string text = r.answer == HasKernelAnswer::Yes
                         ? r.op->name + " has a kernel registered at " + cat.name(r.key)
                         : r.op->name + " has no kernel registered at exactly " + cat.name(r.key) +
                               " (--computed asks whether its row holds a kernel)";
  if (r.registered && is_python_kernel(*r.registered))
    text += " (a python kernel: " +
            (python_file_unrecorded(r.registered->debug) ? short_debug(r.registered->debug)
                                                        : std::string(r.registered->debug)) +
            ")";
  return text;
}

std::string row_text(const Catalogue& cat, const HasKernelResult& r) {
  const Row& row = r.row;
  const std::string row_words = "the " + cat.name(r.row_key) + " row of " + r.op->name;
  std::string text;
  if (r.question == HasKernelQuestion::Computed) {
    text = row_words + (row.valid() ? " holds a kernel [" + std::string(tag_text(row.rule)) + "]" : " is missing");
  } else if (r.needs.op) {
    // What the row's kernel calls decides (table/outcome.h classify_followed).
    switch (r.needs.via) {
      case DependencyVia::GeneratedCall:
        text = row_words + " runs torchgen's generated composite via " + cat.name(row.provider) + ", which calls ";
        break;
      case DependencyVia::RecordedCall:
        text = row_words + " runs a hand-written composite via " + cat.name(row.provider) +
               ", which calls (recorded from the release) ";
        break;
      case DependencyVia::Below:
        text = row_words + " runs its autograd kernel, which passes the call on to ";
        break;
    }
    text += std::string(r.needs.op->name) + "; its " + cat.name(r.needs.row.key) + " row: " +
            outcome_does(cat, r.needs.row, r.needs.outcome);
    if (r.raises_at && !r.error.empty()) text += "; a call raises at " + std::string(r.raises_at->name) + ": " + r.error;
  } else if (r.outcome == Outcome::Raises && !r.error.empty()) {
    text = row_words + " runs a kernel that always raises (recorded from the release): " + r.error;
  } else {
    switch (r.verdict) {
      case RowVerdict::Works:
        text = row_words + " works: " + outcome_does(cat, row, r.outcome);
        if (r.assumed) text += " (assumed: what this hand-written composite calls was not recorded)";
        break;
      case RowVerdict::Fails:
        text = row_words + (row.valid() ? " holds a kernel that raises when called: " : " is missing: ") +
               outcome_does(cat, row, r.outcome);
        break;
      case RowVerdict::ForwardOnly:
        text = row_words + " does not work with autograd: " + outcome_does(cat, row, r.outcome);
        break;
      case RowVerdict::Unknown:
        text = row_words + " is a python kernel (" + short_debug(row.debug()) +
               "): whether it works is unknown; Python meta kernels raise for data-dependent operators";
        break;
    }
  }
  if (r.row_key != r.key)
    text += " (" + cat.name(r.key) + " answers for its " + cat.name(r.row_key) + " instance, as in PyTorch)";
  const bool computed = r.question == HasKernelQuestion::Computed;
  if (computed && r.verdict == RowVerdict::Fails && row.valid()) text += "; note: that kernel raises when called";
  else if (computed && r.verdict == RowVerdict::Unknown) text += "; note: a python kernel, it may raise (--works)";
  else if (computed && r.verdict == RowVerdict::ForwardOnly)
    text += "; note: autograd not implemented, backward through it fails (--works)";
  else if (row.valid() && row.fallthrough()) text += "; note: a fallthrough, a call skips the key";
  return text;
}

}  // namespace

std::string has_kernel_text(const Catalogue& cat, const HasKernelResult& r) {
  // The build note is not part of the answer: the CLI prints it on stderr,
  // JSON has it as build_note.
  return r.question == HasKernelQuestion::Registered ? registered_text(cat, r) : row_text(cat, r);
}

std::string has_kernel_backward_text(const HasKernelResult& r) {
  if (r.backward) return std::string(answer_word(r.backward->answer)) + ", " + r.backward->text;
  if (r.answer_includes_backward)
    return "unknown, the registry has no recorded backward for this operator at this key (or it is not "
           "differentiable)";
  return "";
}

nlohmann::ordered_json has_kernel_json(const Registry& registry, const HasKernelResult& r) {
  const Catalogue& cat = registry.catalogue();
  nlohmann::ordered_json doc = json_document();
  doc["torch_version"] = registry.torch_version();
  doc["operator"] = r.op->name;
  doc["key"] = cat.name(r.key);
  doc["question"] = question_word(r.question);
  if (r.question == HasKernelQuestion::Registered) {
    if (r.registered && is_python_kernel(*r.registered)) doc["language"] = "python";
  } else {
    doc["row_key"] = cat.name(r.row_key);
    doc["tag"] = tag_text(r.row.rule);
    if (r.row.valid()) {
      doc["kernel"] = r.row.debug();
      doc["language"] = language_id(row_language(r.row));
    }
    doc["outcome"] = outcome_id(r.outcome);
    if (r.needs.op) {
      doc["needs"] = r.needs.op->name;
      doc["needs_key"] = cat.name(r.needs.row.key);
      doc["needs_via"] = r.needs.via == DependencyVia::GeneratedCall  ? "generated_call"
                         : r.needs.via == DependencyVia::RecordedCall ? "recorded_call"
                                                                      : "below";
      doc["needs_outcome"] = outcome_id(r.needs.outcome);
    }
    if (r.assumed) doc["assumed"] = true;
    if (r.raises_at) {
      doc["raises_at"] = r.raises_at->name;
      doc["raises_at_key"] = cat.name(r.raises_at_key);
    }
    if (!r.error.empty()) {
      doc["error_type"] = r.error_type;
      doc["error"] = r.error;
    }
    doc["verdict"] = verdict_word(r.verdict);
  }
  if (!r.build_note.empty()) doc["build_note"] = r.build_note;
  if (!r.registry_note.empty()) doc["registry_note"] = r.registry_note;
  if (r.backward) {
    nlohmann::ordered_json b;
    b["answer"] = answer_word(r.backward->answer);
    b["assumed"] = r.backward->assumed;
    if (r.backward->raises_at) b["raises_at"] = r.backward->raises_at->name;
    if (!r.backward->error.empty()) {
      b["error_type"] = r.backward->error_type;
      b["error"] = r.backward->error;
    }
    if (!r.backward->error_caveat.empty()) b["error_caveat"] = r.backward->error_caveat;
    b["text"] = r.backward->text;
    doc["backward"] = std::move(b);
  }
  if (r.answer_includes_backward) doc["answer_includes_backward"] = true;
  doc["answer"] = answer_word(r.answer);
  doc["text"] = has_kernel_text(cat, r);
  return doc;
}

}  // namespace dispatchctl
