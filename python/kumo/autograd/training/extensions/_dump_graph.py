"""DumpGraph: writes the graph of a reported Variable as Graphviz DOT."""
import os
import shutil
import subprocess

from kumo.autograd import computational_graph
from kumo.autograd._config import config
from kumo.autograd._variable import Variable
from kumo.autograd.training._extension import Extension

_var_style = {"shape": "octagon", "fillcolor": "#E0E0E0", "style": "filled"}
_func_style = {"shape": "record", "fillcolor": "#6495ED", "style": "filled"}


class DumpGraph(Extension):
    """At the first iteration, writes the computational graph of the
    observed Variable ``root_name`` (e.g. 'main/loss') to
    ``trainer.out/filename`` ('cg.dot'), plus a PNG when Graphviz's ``dot``
    is installed. It keeps reported Variables' graphs until then
    (``config.keep_graph_on_report``): the graph is recorded when the value
    is reported, since a backward pass releases it."""

    default_name = "dump_graph"

    def __init__(self, root_name, filename=None, variable_style=None, function_style=None, *, out_name="cg.dot"):
        self._root_name = root_name
        self._filename = out_name if filename is None else filename
        self._variable_style = _var_style if variable_style is None else variable_style
        self._function_style = _func_style if function_style is None else function_style
        self._original_flag = None
        self._flag_called = False

    def initialize(self, trainer):
        if not self._flag_called:
            self._original_flag = getattr(config, "keep_graph_on_report", False)
            config.keep_graph_on_report = True

    def trigger(self, trainer):
        # fires once, at the first iteration
        if self._flag_called:
            return False
        self._flag_called = True
        return True

    def __call__(self, trainer):
        try:
            var = trainer.observation[self._root_name]
            if not isinstance(var, Variable):
                raise TypeError("root value is not a Variable")
            cg = computational_graph.build_computational_graph(
                [var], variable_style=self._variable_style, function_style=self._function_style).dump()
            path = os.path.join(trainer.out, self._filename)
            with open(path, "w") as f:
                f.write(cg)
            if shutil.which("dot"):
                image = os.path.join(trainer.out, os.path.splitext(self._filename)[0] + ".png")
                subprocess.check_call(["dot", "-Tpng", path, "-o", image])
        finally:
            config.keep_graph_on_report = bool(self._original_flag)
            computational_graph.forget_captured()

    def serialize(self, serializer):
        self._original_flag = serializer("_original_flag", self._original_flag)
        self._flag_called = serializer("_flag_called", self._flag_called)


class unchain_variables(Extension):
    """Releases the graphs of the observed Variables after an iteration in
    which ``config.keep_graph_on_report`` was set (as DumpGraph does), so
    they do not keep memory alive."""

    priority = 0

    def __init__(self):
        self._prev_flag = None

    def initialize(self, trainer):
        self._prev_flag = getattr(config, "keep_graph_on_report", False)

    def trigger(self, trainer):
        flag = self._prev_flag
        self._prev_flag = getattr(config, "keep_graph_on_report", False)
        return flag

    def __call__(self, trainer):
        for value in trainer.observation.values():
            if isinstance(value, Variable):
                value.unchain_backward()
