// One test per rule of docs/torchgen-rules.md, on small YAML texts. Expected
// registrations follow the rules document (verified against real registries).
#include <doctest/doctest.h>

#include "torchgen_support.h"

using namespace dispatchctl;
using Rules = std::map<std::string, std::string>;

namespace {

std::string schema_of(const torchgen::Predictions& p, const std::string& op) {
  for (const auto& o : p.operators)
    if (o.name == "aten::" + op) return o.schema;
  return "(not an operator)";
}

const char* k_structured = R"(
- func: my_op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU, CUDA: my_op_out
    SparseCPU: my_op_sparse_out
- func: my_op(Tensor self) -> Tensor
  structured_delegate: my_op.out
- func: my_op_(Tensor(a!) self) -> Tensor(a!)
  structured_delegate: my_op.out
)";

}  // namespace

TEST_CASE("rule dispatch-entry: the op's own dispatch keys that the build compiles, comma lists split") {
  const char* yaml = "- func: my_op(Tensor self) -> Tensor\n  dispatch:\n    CPU, CUDA: my_op\n"
                     "    SparseCPU: my_op_sparse\n    MPS: my_op_mps\n";
  CHECK(test::rules_of(test::predict_yaml(yaml), "my_op") ==
        Rules{{"CPU", "dispatch-entry"}, {"SparseCPU", "dispatch-entry"}, {"Autograd", "autograd"}, {"Tracer", "tracer"}});
  // --build-backends CPU,CUDA links RegisterCUDA.cpp too; MPS stays dropped by gen.py.
  const auto cuda = test::rules_of(test::predict_yaml(yaml, "", "2.14.1", {"CPU", "CUDA"}), "my_op");
  CHECK(cuda.at("CUDA") == "dispatch-entry");
  CHECK_FALSE(cuda.count("MPS"));
}

TEST_CASE("rule default-cia: no dispatch block means CompositeImplicitAutograd (and no Autograd kernel)") {
  CHECK(test::rules_of(test::predict_yaml("- func: my_op(Tensor self) -> Tensor\n"), "my_op") ==
        Rules{{"CompositeImplicitAutograd", "default-cia"}, {"Tracer", "tracer"}});
}

TEST_CASE("rules structured-backend, structured-meta, structured-ceanf: a structured group") {
  const auto p = test::predict_yaml(k_structured);
  CHECK(test::rules_of(p, "my_op") == Rules{{"CPU", "structured-backend"}, {"Meta", "structured-meta"},
                                            {"CompositeExplicitAutogradNonFunctional", "structured-ceanf"},
                                            {"Autograd", "autograd"}, {"Tracer", "tracer"}});
  CHECK(test::rules_of(p, "my_op_") == Rules{{"CPU", "structured-backend"}, {"Meta", "structured-meta"},
                                             {"CompositeExplicitAutogradNonFunctional", "structured-ceanf"},
                                             {"Functionalize", "functionalize-mutating"}, {"Autograd", "autograd"},
                                             {"ADInplaceOrView", "ad-inplace-or-view"}, {"Tracer", "tracer"}});
  // out= gets no CEANF; its unstructured SparseCPU kernel is its own entry.
  CHECK(test::rules_of(p, "my_op.out") == Rules{{"CPU", "structured-backend"}, {"Meta", "structured-meta"},
                                                {"SparseCPU", "dispatch-entry"},
                                                {"Functionalize", "functionalize-mutating"}, {"Autograd", "autograd"},
                                                {"ADInplaceOrView", "ad-inplace-or-view"}, {"Tracer", "tracer"}});
}

// A lone in-place operator needs its functional and out= variants (torchgen
// 2.14.1 refuses it in functionalization): `autogen:` adds them.
TEST_CASE("rule inplace-meta: an unstructured inplace op without Meta or composite kernels gets one") {
  const auto p = test::predict_yaml(
      "- func: my_op_(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n    CPU: my_op_\n  autogen: my_op, my_op.out\n");
  CHECK(test::rules_of(p, "my_op_").at("Meta") == "inplace-meta");
  const auto composite = test::predict_yaml("- func: my_op_(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n"
                                            "    CompositeExplicitAutograd: my_op_\n  autogen: my_op, my_op.out\n");
  CHECK_FALSE(test::rules_of(composite, "my_op_").count("Meta"));
}

TEST_CASE("rule generated-cea and O2: autogen out= and functional variants, `_functional` for mutable ops") {
  const auto p = test::predict_yaml(
      "- func: my_op_(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n    CPU: my_op_\n  autogen: my_op, my_op.out\n"
      "- func: my_mut(Tensor self, Tensor(a!) running) -> Tensor\n  dispatch:\n    CPU: my_mut\n"
      "  autogen: my_mut_functional, my_mut.out\n");
  CHECK(schema_of(p, "my_op.out") == "aten::my_op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  CHECK(schema_of(p, "my_op") == "aten::my_op(Tensor self) -> Tensor");
  CHECK(test::rules_of(p, "my_op").at("CompositeExplicitAutograd") == "generated-cea");
  CHECK(schema_of(p, "my_mut.out") == "aten::my_mut.out(Tensor self, Tensor(a!) running, *, Tensor(b!) out) -> Tensor(b!)");
  CHECK(schema_of(p, "my_mut_functional") == "aten::my_mut_functional(Tensor self, Tensor running) -> (Tensor, Tensor running_out)");
  // Without autogen: no variants (a functional alone stays alone); a CIA-only group never gets any.
  CHECK(test::predict_yaml("- func: my_op(Tensor self) -> Tensor\n  dispatch:\n    CPU: my_op\n").operators.size() == 1);
  CHECK(test::predict_yaml("- func: my_op_(Tensor(a!) self) -> Tensor(a!)\n").operators.size() == 1);
}

TEST_CASE("O3: without a self argument every positional argument counts as after self") {
  const auto s = torchgen::parse_torchgen_schema("my_norm(Tensor input, Tensor(a!) running_mean) -> Tensor");
  CHECK(torchgen::schema_kind(s) == torchgen::SchemaKind::Mutable);
  CHECK(torchgen::schema_kind(torchgen::parse_torchgen_schema("add_(Tensor(a!) self, Tensor other) -> Tensor(a!)")) ==
        torchgen::SchemaKind::Inplace);
  CHECK(torchgen::schema_kind(torchgen::parse_torchgen_schema("f.out(Tensor self, *, Tensor(a!) _scratch_x) -> Tensor(a!)")) ==
        torchgen::SchemaKind::Scratch);
}

TEST_CASE("O4: the dispatcher's re-print of defaults and types") {
  const auto s = torchgen::parse_torchgen_schema(
      "my_op(Tensor self, float eps=1e-05, float p=2, Scalar s=1.0, Scalar t=0.3333333333333333, int reduction=Mean, "
      "ScalarType? dtype=long, str mode='linear', SymInt[2] stride=1, int[1] dim=[-2,-1], int[2] pad=0, "
      "MemoryFormat memory_format=contiguous_format, DeviceIndex? idx=None) -> Tensor");
  CHECK(torchgen::dispatcher_text(s, false) ==
        "aten::my_op(Tensor self, float eps=1.0000000000000001e-05, float p=2., Scalar s=1., "
        "Scalar t=0.33333333333333331, int reduction=1, ScalarType? dtype=4, str mode=\"linear\", "
        "SymInt[2] stride=[1, 1], int[1] dim=[-2, -1], int[2] pad=0, MemoryFormat memory_format=0, int? idx=None) -> Tensor");
  CHECK(torchgen::dispatcher_text(torchgen::parse_torchgen_schema("f(Tensor self, Dimname dim) -> Tensor"), true) ==
        "aten::f(Tensor self, str dim) -> Tensor");
}

TEST_CASE("rules backend-select and backend-select-template") {
  const char* opts = "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor\n"
                     "  dispatch:\n    CompositeExplicitAutograd: f\n";
  const auto p = test::predict_yaml(std::string("- func: my_factory(int n, ") + opts +
                                    "- func: my_factory_like(Tensor self, " + opts + "- func: new_mine(Tensor self, " + opts);
  CHECK(test::rules_of(p, "my_factory").at("BackendSelect") == "backend-select");
  CHECK_FALSE(test::rules_of(p, "my_factory_like").count("BackendSelect"));
  CHECK_FALSE(test::rules_of(p, "new_mine").count("BackendSelect"));
  // 1.13.1's RegisterBackendSelect.cpp template registers is_pinned and _pin_memory by hand.
  CHECK(test::rules_of(test::predict_release("1.13.1"), "is_pinned").at("BackendSelect") == "backend-select-template");
  CHECK_FALSE(test::rules_of(test::predict_release("2.14.1"), "is_pinned").count("BackendSelect"));
}

TEST_CASE("rules functionalize-mutating, functionalize-view (CIA views included), functionalize-cia (1.13)") {
  const char* yaml = "- func: my_view(Tensor(a) self) -> Tensor(a)\n"
                     "- func: my_view_(Tensor(a!) self) -> Tensor(a!)\n  tags: inplace_view\n"  // composite as its view
                     "- func: my_cia(Tensor self) -> Tensor\n"
                     "- func: my_mut_(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n    CPU: m_\n"
                     "  autogen: my_mut, my_mut.out\n";
  const auto p = test::predict_yaml(yaml);
  CHECK(test::rules_of(p, "my_view").at("Functionalize") == "functionalize-view");
  CHECK(test::rules_of(p, "my_view_").at("Functionalize") == "functionalize-view");
  CHECK(test::rules_of(p, "my_mut_").at("Functionalize") == "functionalize-mutating");
  CHECK_FALSE(test::rules_of(p, "my_cia").count("Functionalize"));
  CHECK(test::rules_of(test::predict_yaml(yaml, "", "1.13.1"), "my_cia").at("Functionalize") == "functionalize-cia");
}

TEST_CASE("functionalization exceptions: hand-written kernels, set_.source_Tensor, MUTABLE_OPS_NOT_USING_FUNCTIONALIZATION") {
  const auto p = test::predict_release("2.14.1");
  for (const char* op : {"lift", "lift.out", "lift_fresh", "resize_", "_cummax_helper", "record_stream",
                         "set_.source_Tensor", "set.source_Tensor_out", "_fill_mem_eff_dropout_mask_"})
    CHECK_MESSAGE(!test::rules_of(p, op).count("Functionalize"), op);
  CHECK(test::rules_of(p, "set_.source_Storage").at("Functionalize") == "functionalize-mutating");
  CHECK(test::rules_of(test::predict_release("1.13.1"), "set_.source_Tensor").count("Functionalize"));
}

TEST_CASE("rules autograd and autograd-dispatch-key: use_derived and derivatives.yaml's dispatch keys") {
  const char* yaml = "- func: my_cia2(Tensor self) -> Tensor\n"
                     "- func: my_nt(Tensor self) -> Tensor\n  dispatch:\n    CPU: nt\n"
                     "- func: my_nt_(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n    CPU: nt_\n  autogen: my_nt.out\n"
                     "- func: detach(Tensor(a) self) -> Tensor(a)\n  dispatch:\n    CPU: d\n"
                     "- func: detach_copy(Tensor self) -> Tensor\n  dispatch:\n    CompositeExplicitAutogradNonFunctional: dc\n"
                     "  tags: view_copy\n";
  const char* derivatives = "- name: my_cia2(Tensor self) -> Tensor\n  self: non_differentiable\n"
                            "- name: my_nt(Tensor self) -> Tensor\n  dispatch:\n    Default:\n      self: grad\n"
                            "    AutogradNestedTensor:\n      self: grad\n";
  const auto p = test::predict_yaml(yaml, derivatives);
  CHECK_FALSE(test::rules_of(p, "my_cia2").count("Autograd"));             // only non_differentiable
  // A formula for a CompositeImplicitAutograd-only operator: gen_variable_type refuses it.
  CHECK_THROWS_WITH(test::predict_yaml("- func: my_cia(Tensor self) -> Tensor\n",
                                       "- name: my_cia(Tensor self) -> Tensor\n  self: grad * 2\n"),
                    doctest::Contains("There's a formula for my_cia(or its functional variant) in derivatives.yaml"));
  CHECK(test::rules_of(p, "my_nt").at("AutogradNestedTensor") == "autograd-dispatch-key");
  CHECK(test::rules_of(p, "my_nt_").at("AutogradNestedTensor") == "autograd-dispatch-key");  // functional's info
  CHECK(test::rules_of(p, "detach") == Rules{{"CPU", "dispatch-entry"}, {"Functionalize", "functionalize-view"}});
}

TEST_CASE("rules ad-inplace-or-view and tracer") {
  const auto p = test::predict_yaml("- func: alias(Tensor(a) self) -> Tensor(a)\n  dispatch:\n    CPU: a\n"
                                    "- func: my_view(Tensor(a) self) -> Tensor(a)\n  dispatch:\n    CPU: v\n"
                                    "- func: alias_copy(Tensor self) -> Tensor\n  dispatch:\n    CompositeExplicitAutogradNonFunctional: ac\n"
                                    "  tags: view_copy\n"
                                    "- func: my_view_copy(Tensor self) -> Tensor\n  dispatch:\n    CompositeExplicitAutogradNonFunctional: vc\n"
                                    "  tags: view_copy\n"
                                    "- func: my_fill_(Tensor(a!)[] self) -> ()\n  dispatch:\n    CPU: f\n"
                                    "  autogen: my_fill, my_fill.out\n");
  CHECK(test::rules_of(p, "alias").at("ADInplaceOrView") == "ad-inplace-or-view");  // VIEW_FUNCTIONS
  CHECK_FALSE(test::rules_of(p, "my_view").count("ADInplaceOrView"));
  CHECK_FALSE(test::rules_of(p, "my_fill_").count("ADInplaceOrView"));  // inplace without a return
  CHECK(test::rules_of(p, "my_fill_").at("Tracer") == "tracer");
}

TEST_CASE("gen.py drops MPS entries before anything else: an MPS-only op is abstract but has no kernel") {
  CHECK(test::rules_of(test::predict_yaml("- func: my_op(Tensor self) -> Tensor\n  dispatch:\n    MPS: m\n"), "my_op") ==
        Rules{{"Autograd", "autograd"}, {"Tracer", "tracer"}});
}
