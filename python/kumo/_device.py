"""kumo.Device: a device handle usable as a context manager."""
import threading

from kumo import _core

_stack = threading.local()


class Device:
    """A compute device: ``Device("cpu")``, ``Device("cuda", 0)``, ``Device("cuda:1")``.

    ``with Device(...):`` makes it the current device of this thread.
    """

    def __init__(self, kind="cpu", index=None):
        if isinstance(kind, Device):
            kind, index = kind.type, kind.index
        if isinstance(kind, int):
            kind, index = "cuda", kind
        kind = str(kind)
        if ":" in kind:
            kind, idx = kind.split(":", 1)
            index = int(idx)
        if kind not in ("cpu", "cuda"):
            raise ValueError("unknown device type %r (expected 'cpu' or 'cuda')" % kind)
        if kind == "cpu":
            if index not in (None, 0):
                raise ValueError("the CPU device has index 0 only")
            index = 0
        elif index is None:
            index = 0
        self.type = kind
        self.index = index

    @property
    def name(self):
        return "cpu" if self.type == "cpu" else "cuda:%d" % self.index

    @property
    def id(self):
        return self.index

    def use(self):
        _core.set_current_device(self.name)
        return self

    def synchronize(self):
        _core.synchronize_device(self.name)

    def __enter__(self):
        prev = _core.current_device_name()
        _core.set_current_device(self.name)  # raises if unavailable
        if not hasattr(_stack, "items"):
            _stack.items = []
        _stack.items.append(prev)
        return self

    def __exit__(self, *exc):
        _core.set_current_device(_stack.items.pop())
        return False

    def __eq__(self, other):
        if isinstance(other, str):
            other = Device(other)
        return isinstance(other, Device) and self.name == other.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "<Device %s>" % self.name

    __str__ = lambda self: self.name


def get_device():
    """The current device of this thread."""
    return Device(_core.current_device_name())
