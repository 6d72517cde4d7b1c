"""Code a user writes against dispatchctl, checked by mypy --strict with the package's stubs."""
from typing import Any, Dict, List, Optional

import dispatchctl
from dispatchctl.pytest_plugin import assert_kernel, explain_reasons


def meta_kernel(reg: dispatchctl.Registry, op: str) -> Optional[str]:
    row: Optional[dispatchctl.Row] = reg.table(op).get("Meta")
    return row.kernel if row is not None else None


def covered(sources: List[str], ops: List[str]) -> Dict[str, bool]:
    reg = dispatchctl.load(*sources)
    return {op: reg.has_kernel(op, "PrivateUse1", works=True) for op in ops}


def reasons(reg: dispatchctl.Registry) -> str:
    answer: Dict[str, Any] = reg.has_kernel_answer("aten::mm", "Meta", computed=True)
    trace = reg.trace("aten::add.Tensor", tensors=["cpu", "cpu"])
    return str(answer["text"]) + str(trace["outcome"]) + explain_reasons(reg, "aten::mm", "Meta")


def main() -> None:
    try:
        reg = dispatchctl.load(dispatchctl.DEFAULT_REGISTRY, layering="bare")
    except dispatchctl.InputError as error:
        print(error)
        return
    for key, row in reg.table("aten::add.Tensor").items():
        print(key, row.tag, row.outcome, row.to_dict()["tag_id"])
    print(meta_kernel(reg, "aten::mm"), covered(["builtin:2.14.1"], ["aten::mm"]), reasons(reg))
    print(dispatchctl.diff("builtin:1.13.1", ["builtin:2.14.1"], ops=["aten::mm"])["schema_version"])
    print(dispatchctl.check("builtin:2.14.1", require=["Meta"])["findings"])
    assert_kernel(reg, "aten::mm", "CPU")
    print(dispatchctl.from_torch(imports=["torchvision"]).torch_version)
