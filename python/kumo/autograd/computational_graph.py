"""kumo.autograd.computational_graph: Chainer's ``chainer.computational_graph``
(the graph behind some Variables, written as Graphviz DOT text)."""
from kumo import _core

__all__ = ["ComputationalGraph", "build_computational_graph"]

_DEFAULT_VARIABLE_STYLE = {"shape": "octagon", "fillcolor": "#E0E0E0", "style": "filled"}
_DEFAULT_FUNCTION_STYLE = {"shape": "record", "fillcolor": "#6495ED", "style": "filled"}


class VariableNode:
    """A variable of the graph: ``shape``, ``dtype``, ``name`` (None if
    unnamed) and ``variable`` (the Variable while it lives, else None)."""

    def __init__(self, shape, dtype, name, variable):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.name = name or None
        self.variable = variable

    @property
    def label(self):
        if self.shape == ():
            return str(self.dtype)
        return "(%s), %s" % (", ".join(map(str, self.shape)), self.dtype)


class FunctionNode:
    """A function application of the graph (``label``: the function's name)."""

    def __init__(self, label):
        self.label = label


def _quote_free(text):
    return str(text).replace('"', '\\"')


class ComputationalGraph:
    """Nodes (VariableNode / FunctionNode objects) and directed edges
    ``(head, tail)`` in the direction of the computation."""

    def __init__(self, nodes, edges, variable_style=None, function_style=None, rankdir="TB", show_name=True):
        self.nodes = nodes
        self.edges = edges
        self.variable_style = variable_style
        self.function_style = function_style
        if rankdir not in ("TB", "BT", "LR", "RL"):
            raise ValueError("rankdir must be in TB, BT, LR or RL.")
        self.rankdir = rankdir
        self.show_name = show_name

    def _node_line(self, index, node):
        if isinstance(node, VariableNode):
            label = node.label
            if self.show_name and node.name is not None:
                label = "%s: %s" % (node.name, label)
            attrs = {"label": label}
            attrs.update(self.variable_style or {})
        else:
            attrs = {"label": node.label}
            attrs.update(self.function_style or {})
        return "%d [%s];" % (index, ",".join('%s="%s"' % (k, _quote_free(v)) for k, v in attrs.items()))

    def _to_dot(self):
        ids = {id(node): i for i, node in enumerate(self.nodes)}
        text = "digraph graphname{rankdir=%s;" % self.rankdir
        for i, node in enumerate(self.nodes):
            text += self._node_line(i, node)
        for head, tail in self.edges:
            text += "%d -> %d;" % (ids[id(head)], ids[id(tail)])
        return text + "}"

    def dump(self, format="dot"):
        """The graph as text; only 'dot' (Graphviz) is supported."""
        if format != "dot":
            raise NotImplementedError("Currently, only dot format is supported.")
        return self._to_dot()


# Graphs captured when a Variable was reported with
# config.keep_graph_on_report set: kumo's backward releases the graph as it
# goes, so DumpGraph (which runs after the update) reads the graph as it was
# at report time. id(variable) -> (variable, listing); the variable is held so
# that its id stays unique. Cleared by forget_captured().
_captured = {}


def capture(variable):
    """Records the graph behind ``variable`` now (before a backward pass releases it)."""
    if variable.creator_node is not None:
        _captured[id(variable)] = (variable, _core.autograd._graph(variable))


def forget_captured():
    _captured.clear()


def _listing(outputs):
    single = outputs
    if isinstance(outputs, (list, tuple)) and len(outputs) == 1:
        single = outputs[0]
    entry = _captured.get(id(single))
    if entry is not None and entry[0] is single and single.creator_node is None:
        return entry[1]
    return _core.autograd._graph(outputs)


def build_computational_graph(outputs, remove_split=True, variable_style="default", function_style="default",
                              rankdir="TB", remove_variable=False, show_name=True):
    """The graph that computed ``outputs`` (a Variable or a sequence of
    them), followed back to its inputs. ``remove_variable`` links functions
    directly; styles are dicts of Graphviz attributes ('default': Chainer's
    grey octagons and blue records). ``remove_split`` is accepted for
    compatibility (there are no split nodes)."""
    variables, functions, edges = _listing(outputs)
    var_nodes = [VariableNode(*v) for v in variables]
    func_nodes = [FunctionNode(label) for label in functions]
    if variable_style == "default":
        variable_style = _DEFAULT_VARIABLE_STYLE
    if function_style == "default":
        function_style = _DEFAULT_FUNCTION_STYLE
    if remove_variable:
        producers = {}
        for kind, vi, fi in edges:
            if kind == 1:
                producers.setdefault(vi, []).append(fi)
        links = []
        for kind, vi, fi in edges:
            if kind == 0:
                for pi in producers.get(vi, ()):
                    if (pi, fi) not in links:
                        links.append((pi, fi))
        return ComputationalGraph(func_nodes, [(func_nodes[a], func_nodes[b]) for a, b in links], variable_style,
                                  function_style, rankdir, show_name)
    graph_edges = [(var_nodes[vi], func_nodes[fi]) if kind == 0 else (func_nodes[fi], var_nodes[vi])
                   for kind, vi, fi in edges]
    return ComputationalGraph(var_nodes + func_nodes, graph_edges, variable_style, function_style, rankdir,
                              show_name)
