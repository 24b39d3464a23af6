"""Variable and FunctionNode, the C++ engine's classes, and the switches of
its backprop mode, for the modules of kumo.autograd to import without
importing the package's __init__ (which imports them): a leaf over kumo._core."""
from kumo import _core

Variable = _core.autograd.Variable
FunctionNode = _core.autograd.FunctionNode
_ag = _core.autograd


def no_backprop_mode():
    """``with no_backprop_mode():`` functions record no graph (this thread)."""
    return _ag._ModeContext(False)


def force_backprop_mode():
    """``with force_backprop_mode():`` functions record the graph even inside
    a no_backprop_mode (this thread)."""
    return _ag._ModeContext(True)


def is_backprop_enabled():
    return _ag.is_backprop_enabled()
