"""The built-in ufunc table, read from C++ (routines/ufunc_table.cpp), where
each ufunc is defined once: ROWS holds (name, nin, nout, [(types, snippet)],
identity, doc) per ufunc, ALIASES NumPy's other names for them."""
from kumo import _core

ROWS = [(name, nin, nout, [tuple(l) for l in loops], identity, doc)
        for name, nin, nout, loops, identity, doc in _core._ufunc_rows()]
ALIASES = dict(_core._ufunc_aliases())
# Prefix of a snippet that makes a loop an error (resolution raises TypeError).
ERROR = _core._UFUNC_ERROR_MARKER
# Reduce identity of logaddexp/logaddexp2.
NEG_INF = "-kumo::limits<_type_reduce>::infinity()"
