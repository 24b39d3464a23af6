"""Built-in kernels that are not ufuncs: argmin/argmax and select."""
import numpy

from kumo import _core

_ARG_PREAMBLE = r"""
template <class V> KUMO_FN bool kumo_is_nan_(const V& v) { return !(v == v); }
template <class P> KUMO_FN P kumo_arg_pick_(const P& a, const P& b, bool want_max) {
  const bool an = kumo_is_nan_(a.value), bn = kumo_is_nan_(b.value);
  if (an || bn) {
    if (an && bn) return a.index <= b.index ? a : b;
    return an ? a : b;  // the first NaN wins, as in NumPy
  }
  const bool b_better = want_max ? (a.value < b.value) : (b.value < a.value);
  const bool a_better = want_max ? (b.value < a.value) : (a.value < b.value);
  if (b_better) return b;
  if (a_better) return a;
  return a.index <= b.index ? a : b;
}
"""

_specs = {}


def _arg_spec(kind):
    spec = _specs.get(kind)
    if spec is None:
        want_max = "true" if kind == "argmax" else "false"
        spec = _core._ReductionSpec(
            "T x", "int64 y", "KumoArg<T>(x, _j)", "kumo_arg_pick_(a, b, %s)" % want_max, "y = a.index", "",
            "kumo_" + kind, "KumoArg<T>", _ARG_PREAMBLE)
        _specs[kind] = spec
    return spec


def arg_reduce(a, kind, axis):
    return _arg_spec(kind)(a, axis=[axis])


_select = None


def select_where(cond, x, y):
    """z = cond ? x : y for x, y of one dtype, cond cast to bool in the kernel."""
    global _select
    if _select is None:
        _select = _core._ElementwiseSpec("bool c, T x, T y", "T z", "z = c ? x : y", "kumo_where")
    return _select(cond, x, y)
