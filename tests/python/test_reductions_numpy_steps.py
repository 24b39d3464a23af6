"""Reductions whose NumPy result comes from the steps NumPy takes, not from the
exact value: integer dtype= in var/std, out= of another dtype (mean, var,
median, ufunc.reduce with its starting value kept in out=), argmin/argmax
into out=, and the nan-reductions' refusals. Each compared with NumPy."""
import warnings

import numpy
import pytest

import kumo


def outcome(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return call(), None
        except Exception as e:  # noqa: BLE001 - the exception is the outcome
            return None, e


def check_same(np_call, k_call):
    n, ne = outcome(np_call)
    k, ke = outcome(k_call)
    if ne is not None:
        assert ke is not None, f"NumPy raised {ne!r}, kumo returned {k!r}"
        base = TypeError if isinstance(ne, TypeError) else type(ne)
        assert isinstance(ke, base), (ne, ke)
        return
    assert ke is None, f"kumo raised {ke!r}, NumPy returned {n!r}"
    k = kumo.asnumpy(k)
    n = numpy.asarray(n)
    assert k.dtype == n.dtype and k.shape == n.shape
    numpy.testing.assert_array_equal(k, n)


INPUTS = {
    "uint16": numpy.array([[1, 2, 3], [4, 50, 6]], numpy.uint16),
    "bool": numpy.array([True, False, True]),
    "float32": numpy.array([[1.5, -2.25], [3.75, 9.5]], numpy.float32),
    "complex64": numpy.array([1 + 2j, 2 - 1j, 3j], numpy.complex64),
    "int8_0d": numpy.array(7, numpy.int8),
    "int8": numpy.array([-100, 100, 27], numpy.int8),
}
KWARGS = [{}, {"axis": 0}, {"axis": -1, "keepdims": True}, {"ddof": 1}, {"ddof": 1.5}]


@pytest.mark.parametrize("name", sorted(INPUTS))
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int64", "uint64", "bool"])
@pytest.mark.parametrize("kw", KWARGS, ids=str)
@pytest.mark.parametrize("fn", ["var", "std"])
def test_var_std_with_an_integer_dtype(name, dtype, kw, fn):
    a = INPUTS[name]
    if a.ndim == 0 and "axis" in kw:
        pytest.skip("no axis on a 0-d array")
    check_same(lambda: getattr(numpy, fn)(a, dtype=dtype, **kw),
               lambda: getattr(kumo, fn)(kumo.asarray(a), dtype=dtype, **kw))


@pytest.mark.parametrize("fn", ["var", "std", "mean"])
@pytest.mark.parametrize("out_dtype", ["uint8", "int32", "float16", "bool", "complex64"])
@pytest.mark.parametrize("name", ["uint16", "float32", "int8"])
def test_statistics_into_an_out_of_another_dtype(fn, out_dtype, name):
    a = INPUTS[name]
    n_out, k_out = numpy.zeros(a.shape[1:], out_dtype), kumo.zeros(a.shape[1:], out_dtype)
    check_same(lambda: getattr(numpy, fn)(a, axis=0, out=n_out),
               lambda: getattr(kumo, fn)(kumo.asarray(a), axis=0, out=k_out))
    numpy.testing.assert_array_equal(kumo.asnumpy(k_out), n_out)


@pytest.mark.parametrize("out_dtype", ["uint8", "int8", "int64", "float32", "bool"])
@pytest.mark.parametrize("values", [[0, -3, 1, -3], [0, -3, 1], [5, 250, 7, 9]])
def test_median_into_an_out_of_another_dtype(out_dtype, values):
    a = numpy.array(values, numpy.int16)
    n_out, k_out = numpy.zeros((), out_dtype), kumo.zeros((), out_dtype)
    check_same(lambda: numpy.median(a, out=n_out), lambda: kumo.median(kumo.asarray(a), out=k_out))


@pytest.mark.parametrize("fn", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("how", ["dtype", "out"])
def test_nan_reductions_refuse_an_integer_result_for_float_input(fn, how):
    a = numpy.array([1.5, numpy.nan, 2.0])
    kw_n = {"dtype": "int32"} if how == "dtype" else {"out": numpy.zeros((), numpy.int32)}
    kw_k = {"dtype": "int32"} if how == "dtype" else {"out": kumo.zeros((), kumo.int32)}
    check_same(lambda: getattr(numpy, fn)(a, **kw_n), lambda: getattr(kumo, fn)(kumo.asarray(a), **kw_k))


def test_nanvar_keeps_a_complex_dtype():
    a = numpy.array([1.5, numpy.nan, -2.0], numpy.float32)
    check_same(lambda: numpy.nanvar(a, dtype="complex64"), lambda: kumo.nanvar(kumo.asarray(a), dtype="complex64"))


REDUCE_CASES = [
    ("add", [1.5], {"initial": 1.5}, "int64"),
    ("add", [1.5, 1.5], {}, "int64"),
    ("add", [1, 2], {"initial": -3}, "uint8"),
    ("add", [100, 100], {}, "int16"),
    ("maximum", [1.5, 1.75], {}, "int64"),
    ("maximum", [[1.5, 1.75], [1.25, 1.0]], {"axis": (0, 1)}, "int64"),
    ("maximum", [1.5, 1.25], {"initial": 1.75}, "int64"),
    ("minimum", [-2, 0], {}, "bool"),
    ("minimum", [-2, 2], {}, "bool"),
    ("subtract", [1.5, 0.25], {}, "int64"),
    ("subtract", [[1.5, 0.25], [2.5, 1.0]], {"axis": 1, "initial": 0.5}, "int64"),
]


@pytest.mark.parametrize("ufunc,values,kw,out_dtype", REDUCE_CASES, ids=str)
def test_reduce_keeps_its_starting_value_in_out(ufunc, values, kw, out_dtype):
    a = numpy.array(values, numpy.int8 if all(float(v).is_integer() for v in numpy.ravel(values)) else None)
    shape = numpy.add.reduce(a, axis=kw.get("axis", 0)).shape
    n_out, k_out = numpy.zeros(shape, out_dtype), kumo.zeros(shape, out_dtype)
    check_same(lambda: getattr(numpy, ufunc).reduce(a, out=n_out, **kw),
               lambda: getattr(kumo, ufunc).reduce(kumo.asarray(a), out=k_out, **kw))


@pytest.mark.parametrize("ufunc,out_dtype", [("add", "int64"), ("maximum", "int64"), ("bitwise_xor", "float64"),
                                             ("add", "bool")])
def test_accumulate_loop_from_out_and_input(ufunc, out_dtype):
    a = numpy.array([1.5, 1.75, 1.25]) if ufunc != "bitwise_xor" else numpy.array([1, 2, 3])
    check_same(lambda: getattr(numpy, ufunc).accumulate(a, out=numpy.zeros(3, out_dtype)),
               lambda: getattr(kumo, ufunc).accumulate(kumo.asarray(a), out=kumo.zeros(3, out_dtype)))


@pytest.mark.parametrize("fn", ["argmin", "argmax"])
@pytest.mark.parametrize("out_dtype", ["int8", "int32", "int64", "uint64", "float64", "complex64"])
@pytest.mark.parametrize("axis", [None, 1])
def test_arg_reductions_into_out(fn, out_dtype, axis):
    a = numpy.array([[3, 1, 2], [0, 5, 5]])
    shape = () if axis is None else (2,)
    check_same(lambda: getattr(numpy, fn)(a, axis=axis, out=numpy.zeros(shape, out_dtype)),
               lambda: getattr(kumo, fn)(kumo.asarray(a), axis=axis, out=kumo.zeros(shape, out_dtype)))


INDEX_KEYS = [
    lambda m: (m.array([5]), m.zeros(0, int)),
    lambda m: (m.array(5), m.zeros(0, int)),
    lambda m: (m.array(5), m.array(False)),
    lambda m: (m.array([5]), m.array(False)),
    lambda m: (slice(None), m.array(7), m.array(False)),
    lambda m: (slice(None), m.array([7]), m.array(False)),
]


@pytest.mark.parametrize("key", INDEX_KEYS)
@pytest.mark.parametrize("op", ["get", "set", "iadd"])
def test_0d_index_arrays_are_bounds_checked_when_the_selection_is_empty(key, op):
    def run(m):
        a = m.zeros((2, 2))
        if op == "get":
            return a[key(m)]
        if op == "set":
            a[key(m)] = 1.0
        else:
            a[key(m)] += 1.0
        return a
    check_same(lambda: run(numpy), lambda: run(kumo))


# A 0-d array with axis 0 or -1: NumPy reads it as its 1-element 1-d form in
# the functions built on PyArray_CheckAxis or on sums, and refuses it in
# mean/var/std unless where= is given.
ZERO_D_CALLS = [
    ("cumsum", {"axis": 0}), ("cumsum", {"axis": 1}), ("cumprod", {"axis": -2}), ("nancumsum", {"axis": 0}),
    ("squeeze", {"axis": 0}), ("squeeze", {"axis": -1}), ("squeeze", {"axis": 1}),
    ("repeat", {"repeats": 2, "axis": 0}), ("repeat", {"repeats": 2, "axis": 1}), ("repeat", {"repeats": []}),
    ("take", {"indices": 0, "axis": 0}), ("take", {"indices": [0, 0], "axis": -1}), ("take", {"indices": 0, "axis": 1}),
    ("compress", {"condition": [True], "axis": 0}),
    ("nanmean", {"axis": 0}), ("nanvar", {"axis": -1}), ("nanstd", {"axis": 0}), ("nanmean", {"axis": 1}),
    ("mean", {"axis": 0}), ("mean", {"axis": 0, "where": True}), ("var", {"axis": -1, "where": False}),
    ("std", {"axis": 0, "where": True}),
]


@pytest.mark.parametrize("name,kw", ZERO_D_CALLS, ids=str)
@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_axis_of_a_0d_array(name, kw, dtype):
    def call(m):
        k = {key: (m.asarray(v) if key == "where" else v) for key, v in kw.items()}
        if name == "compress":
            return m.compress(k.pop("condition"), m.asarray(numpy.array(5, dtype)), **k)
        return getattr(m, name)(m.asarray(numpy.array(5, dtype)), **k)
    check_same(lambda: call(numpy), lambda: call(kumo))


@pytest.mark.parametrize("shape,axis", [((4, 0, 1), -1), ((0, 3), 0), ((2, 0), None)])
def test_average_of_an_empty_result_divides_by_zero(shape, axis):
    a = numpy.zeros(shape)
    check_same(lambda: numpy.average(a, axis=axis), lambda: kumo.average(kumo.asarray(a), axis=axis))
