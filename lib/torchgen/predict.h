// What each torchgen generator registers for a build (docs/torchgen-rules.md §3):
// Register<Key>, RegisterBackendSelect, RegisterFunctionalization,
// VariableType, ADInplaceOrViewType, TraceType — every registration with the
// YAML file:line and the rule that produced it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "registry/registry.h"
#include "torchgen/grouping.h"
#include "torchgen/model.h"
#include "torchgen/release_rules.h"

namespace dispatchctl::torchgen {

struct PredictedRegistration {
  std::string op;         // "aten::add.Tensor"
  std::string key;        // as the registry names it: "CPU", "Autograd", "Tracer"
  std::string rule;       // the rule of docs/torchgen-rules.md: "dispatch-entry", "structured-meta" …
  std::string generator;  // the generated file, e.g. "RegisterCPU.cpp", "VariableType.cpp"
  Location loc;           // native_functions.yaml (or derivatives.yaml) entry
  // VariableType's kernel for an operator without a derivatives.yaml formula:
  // PyTorch registers the boxed autograd-not-implemented fallback there
  // (`:: (none) [ boxed ]`); backward raises "derivative for … is not implemented".
  bool not_implemented = false;
  // VariableType's kernel from a derivatives.yaml formula (`loc` is the formula's entry).
  bool has_formula = false;
  // A generated composite's call through the dispatcher (registry.h
  // GeneratedCall): the operator it calls ("" = none fixed by torchgen).
  std::string calls = {};
  GeneratedCallKind call_kind = GeneratedCallKind::StructuredOut;
};

struct PredictedOperator {
  std::string name;    // "aten::add.Tensor"
  std::string schema;  // as the dispatcher prints it
  Location loc;
  bool generated = false;
};

struct Predictions {
  std::vector<PredictedOperator> operators;
  std::vector<PredictedRegistration> registrations;  // per operator in YAML order
};

// The operators ("aten::bincount") the YAML gives a kernel at `key` (a
// dispatch: entry, or their structured group's), whether the build compiles
// `key` or not: torchgen writes Register<Key>.cpp for CUDA in every build.
std::set<std::string> operators_with_kernel_at(const TorchgenModel& model, const ReleaseRules& rules,
                                               const std::string& key);

// compiled_keys: the Register<Key>.cpp files the build links.
std::set<std::string> compiled_keys(const ReleaseRules& rules, const std::set<std::string>& build_backends);
// `model` must already hold the generated variants (add_generated_functions).
Predictions predict(const TorchgenModel& model, const ReleaseRules& rules, const std::set<std::string>& compiled);

// Parts of predict(), one per generator family (predict_*.cpp).
// `groups`: group_by_signature(model.functions), computed once.
void predict_backend_kernels(const TorchgenModel& model, const std::vector<SignatureGroup>& groups,
                             const ReleaseRules& rules, const std::set<std::string>& compiled,
                             std::vector<PredictedRegistration>& out);
void predict_functionalization(const TorchgenModel& model, const std::vector<SignatureGroup>& groups,
                               const ReleaseRules& rules, std::vector<PredictedRegistration>& out);
void predict_autograd(const TorchgenModel& model, const ReleaseRules& rules,
                      std::vector<PredictedRegistration>& out);

}  // namespace dispatchctl::torchgen
