// torchgen.gen writing a ufunc operator's kernels (refusals_ufunc.h), read in
// torchgen 2.14.1's dest/ufunc.py and api/ufunc.py assert by assert. What is
// left out is unreachable from the YAML: the loops already parsed
// (refusals_model2.cpp), ufunctor_arguments' scalar index (always consumed
// for a binary operator), opmath_type (always scalar_t).
#include "torchgen/refusals_ufunc.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "registry/schema_text.h"
#include "torchgen/grouping.h"
#include "torchgen/refusals_detail.h"
#include "torchgen/refusals_model2.h"

namespace dispatchctl::torchgen {
namespace {

// A loop's dtypes as ScalarType.parse_set reads them (DTYPE_CLASSES
// expanded), in their order.
std::vector<std::string> loop_dtypes(const std::string& value, const ReleaseRules& rules) {
  std::vector<std::string> dtypes;
  auto add = [&](const std::string& d) {
    if (std::find(dtypes.begin(), dtypes.end(), d) == dtypes.end()) dtypes.push_back(d);
  };
  std::string unread;  // refused where the YAML is read (refusals_model2.cpp)
  for (const auto& item : inner_loop_dtypes(value, unread)) {
    const auto cls = rules.ufunc_dtype_classes.find(item);
    if (cls == rules.ufunc_dtype_classes.end()) add(item);
    else
      for (const auto& d : cls->second) add(d);
  }
  return dtypes;
}

bool plain(const SchemaType& t, const char* name) { return t.kind == SchemaType::Kind::Named && t.name == name; }

// api/cpp.py valuetype_type: a C++ value type (no Tensor, no Scalar; T? of
// one; bool[N]).
bool value_type(const SchemaType& t) {
  switch (t.kind) {
    case SchemaType::Kind::Named: return t.name != "Tensor" && t.name != "Scalar";
    case SchemaType::Kind::Optional: return !t.contained.empty() && value_type(t.contained[0]);
    case SchemaType::Kind::List: return !t.contained.empty() && plain(t.contained[0], "bool");
    default: return false;
  }
}

std::string written(const SchemaArgument& a) { return "`" + type_text(a) + " " + a.name + "`"; }

class UfuncKernels {
 public:
  UfuncKernels(const NativeFunction& functional, const NativeFunction& out, const ReleaseRules& rules)
      : args_(functional.func.arguments), out_(out) {
    for (const auto& [key, value] : out.ufunc_inner_loop) dtypes_[key] = loop_dtypes(value, rules);
    for (const auto& a : args_)
      if (a.type.tensor_like()) tensors_.push_back(&a);
  }

  // The first refusal, CPU's (gen.py writes UfuncCPUKernel before UfuncCUDA), or nullopt.
  std::optional<Refusal> problem() const {
    if (auto r = cpu_loops()) return r;
    if (auto r = cpu_arguments()) return r;
    return cuda();
  }

 private:
  bool has(const std::string& key) const { return dtypes_.count(key) != 0; }
  std::vector<std::string> of(std::initializer_list<const char*> keys) const {
    std::vector<std::string> all;
    for (const char* k : keys)
      if (has(k))
        for (const auto& d : dtypes_.at(k))
          if (std::find(all.begin(), all.end(), d) == all.end()) all.push_back(d);
    return all;
  }
  Refusal refuse(const char* id, std::string reason, std::string fix = "") const {
    Refusal r = make_refusal(out_, id, std::move(reason));
    if (!fix.empty()) r.fix = std::move(fix);
    return r;
  }
  bool cpu_has_loops() const { return has("CPUScalar") || has("CPUVector") || has("ScalarOnly") || has("Generic"); }

  // compute_ufunc_cpu_kernel: a dtype's CPUVector loop comes from CPUVector or
  // Generic, its CPUScalar one from CPUScalar, ScalarOnly or Generic; each
  // dtype needs the scalar one.
  std::optional<Refusal> cpu_loops() const {
    const std::vector<std::string> scalar = of({"CPUScalar", "ScalarOnly", "Generic"});
    for (const auto& d : of({"CPUVector"}))
      if (std::find(scalar.begin(), scalar.end(), d) == scalar.end())
        return refuse("ufunc-kernel-loops",
                      "AssertionError: " + d + ", dict_keys([CPUVector]): dtype " + d +
                          " has a CPUVector loop and no CPUScalar one (dest/ufunc.py compute_ufunc_cpu_dtype_body)",
                      "give " + d + " a CPUScalar (or Generic) loop too, or drop it from the CPUVector loop");
    return std::nullopt;
  }

  // compute_ufunc_cpu_dtype_body: the lambda takes the Tensors as scalar_t
  // (`assert a.type == BaseType(BaseTy.Tensor)`), ufunc_arguments types the
  // rest (api/ufunc.py ufunc_type), and only the Scalars are in scope to pass
  // (translate finds no other argument).
  std::optional<Refusal> cpu_arguments() const {
    if (!cpu_has_loops()) return std::nullopt;
    const std::string without = "drop ufunc_inner_loop and write the kernels (`dispatch:` CPU, CUDA: NAME_out)";
    for (const auto* a : tensors_)
      if (!plain(a->type, "Tensor"))
        return refuse("ufunc-kernel-arguments",
                      "AssertionError: Expected Tensor type, got " + type_text(*a) + " (ufunc argument " + a->name +
                          ": the CPU loop takes every tensor as scalar_t; dest/ufunc.py compute_ufunc_cpu_dtype_body)",
                      "make " + a->name + " a Tensor, or " + without);
    for (const auto& a : args_)
      if (!a.type.tensor_like() && !plain(a.type, "Scalar") && !value_type(a.type))
        return refuse("ufunc-kernel-arguments",
                      "AssertionError: unrecognized type " + type_text(a) + " of ufunc argument " + a.name +
                          " (api/ufunc.py ufunc_type takes Tensor, Scalar and C++ value types)",
                      "make " + a.name + " a Scalar, or " + without);
    for (const auto& a : args_)
      if (!a.type.tensor_like() && !plain(a.type, "Scalar"))
        return refuse("ufunc-kernel-arguments",
                      "UnsatError: ufunc argument " + written(a) +
                          ": the CPU loop passes only the Tensors and Scalars to the inner loop, so translate finds "
                          "no " + a.name + " (dest/ufunc.py compute_ufunc_cpu_dtype_body, api/translate.py: \"Check "
                          "this module for more information.\")",
                      "make " + a.name + " a Scalar (the loop gets it as scalar_t), or " + without);
    return std::nullopt;
  }

  // compute_ufunc_cuda_functors and compute_ufunc_cuda_dtype_body.
  std::optional<Refusal> cuda() const {
    const bool binary = tensors_.size() == 2;  // eligible_for_binary_scalar_specialization
    if (!binary)
      for (const char* k : {"CUDAFunctorOnSelf", "CUDAFunctorOnOther"})
        if (has(k))
          return refuse("ufunc-kernel-loops",
                        std::string("AssertionError: cannot use ") + k + " on non-binary function (" +
                            std::to_string(tensors_.size()) + " tensor arguments; dest/ufunc.py "
                            "compute_ufunc_cuda_functors)",
                        std::string("write the loop as `CUDAFunctor:` (") + k +
                            " is for operators with exactly two tensors), or drop it");
    const bool generic = has("ScalarOnly") || has("Generic");
    for (const char* k : {"CUDAFunctorOnSelf", "CUDAFunctorOnOther", "CUDAFunctor"}) {
      if ((!binary && std::string(k) != "CUDAFunctor") || has(k) || generic) continue;
      return refuse("ufunc-kernel-loops",
                    std::string("AssertionError: ufunc_name must be non-None (no loop for ") + k +
                        ": a ufunc's CUDA functors are made from its Generic or ScalarOnly loop; dest/ufunc.py "
                        "compute_ufunc_cuda_functors)",
                    "add a `Generic: NAME (DTYPES)` loop (it serves CPU and CUDA), or write " +
                        std::string(binary ? "CUDAFunctor, CUDAFunctorOnSelf and CUDAFunctorOnOther" : "CUDAFunctor") +
                        " loops");
    }
    // api/ufunc.py ufunctor_apply_type / ufunctor_ctor_type.
    for (const auto* a : tensors_)
      if (!plain(a->type, "Tensor"))
        return refuse("ufunc-kernel-arguments",
                      "AssertionError: unrecognized type " + type_text(*a) + " of ufunc argument " + a->name +
                          " (api/ufunc.py ufunctor_apply_type takes only Tensor)",
                      "make " + a->name + " a Tensor, or drop ufunc_inner_loop and write the kernels");
    for (const auto& a : args_)
      if (!a.type.tensor_like() && !plain(a.type, "Scalar") && !value_type(a.type))
        return refuse("ufunc-kernel-arguments",
                      "AssertionError: unrecognized type " + type_text(a) + " of ufunc argument " + a.name +
                          " (api/ufunc.py ufunctor_ctor_type)",
                      "make " + a.name + " a Scalar, or drop ufunc_inner_loop and write the kernels");
    // BinaryScalarSpecializationConfigs: a CPU scalar operand is passed by the
    // name `self` (CUDAFunctorOnOther) or `other` (CUDAFunctorOnSelf).
    if (binary && (tensors_[0]->name != "self" || tensors_[1]->name != "other"))
      return refuse("ufunc-kernel-arguments",
                    "UnsatError: ufunc tensors " + tensors_[0]->name + ", " + tensors_[1]->name +
                        ": the CUDA kernel's CPU-scalar specializations pass them as `self` and `other` "
                        "(dest/ufunc.py BinaryScalarSpecializationConfigs, api/translate.py: \"Check this module "
                        "for more information.\")",
                    "name the two tensors `self` and `other` (in the out=, functional and in-place variants and "
                    "their formulas)");
    // compute_ufunc_cuda_dtype_body: inner_loops[UfuncKey.CUDAFunctor] for every dtype.
    const std::vector<std::string> functor = has("CUDAFunctor") ? of({"CUDAFunctor"}) : of({"ScalarOnly", "Generic"});
    for (const char* k : {"CUDAFunctorOnOther", "CUDAFunctorOnSelf"})
      if (has(k))
        for (const auto& d : dtypes_.at(k))
          if (std::find(functor.begin(), functor.end(), d) == functor.end())
            return refuse("ufunc-kernel-loops",
                          "KeyError: <UfuncKey.CUDAFunctor>: dtype " + d + " has a " + k +
                              " loop and no CUDAFunctor one (dest/ufunc.py compute_ufunc_cuda_dtype_body)",
                          "give " + d + " a CUDAFunctor (or Generic) loop too, or drop it from the " + k + " loop");
    return std::nullopt;
  }

  const std::vector<SchemaArgument>& args_;
  const NativeFunction& out_;
  std::map<std::string, std::vector<std::string>> dtypes_;  // loop key -> its dtypes
  std::vector<const SchemaArgument*> tensors_;                // the functional's tensor-like arguments
};

}  // namespace

void check_ufunc_kernels(const TorchgenModel& model, const ReleaseRules& rules,
                         const std::vector<SignatureGroup>& groups, std::vector<Refusal>& out) {
  if (rules.ufunc_dtype_classes.empty()) return;  // not recorded for the release: not checked
  for (const auto& group : groups) {
    if (!group.is_full_group()) continue;  // gen.py's structured_native_functions are NativeFunctionsGroups
    const NativeFunction& o = model.functions[group.members.at(SchemaKind::Out)];
    if (!o.structured || o.ufunc_inner_loop.empty() || o.generated) continue;
    const UfuncKernels kernels(model.functions[group.members.at(SchemaKind::Functional)], o, rules);
    if (auto r = kernels.problem()) out.push_back(std::move(*r));
  }
}

}  // namespace dispatchctl::torchgen
