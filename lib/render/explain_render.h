// Renderers for `explain OP --key K`: text for people, stable JSON.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "explain/explain.h"

namespace dispatchctl {

struct ExplainTextOptions {
  bool color = false;
  int width = 80;
};

void append_explain_text(std::string& out, const Registry& registry, const OperatorKeyExplanation& e,
                         const ExplainTextOptions& options);
// One operator's explanation; the CLI wraps them as
// {"torch_version", "explanations": [...]}.
// The document `explain OP --format json` prints: the release and one
// explain_json per operator.
// build_note: a CUDA key on a CPU-only build; registry_note: a predicted registry.
std::string explain_json_document_text(const Registry& registry,
                                       const std::vector<OperatorKeyExplanation>& explanations,
                                       const std::string& build_note = "", const std::string& registry_note = "");
nlohmann::ordered_json explain_json(const Registry& registry, const OperatorKeyExplanation& e);

// "n/a", "no registration", "blocked", "chosen", "shadowed", "not reached".
std::string_view status_text(RuleOutcome::Status status);
// "not_applicable", "no_registration", … for JSON.
std::string_view status_id(RuleOutcome::Status status);

}  // namespace dispatchctl
