"""An "extension module" for the end-to-end export test: importing it registers
custom operators with kernels on a few keys from Python, the way a user's
extension would (torch.library.Library and torch._C._dispatch_library), plus a
kernel on an aten operator, a dangling impl and a backend fallback."""

import torch

_keep = []  # registrations live as long as their library objects


def _fn(*args):
    return args[0]


def _lib(*args):
    lib = torch.library.Library(*args)
    _keep.append(lib)
    return lib


# torch.library (Python kernels: boxed only, no signature)
defs = _lib("dctl_e2e", "DEF")
defs.define("mysin(Tensor x) -> Tensor")
defs.define("myadd.Tensor(Tensor a, Tensor b) -> Tensor", alias_analysis="CONSERVATIVE")
defs.define("myadd.Scalar(Tensor a, Scalar b) -> Tensor")
defs.define("unused(Tensor x) -> Tensor")
_lib("dctl_e2e", "IMPL", "CPU").impl("mysin", _fn)
_lib("dctl_e2e", "IMPL", "AutogradCPU").impl("mysin", _fn)
_lib("dctl_e2e", "IMPL").impl("myadd.Tensor", _fn, "CompositeImplicitAutograd")
_lib("dctl_e2e", "IMPL").impl("myadd.Scalar", _fn, "CompositeExplicitAutograd")
_lib("dctl_e2e", "IMPL").impl("myadd.Scalar", _fn, "Meta")
_lib("aten", "IMPL").impl("sin", _fn, "PrivateUse1")  # a kernel on a core operator

# torch._C._dispatch_library (C++ test kernels: signature, boxed and unboxed)
frag = torch._C._dispatch_library("FRAGMENT", "dctl_e2e", "", "e2e_custom_ops.py", 30)
_keep.append(frag)
frag.def_("relu_(Tensor(a!) x) -> Tensor(a!)", alias="FROM_SCHEMA")
frag.def_("pure(Tensor x) -> Tensor", alias="PURE_FUNCTION")
frag.impl_t_t("mysin", dispatch="CUDA", debug="mysin_cuda")
frag.impl_t_t("mysin", dispatch="CUDA", debug="mysin_cuda_v2")      # overrides: an inactive kernel
frag.impl_t_t("mysin", dispatch="Autograd", debug="mysin_autograd")
frag.impl_t_t("relu_", dispatch="SparseCPU", debug="relu_sparse")
frag.impl_t_t("relu_", dispatch="", debug="relu_catchall")           # catch-all -> CIA
frag.impl_t_t("pure", dispatch="CompositeExplicitAutogradNonFunctional", debug="pure_ceanf")
frag.impl_t_t("pure", dispatch="XLA", debug="pure_xla")
frag.def_name_t_t("named", dispatch="CPU", debug="named_cpu")        # schema inferred from the kernel

# an impl of an operator nobody defines (a dangling impl)
dangling = torch._C._dispatch_library("IMPL", "dctl_e2e_dangling", "", "e2e_custom_ops.py", 46)
_keep.append(dangling)
dangling.impl_t_t("ghost", dispatch="XLA", debug="ghost_xla")

# a backend fallback on a key PyTorch leaves without one
fallback = torch._C._dispatch_library("IMPL", "_", "PrivateUse2", "e2e_custom_ops.py", 51)
_keep.append(fallback)
fallback.fallback_fallthrough()

OPERATORS = ["dctl_e2e::mysin", "dctl_e2e::myadd.Tensor", "dctl_e2e::myadd.Scalar",
             "dctl_e2e::unused", "dctl_e2e::relu_", "dctl_e2e::pure", "dctl_e2e::named",
             "dctl_e2e_dangling::ghost", "aten::sin"]
