"""Records, on the live torch of /usr/bin/python3 (Debian's 1.13.1), which
tensor arguments of an out= operator its autograd kernel refuses when they
require grad: the ground truth of dispatchctl's out= checks
(lib/torchgen/out_grad_checks.h, Registry::out_grad_check).
    /usr/bin/python3 tests/data/out_grad/record_out_grad.py > tests/data/out_grad/torch-1.13.1.json
"""
# For each out= operator of the live torch whose arguments are all tensors
# (plus defaults), which tensor arguments, when the only one requiring grad,
# make the call raise "functions with out=... arguments don't support
# automatic differentiation".
import json, sys, torch
MSG = "functions with out=... arguments don't support automatic differentiation"
out = {}
names = sorted(torch._C._dispatch_get_registrations_for_dispatch_key(""))
for name in names:
    if not name.startswith("aten::"): continue
    base, _, overload = name[6:].partition(".")
    try:
        packet = getattr(torch.ops.aten, base)
        op = getattr(packet, overload or "default")
    except Exception:
        continue
    schema = op._schema
    args = schema.arguments
    if not any(a.is_out for a in args): continue
    tensors = []
    ok = True
    for a in args:
        t = str(a.type)
        if t == "Tensor": tensors.append(a.name)
        elif a.has_default_value(): continue
        else: ok = False
    if not ok or len(tensors) < 2: continue
    result = {}
    for target in tensors:
        pos, kwargs = [], {}
        for a in args:
            if str(a.type) != "Tensor": continue
            t = torch.rand(3, dtype=torch.float32)
            if a.name == target: t.requires_grad_(True)
            if a.kwarg_only: kwargs[a.name] = t
            else: pos.append(t)
        try:
            op(*pos, **kwargs)
            result[target] = "returns"
        except Exception as e:
            # the operator's own autograd kernel names its base name; a
            # composite's inner call names another
            result[target] = "refuses" if str(e).startswith(base + "(): " + MSG) else "other"
    out[name] = result
json.dump(out, sys.stdout, indent=0, sort_keys=True)
sys.stdout.write("\n")
