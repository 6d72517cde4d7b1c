"""What the profiler shows of a backward node's run, for composite_recorder's record_backward
(docs/composite-calls.md): the node is run with no TorchDispatchMode under
torch.autograd.profiler, whose events nest by time under the recorder's root; the operator
events directly under the node's own event are its calls, and a call counts for the backend
when a kernel of the Python backend ran inside it (each marks itself with BACKEND_MARK while
the profiler runs, cpu_backed_device.CpuBackedPrivateUse1.marker)."""

# The recorder's root event, and the mark each kernel of the Python backend makes while it runs.
ROOT_MARK = "dispatchctl_node_call"
BACKEND_MARK = "dispatchctl_backend_kernel"


def profiler_overload_config(torch):
    """The profiler's config that names overloads (torch 2.x's capture_overload_names), or None."""
    try:
        from torch._C._profiler import _ExperimentalConfig
        return _ExperimentalConfig(capture_overload_names=True)
    except (ImportError, TypeError):
        return None


def is_operator_event(event):
    namespace, sep, name = event.name.partition("::")
    return bool(sep) and namespace.isidentifier() and name.isidentifier() and namespace not in ("torch", "autograd")


def operator_events(event):
    """The operator calls made directly under `event`, an event that is no operator call
    (the recorder's root: through the autograd node's own event; an operator called beside
    the node, as record_function's own handle in 1.x, is not the node's)."""
    out = []
    for child in event.cpu_children:
        if not is_operator_event(child) and child.name != BACKEND_MARK:
            out.extend(child for child in child.cpu_children if is_operator_event(child))
    return out


def reaches_backend(event):
    return any(child.name == BACKEND_MARK or reaches_backend(child) for child in event.cpu_children)
