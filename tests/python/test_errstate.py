"""NumPy's floating-point error handling: errstate, seterr, geterr,
seterrcall and the RuntimeWarnings of ufuncs, reductions and casts, compared
with NumPy's."""
import io
import threading
import warnings

import numpy
import pytest

import kumo

# CUDA kernels have no floating-point status flags: on a GPU nothing is reported.
pytestmark = pytest.mark.skipif(kumo.get_device().type != "cpu", reason="floating-point flags exist on the host only")


def _messages(fn):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        fn()
    return sorted(str(w.message).replace("scalar ", "") for w in record)


CASES = [
    ("divide", lambda m: m.asarray([1.0, 0.0, -1.0]) / 0),
    ("log", lambda m: m.log(m.asarray([1.0, 0.0, -1.0]))),
    ("log_float32", lambda m: m.log(m.asarray([1.0, 0.0, -1.0], dtype="float32"))),
    ("sqrt", lambda m: m.sqrt(m.asarray([-1.0, 4.0]))),
    ("exp_float32", lambda m: m.exp(m.asarray([100.0], dtype="float32"))),
    ("exp", lambda m: m.exp(m.asarray([1000.0]))),
    ("int_floor_divide", lambda m: m.asarray([1, 2]) // 0),
    ("int_remainder", lambda m: m.asarray([1, 2]) % 0),
    ("int_min_floor_divide", lambda m: m.asarray([-128], dtype="int8") // -1),
    ("int_reciprocal", lambda m: m.reciprocal(m.asarray([0, 1], dtype="int16"))),
    ("float16_overflow", lambda m: m.asarray([60000.0], dtype="float16") * 2),
    ("inf_minus_inf", lambda m: m.asarray([numpy.inf]) - numpy.inf),
    ("sum_overflow", lambda m: m.sum(m.asarray([1e308, 1e308]))),
    ("sum_inf_minus_inf", lambda m: m.sum(m.asarray([numpy.inf, -numpy.inf]))),
    ("cast_nan_to_int", lambda m: m.asarray([numpy.nan]).astype("int64")),
    ("logaddexp_nan", lambda m: m.logaddexp(m.asarray([numpy.nan]), 1.0)),
    # NaN operands alone warn nowhere else:
    ("compare_nan", lambda m: m.asarray([numpy.nan]) < 1),
    ("maximum_nan", lambda m: m.maximum(m.asarray([numpy.nan, 1.0]), 0.0)),
    ("sign_nan", lambda m: m.sign(m.asarray([numpy.nan]))),
    ("add_nan", lambda m: m.asarray([numpy.nan]) + 1),
    ("max_nan", lambda m: m.max(m.asarray([numpy.nan, 1.0]))),
    ("clip_nan", lambda m: m.clip(m.asarray([numpy.nan, 2.0]), 0, 1)),
    ("masked_sqrt", lambda m: m.sqrt(m.asarray([4.0, -1.0]), where=m.asarray([True, False]), out=m.zeros(2))),
]


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_runtime_warnings_match_numpy(name, fn):
    assert _messages(lambda: fn(kumo)) == _messages(lambda: fn(numpy))


def test_errstate_ignore_raise_and_restore():
    x = kumo.asarray([1.0, 0.0])
    with kumo.errstate(divide="ignore", invalid="ignore"):
        assert _messages(lambda: x / 0) == []
    with kumo.errstate(all="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero encountered in divide"):
            x / 0
    assert kumo.geterr() == numpy.geterr()
    assert kumo.geterr() == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}


def test_errstate_raise_stops_an_in_place_operation_once():
    y = kumo.asarray([1e308])
    with kumo.errstate(over="raise"):
        with pytest.raises(FloatingPointError):
            y *= 10
    assert float(y[0]) == numpy.inf  # written once, as NumPy's


def test_errstate_is_a_decorator_and_seterr_returns_the_old_state():
    @kumo.errstate(divide="ignore")
    def quiet():
        return kumo.asarray([1.0]) / 0

    assert _messages(quiet) == []
    old = kumo.seterr(divide="raise")
    try:
        assert old["divide"] == "warn" and kumo.geterr()["divide"] == "raise"
    finally:
        kumo.seterr(**old)
    with pytest.raises(ValueError):
        kumo.seterr(divide="sometimes")


def test_call_log_and_print_modes():
    x = kumo.asarray([1.0])
    seen = []
    with kumo.errstate(divide="call", call=lambda kind, flag: seen.append((kind, flag))):
        x / 0
    assert seen == [("divide by zero", 1)]
    log = io.StringIO()
    with kumo.errstate(divide="log", call=log):
        x / 0
    assert log.getvalue() == "Warning: divide by zero encountered in divide\n"
    with pytest.raises(ValueError):
        kumo.seterrcall(42)


def test_a_warning_filter_set_to_error_raises():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning):
            kumo.asarray([1.0]) / 0


def test_the_state_is_per_thread():
    seen = {}

    def worker():
        seen["state"] = kumo.geterr()

    with kumo.errstate(all="ignore"):
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert seen["state"]["divide"] == "warn"  # a new thread starts with the defaults


def test_complex_casts_warn_and_complex_scalars_are_refused():
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        kumo.asarray([1j]).astype(float)
        a = kumo.zeros(2)
        a[:] = kumo.asarray([1j, 2])
        kumo.asarray([1j]).astype(bool)  # no warning for bool, as NumPy
    assert [w.category for w in record] == [numpy.exceptions.ComplexWarning] * 2
    for dtype in ("float64", "int64"):
        with pytest.raises(TypeError):
            kumo.zeros(2, dtype)[0] = 1j


def _imod(m):
    a = m.asarray([1.0, 2.0])
    a %= m.asarray([0])


def _imod_nan(m):
    a = m.asarray([numpy.nan, 2.0])
    a %= m.asarray([3])


def _maximum_into_nan_input(m):
    a = m.asarray([numpy.nan, 2.0])
    m.maximum(a, 1.0, out=a)


def _remainder_out_is_input(m):
    a = m.asarray([1.0, 2.0])
    m.remainder(a, m.asarray([0.0]), out=a)


def _ifloordiv(m):
    a = m.asarray([0.0, 2.0])
    a //= m.asarray([0.0])


def _iadd_inf(m):
    a = m.asarray([numpy.inf, 2.0])
    a += -numpy.inf


def _i0_overflow_and_inf(m):
    m.i0(m.asarray([-numpy.inf, 1.0]))
    m.i0(m.asarray([100.0], dtype="float32"))


@pytest.mark.parametrize("call", [_imod, _imod_nan, _maximum_into_nan_input, _remainder_out_is_input, _ifloordiv,
                                  _iadd_inf, _i0_overflow_and_inf], ids=lambda f: f.__name__.strip("_"))
def test_fp_warnings_as_numpy(call):
    # The NaN check behind "invalid value" must see the inputs as they were before an output overwrote them;
    # i0 warns as NumPy's exp(|x|) * ... / sqrt(|x|) in x's dtype does.
    def messages(m):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            call(m)
        return sorted(str(w.message) for w in record)
    assert messages(kumo) == messages(numpy)
