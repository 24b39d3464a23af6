"""kumo.RawKernel: argument packing, grid/block forms, errors and attributes.
Kernels run on the CPU (the CUDA-dialect emulator); with KUMO_VERIFY_CUDA=1
every module is also compiled by NVRTC."""
import numpy as np
import pytest

import kumo

SAXPY = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""

# One store kernel per C type: out[0] = v, so the value the kernel received
# can be compared with the argument.
_CTYPES = {
    "bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short", "uint16": "unsigned short",
    "int32": "int", "uint32": "unsigned int", "int64": "long long", "uint64": "unsigned long long",
    "float16": "__half", "float32": "float", "float64": "double", "complex64": "float2", "complex128": "double2",
}
_STORE_SRC = "#include <cuda_fp16.h>\n" + "".join(
    'extern "C" __global__ void store_%s(%s v, %s* out) { out[0] = v; }\n' % (name, ct, ct)
    for name, ct in _CTYPES.items())


@pytest.fixture(scope="module")
def store_module():
    return kumo.RawModule(code=_STORE_SRC)


def _store(module, dtype, value):
    out = kumo.zeros(1, dtype=dtype)
    module.get_function("store_" + np.dtype(dtype).name)((1,), (1,), (value, out))
    return kumo.asnumpy(out)[0]


def _sample(dtype):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.bool_(True)
    if dt.kind in "iu":
        return np.iinfo(dt).max - 3 if dt.kind == "u" else np.iinfo(dt).min + 5
    if dt.kind == "c":
        return dt.type(1.5 - 2.25j)
    return dt.type(-3.125)


@pytest.mark.parametrize("dtype", list(_CTYPES))
def test_numpy_scalar_keeps_its_dtype(store_module, dtype):
    v = np.dtype(dtype).type(_sample(dtype))
    got = _store(store_module, dtype, v)
    assert got == v


def test_python_int_is_int64(store_module):
    assert _store(store_module, "int64", -(2 ** 40) - 7) == -(2 ** 40) - 7


def test_python_float_is_double(store_module):
    assert _store(store_module, "float64", 0.1) == 0.1


def test_python_bool_is_bool(store_module):
    assert _store(store_module, "bool", True) == np.True_


def test_python_complex_is_complex128(store_module):
    assert _store(store_module, "complex128", 1.25 - 0.5j) == 1.25 - 0.5j


def test_python_int_too_large_raises_overflow(store_module):
    out = kumo.zeros(1, dtype="int64")
    with pytest.raises(OverflowError):
        store_module.get_function("store_int64")((1,), (1,), (2 ** 64, out))


def test_mixed_sizes_are_packed_in_order():
    k = kumo.RawKernel(r'''
extern "C" __global__ void mixed(signed char a, double b, short c, float d, long long e, double* out) {
  out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = (double)e;
}''', "mixed")
    out = kumo.zeros(5, dtype="float64")
    k((1,), (1,), (np.int8(-3), 2.5, np.int16(300), np.float32(0.75), 123456789, out))
    np.testing.assert_array_equal(kumo.asnumpy(out), [-3, 2.5, 300, 0.75, 123456789])


@pytest.mark.parametrize("n", [0, 1, 255, 256, 1000, 4097])
def test_saxpy_matches_numpy(n):
    k = kumo.RawKernel(SAXPY, "saxpy")
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    kx, ky = kumo.asarray(x), kumo.asarray(y)
    k(((n + 127) // 128 or 1,), (128,), (np.float32(2.5), kx, ky, n))
    # CUDA and the host compiler may contract a*x+y into an FMA (one rounding).
    np.testing.assert_allclose(kumo.asnumpy(ky), np.float32(2.5) * x + y, rtol=1e-6, atol=2e-7)


def test_non_contiguous_array_passes_its_data_pointer():
    # A raw kernel sees memory: a strided view's pointer starts at its first element.
    k = kumo.RawKernel(SAXPY, "saxpy")
    base = kumo.asarray(np.arange(10, dtype=np.float32))
    y = kumo.zeros(3, dtype="float32")
    k((1,), (32,), (np.float32(1), base[4:], y, 3))
    np.testing.assert_array_equal(kumo.asnumpy(y), [4, 5, 6])


_INDEX_SRC = r'''
extern "C" __global__ void index3(int* out) {
  int tx = threadIdx.x + blockIdx.x * blockDim.x;
  int ty = threadIdx.y + blockIdx.y * blockDim.y;
  int tz = threadIdx.z + blockIdx.z * blockDim.z;
  int nx = blockDim.x * gridDim.x, ny = blockDim.y * gridDim.y;
  int lin = (tz * ny + ty) * nx + tx;
  out[lin] = lin;
}'''


@pytest.mark.parametrize("grid,block", [(3, 4), ((3,), (4,)), ((2, 3), (4, 2)), ((2, 1, 3), (2, 2, 2)),
                                        ([2, 2], [3]), (np.int64(2), 5)])
def test_grid_block_forms(grid, block):
    k = kumo.RawKernel(_INDEX_SRC, "index3")
    g = (tuple(grid) if isinstance(grid, (tuple, list)) else (int(grid),)) + (1, 1)
    b = (tuple(block) if isinstance(block, (tuple, list)) else (int(block),)) + (1, 1)
    total = int(np.prod(g[:3]) * np.prod(b[:3]))
    out = kumo.full(total, -1, dtype="int32")
    k(grid, block, (out,))
    np.testing.assert_array_equal(kumo.asnumpy(out), np.arange(total))


def test_numpy_array_argument_raises_type_error():
    k = kumo.RawKernel(SAXPY, "saxpy")
    with pytest.raises(TypeError, match="numpy.ndarray"):
        k((1,), (1,), (np.float32(1), np.zeros(2, np.float32), kumo.zeros(2, dtype="float32"), 2))


@pytest.mark.parametrize("bad", ["a string", None, [1, 2], object()])
def test_unsupported_argument_raises_type_error(bad):
    k = kumo.RawKernel(SAXPY, "saxpy")
    with pytest.raises(TypeError):
        k((1,), (1,), (bad, kumo.zeros(2, dtype="float32"), kumo.zeros(2, dtype="float32"), 2))


def test_args_must_be_a_tuple():
    k = kumo.RawKernel(SAXPY, "saxpy")
    with pytest.raises(TypeError):
        k((1,), (1,), kumo.zeros(2, dtype="float32"))


@pytest.mark.parametrize("grid,block", [((0,), (1,)), ((1,), (0,)), ((1, 1, 1, 1), (1,)), ((), (1,)), ((1,), (-2,))])
def test_bad_dims_raise_value_error(grid, block):
    k = kumo.RawKernel(SAXPY, "saxpy")
    with pytest.raises(ValueError):
        k(grid, block, (np.float32(1), kumo.zeros(1, dtype="float32"), kumo.zeros(1, dtype="float32"), 1))


@pytest.mark.parametrize("grid,block", [(1.5, 1), ("1", 1), ((1,), (1.0,))])
def test_non_integer_dims_raise_type_error(grid, block):
    k = kumo.RawKernel(SAXPY, "saxpy")
    with pytest.raises(TypeError):
        k(grid, block, (np.float32(1), kumo.zeros(1, dtype="float32"), kumo.zeros(1, dtype="float32"), 1))


def test_block_over_1024_threads_raises_value_error():
    k = kumo.RawKernel(SAXPY, "saxpy")
    with pytest.raises(ValueError):
        k((1,), (32, 33), (np.float32(1), kumo.zeros(1, dtype="float32"), kumo.zeros(1, dtype="float32"), 1))


def test_negative_shared_mem_raises():
    k = kumo.RawKernel(SAXPY, "saxpy")
    with pytest.raises(ValueError):
        k((1,), (1,), (np.float32(1), kumo.zeros(1, dtype="float32"), kumo.zeros(1, dtype="float32"), 1),
          shared_mem=-1)


def test_unknown_kernel_name_is_named_in_the_error():
    k = kumo.RawKernel(SAXPY, "no_such_kernel")
    with pytest.raises(RuntimeError, match="no_such_kernel"):
        k((1,), (1,), ())


def test_unknown_backend_raises_value_error():
    with pytest.raises(ValueError, match="backend"):
        kumo.RawKernel(SAXPY, "saxpy", backend="clang")


def test_nvcc_backend_is_accepted():
    k = kumo.RawKernel(SAXPY, "saxpy", backend="nvcc")
    y = kumo.ones(4, dtype="float32")
    k((1,), (4,), (np.float32(2), kumo.ones(4, dtype="float32"), y, 4))
    np.testing.assert_array_equal(kumo.asnumpy(y), [3, 3, 3, 3])


def test_compile_error_carries_the_log_with_user_line_numbers():
    src = "extern \"C\" __global__ void broken(float* x) {\n  x[0] = 1;\n  this_is_not_declared(x);\n}\n"
    k = kumo.RawKernel(src, "broken")
    with pytest.raises(kumo._core.CompileError) as info:
        k.compile()
    msg = str(info.value)
    assert "this_is_not_declared" in msg
    assert ":3:" in msg or "(3)" in msg


def test_compile_error_is_a_runtime_error():
    assert issubclass(kumo._core.CompileError, RuntimeError)


def test_options_define_macros_on_the_host():
    src = 'extern "C" __global__ void k(int* out) { out[0] = VALUE * 2; }'
    out = kumo.zeros(1, dtype="int32")
    kumo.RawKernel(src, "k", options=("-DVALUE=21", "--use_fast_math", "-lineinfo"))((1,), (1,), (out,))
    assert int(kumo.asnumpy(out)[0]) == 42


def test_attributes_on_the_host():
    k = kumo.RawKernel(SAXPY, "saxpy")
    attrs = k.attributes
    assert attrs["max_threads_per_block"] == 1024
    assert k.max_threads_per_block == 1024
    assert k.max_dynamic_shared_size_bytes == 48 * 1024
    for name in ("num_regs", "ptx_version", "binary_version", "local_size_bytes", "const_size_bytes"):
        assert getattr(k, name) == -1  # unknown on the host, never invented


def test_preferred_carveout_is_settable():
    k = kumo.RawKernel(SAXPY, "saxpy")
    k.preferred_shared_memory_carveout = 50
    assert k.preferred_shared_memory_carveout == 50
    with pytest.raises(ValueError):
        k.preferred_shared_memory_carveout = 101


def test_read_only_attribute_cannot_be_set():
    k = kumo.RawKernel(SAXPY, "saxpy")
    with pytest.raises(AttributeError):
        k.num_regs = 3


def test_kernel_keeps_constructor_arguments():
    k = kumo.RawKernel(SAXPY, "saxpy", options=("-DX=1",))
    assert (k.code, k.name, k.options, k.backend) == (SAXPY, "saxpy", ("-DX=1",), "nvrtc")


_DYN_SRC = r'''
extern "C" __global__ void dyn_fill(int* out, int n) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = i * 3;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = buf[n - 1 - i];
}'''


def test_dynamic_shared_memory():
    k = kumo.RawKernel(_DYN_SRC, "dyn_fill")
    out = kumo.zeros(1000, dtype="int32")
    k((1,), (128,), (out, np.int32(1000)), shared_mem=4000)
    np.testing.assert_array_equal(kumo.asnumpy(out), (np.arange(1000) * 3)[::-1])


def test_dynamic_shared_memory_over_48k_needs_the_attribute():
    k = kumo.RawKernel(_DYN_SRC, "dyn_fill")
    n = 20000  # 80000 bytes
    out = kumo.zeros(n, dtype="int32")
    with pytest.raises(ValueError, match="shared memory"):
        k((1,), (256,), (out, np.int32(n)), shared_mem=n * 4)
    k.max_dynamic_shared_size_bytes = n * 4
    k((1,), (256,), (out, np.int32(n)), shared_mem=n * 4)
    np.testing.assert_array_equal(kumo.asnumpy(out), (np.arange(n) * 3)[::-1])


def test_arrays_on_two_devices_raise_value_error():
    if not kumo.cuda.is_available():
        pytest.skip("needs a CUDA device next to the CPU")
    k = kumo.RawKernel(SAXPY, "saxpy")
    with kumo.Device("cuda:0"):
        g = kumo.zeros(2, dtype="float32")
    with pytest.raises(ValueError, match="one device"):
        k((1,), (2,), (np.float32(1), kumo.zeros(2, dtype="float32"), g, 2))
