"""User kernels: ElementwiseKernel and ReductionKernel with CuPy's interfaces."""
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import kumo
from conftest import LAYOUTS, assert_allclose, assert_array_equal, make_pair

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(kumo.__file__)))  # where kumo is imported from

_add = kumo.ElementwiseKernel("T x, T y", "T z", "z = x + y", "test_generic_add")
_scale = kumo.ElementwiseKernel("T x, T a", "T z", "z = x * a", "test_scale")
_sqr_f32 = kumo.ElementwiseKernel("float32 x", "float32 y", "y = x * x", "test_square_f32")
_reverse = kumo.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "test_reverse")
_l2 = kumo.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "test_l2norm")


# ---------------------------------------------------------------- ElementwiseKernel
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint32, numpy.int64, numpy.float32, numpy.float64,
                                   numpy.complex64])
def test_generic_type_per_dtype(dtype):
    nx, kx = make_pair("3d", dtype, seed=1)
    ny, ky = make_pair("3d", dtype, seed=2)
    assert_array_equal(_add(kx, ky), nx + ny)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_generic_layouts(layout):
    nx, kx = make_pair(layout, numpy.float64, seed=1)
    ny, ky = make_pair(layout, numpy.float64, seed=2)
    assert_array_equal(_add(kx, ky), nx + ny)


def test_broadcasting():
    a = numpy.arange(3, dtype=numpy.float32).reshape(3, 1)
    b = numpy.arange(4, dtype=numpy.float32)
    assert_array_equal(_add(kumo.asarray(a), kumo.asarray(b)), a + b)


def test_broadcast_mismatch():
    with pytest.raises(ValueError):
        _add(kumo.ones(3), kumo.ones(4))


def test_output_allocated_has_input_dtype():
    r = _add(kumo.ones(4, dtype=numpy.int16), kumo.ones(4, dtype=numpy.int16))
    assert r.dtype == numpy.int16 and r.shape == (4,)


def test_output_given():
    x = kumo.arange(6, dtype=numpy.float64)
    out = kumo.zeros(6)
    r = _add(x, x, out)
    assert_array_equal(out, numpy.arange(6.0) * 2)
    assert_array_equal(r, numpy.arange(6.0) * 2)


def test_output_given_strided():
    x = kumo.arange(4, dtype=numpy.float64)
    base = kumo.zeros(8)
    _add(x, x, base[::-2])
    expected = numpy.zeros(8)
    expected[::-2] = numpy.arange(4.0) * 2
    assert_array_equal(base, expected)


def test_output_broadcasts_inputs():
    out = kumo.zeros((2, 3))
    _add(kumo.arange(3.0), 1.0, out)
    assert_array_equal(out, numpy.broadcast_to(numpy.arange(3.0) + 1, (2, 3)))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32])
def test_python_scalar_argument_takes_array_type(dtype):
    x = kumo.arange(5, dtype=dtype)
    r = _scale(x, 3)
    assert r.dtype == dtype
    assert_array_equal(r, numpy.arange(5, dtype=dtype) * 3)


def test_concrete_types():
    n = numpy.arange(5, dtype=numpy.float32) - 2
    r = _sqr_f32(kumo.asarray(n))
    assert_array_equal(r, n * n)


def test_concrete_type_scalar_param():
    k = kumo.ElementwiseKernel("T x, float64 s", "float64 y", "y = x * s", "test_mixed_scalar")
    r = k(kumo.arange(4, dtype=numpy.int32), 0.5)
    assert_array_equal(r, numpy.arange(4) * 0.5)


def test_raw_reverse():
    n = numpy.arange(10, dtype=numpy.int64) * 3
    r = _reverse(kumo.asarray(n), kumo.empty(10, dtype=numpy.int64))
    assert_array_equal(r, n[::-1])


def test_raw_input_of_strided_view():
    n = (numpy.arange(12.0) ** 2)[::-2]
    r = _reverse(kumo.asarray(numpy.arange(12.0) ** 2)[::-2], kumo.empty(6))
    assert_array_equal(r, n[::-1])


def test_raw_with_size_argument():
    k = kumo.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] + 1", "test_raw_size")
    x = kumo.arange(5, dtype=numpy.float32)
    y = kumo.zeros(5, dtype=numpy.float32)
    k(x, y, size=3)
    assert_array_equal(y, numpy.array([1, 2, 3, 0, 0], dtype=numpy.float32))


def test_type_mismatch_generic():
    with pytest.raises(TypeError):
        _add(kumo.ones(3, dtype=numpy.float64), kumo.ones(3, dtype=numpy.int32))


def test_wrong_number_of_arguments():
    with pytest.raises(TypeError):
        _add(kumo.ones(3))
    with pytest.raises(TypeError):
        _add(kumo.ones(3), kumo.ones(3), kumo.ones(3), kumo.ones(3))


def test_output_type_mismatch():
    with pytest.raises(TypeError):
        _add(kumo.ones(3), kumo.ones(3), kumo.zeros(3, dtype=numpy.int8))


def test_two_outputs():
    k = kumo.ElementwiseKernel("T x", "T s, T d", "s = x + x; d = x * x", "test_two_outs")
    n = numpy.arange(4.0)
    s, d = k(kumo.asarray(n))
    assert_array_equal(s, n + n)
    assert_array_equal(d, n * n)


def test_preamble_function():
    k = kumo.ElementwiseKernel("T x", "T y", "y = twice(x)", "test_preamble",
                               preamble="template <class U> KUMO_FN U twice(U v) { return v + v; }")
    assert_array_equal(k(kumo.arange(3.0)), numpy.arange(3.0) * 2)


def test_index_variable_i():
    k = kumo.ElementwiseKernel("T x", "int64 y", "y = i", "test_index_i")
    assert_array_equal(k(kumo.zeros((2, 3))), numpy.arange(6).reshape(2, 3))


def test_syntax_error_is_compile_error():
    bad = kumo.ElementwiseKernel("T x", "T y", "y = x +* ;;; unknown_identifier_xyz", "test_bad_syntax")
    with pytest.raises(kumo._core.CompileError) as info:
        bad(kumo.ones(3))
    assert isinstance(info.value, RuntimeError)
    msg = str(info.value)
    assert "unknown_identifier_xyz" in msg or "error" in msg.lower()
    assert "error" in msg  # the compiler's own diagnostics are in the message


# ---------------------------------------------------------------- ReductionKernel
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_reduction_l2_norm_all(dtype):
    n, k = make_pair("3d", dtype)
    assert_allclose(_l2(k), numpy.sqrt(numpy.sum(n * n)))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, (0, 2), (1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_l2_norm_axes(axis, keepdims):
    n, k = make_pair("3d", numpy.float64)
    assert_allclose(_l2(k, axis=axis, keepdims=keepdims),
                    numpy.sqrt(numpy.sum(n * n, axis=axis, keepdims=keepdims)))


@pytest.mark.parametrize("layout", ["transposed", "negative", "broadcast", "1d"])
def test_reduction_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    assert_allclose(_l2(k, axis=0), numpy.sqrt(numpy.sum(n * n, axis=0)))


def test_reduction_empty_uses_identity():
    assert_allclose(_l2(kumo.zeros((0, 3)), axis=0), numpy.zeros(3))


def test_reduction_out():
    n, k = make_pair("3d", numpy.float64)
    out = kumo.zeros((2, 4))
    _l2(k, axis=1, out=out)
    assert_allclose(out, numpy.sqrt(numpy.sum(n * n, axis=1)))


def test_reduction_reduce_type_and_index():
    # sum of squares of an int8 array accumulated in int64: no overflow
    k = kumo.ReductionKernel("T x", "int64 y", "(long long)x * x", "a + b", "y = a", "0", "test_sumsq_i8",
                             reduce_type="long long")
    n = numpy.full(1000, 100, dtype=numpy.int8)
    assert_array_equal(k(kumo.asarray(n)), numpy.int64(10000000))


def test_reduction_max_with_identity_expression():
    k = kumo.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", "-1e300", "test_rmax")
    n, kk = make_pair("3d", numpy.float64)
    assert_array_equal(k(kk, axis=2), numpy.max(n, axis=2))


def test_reduction_syntax_error():
    bad = kumo.ReductionKernel("T x", "T y", "x ** x", "a + b", "y = a", "0", "test_bad_reduce")
    with pytest.raises(kumo._core.CompileError):
        bad(kumo.ones(3))


# ---------------------------------------------------------------- CUDA verification mode
_VALID_CXX_INVALID_CUDA = textwrap.dedent("""
    import kumo, numpy
    k = kumo.ElementwiseKernel("T x", "T y", "std::vector<T> v(1, x); y = v[0] * 2;", "test_std_vector",
                               preamble="#include <vector>")
    try:
        r = k(kumo.arange(3.0))
        print("OK", kumo.asnumpy(r).tolist())
    except kumo._core.CompileError as e:
        print("COMPILE_ERROR", str(e).replace("\\n", " ")[:2000])
""")


def _run(code, **env):
    e = dict(os.environ)
    e["PYTHONPATH"] = os.path.abspath(PYTHON_DIR) + os.pathsep + e.get("PYTHONPATH", "")
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True, timeout=300)


def test_host_only_accepts_std_vector():
    env = {"KUMO_VERIFY_CUDA": "0"}
    r = _run(_VALID_CXX_INVALID_CUDA, **env)
    assert r.returncode == 0, r.stderr
    assert "OK [0.0, 2.0, 4.0]" in r.stdout, r.stdout


def test_verify_cuda_rejects_std_vector():
    r = _run(_VALID_CXX_INVALID_CUDA, KUMO_VERIFY_CUDA="1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("COMPILE_ERROR"), r.stdout
    assert "NVRTC" in r.stdout and "vector" in r.stdout


def test_elementwise_size_broadcasts_scalar_arguments():
    # A non-raw scalar with size= is broadcast over the whole loop.
    k = kumo.ElementwiseKernel("raw T x, int32 s", "raw T y", "y[i] = x[i] + s", "size_scalar_raw")
    y = kumo.zeros(4, dtype=kumo.float32)
    k(kumo.arange(4, dtype=kumo.float32), 10, y, size=4)
    numpy.testing.assert_array_equal(kumo.asnumpy(y), numpy.arange(4, dtype=numpy.float32) + 10)


def test_elementwise_size_broadcasts_0d_array_argument():
    k = kumo.ElementwiseKernel("T x", "raw T y", "y[i] = x * i", "size_0d")
    y = kumo.zeros(5, dtype=kumo.float64)
    k(kumo.asarray(2.0), y, size=5)
    numpy.testing.assert_array_equal(kumo.asnumpy(y), 2.0 * numpy.arange(5))


def test_elementwise_size_must_match_non_raw_shape():
    k = kumo.ElementwiseKernel("T x", "T y", "y = x * 2", "size_mismatch")
    numpy.testing.assert_array_equal(kumo.asnumpy(k(kumo.ones(3), size=3)), numpy.full(3, 2.0))
    with pytest.raises(ValueError, match="size=4"):
        k(kumo.ones(3), size=4)
