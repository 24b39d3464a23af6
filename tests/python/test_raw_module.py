"""kumo.RawModule: globals, name expressions, cuComplex, options, errors and
the on-disk cache (second process, concurrent processes)."""
import json
import multiprocessing
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kumo

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(kumo.__file__)))

GLOBALS_SRC = r'''
__device__ int counter;
__constant__ float table[16];
__device__ double pair[2];
extern "C" __global__ void bump(int by) { atomicAdd(&counter, by); }
extern "C" __global__ void lookup(const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[idx[i]];
}
extern "C" __global__ void read_pair(double* out) { out[0] = pair[0]; out[1] = pair[1]; }
'''


@pytest.fixture(scope="module")
def globals_module():
    return kumo.RawModule(code=GLOBALS_SRC)


def test_get_global_default_is_uint8_over_the_symbol(globals_module):
    g = globals_module.get_global("table")
    assert g.dtype == np.uint8
    assert g.shape == (64,)


def test_get_global_with_dtype_and_shape(globals_module):
    g = globals_module.get_global("pair", dtype=np.float64, shape=(2,))
    assert g.dtype == np.float64 and g.shape == (2,)


def test_get_global_write_then_kernel_reads(globals_module):
    table = globals_module.get_global("table", dtype=np.float32)
    assert table.shape == (16,)
    table[...] = kumo.asarray(np.arange(16, dtype=np.float32) * 1.5)
    idx = kumo.asarray(np.array([3, 0, 15, 7], dtype=np.int32))
    out = kumo.zeros(4, dtype="float32")
    globals_module.get_function("lookup")((1,), (32,), (idx, out, np.int32(4)))
    np.testing.assert_array_equal(kumo.asnumpy(out), np.array([3, 0, 15, 7], np.float32) * 1.5)


def test_kernel_writes_then_get_global_reads(globals_module):
    counter = globals_module.get_global("counter", dtype=np.int32)
    counter[...] = 0
    globals_module.get_function("bump")((8,), (64,), (np.int32(2),))
    assert int(kumo.asnumpy(counter)[0]) == 8 * 64 * 2


def test_get_global_round_trip_double(globals_module):
    pair = globals_module.get_global("pair", dtype=np.float64)
    pair[...] = kumo.asarray(np.array([1.25, -7.5]))
    out = kumo.zeros(2, dtype="float64")
    globals_module.get_function("read_pair")((1,), (1,), (out,))
    np.testing.assert_array_equal(kumo.asnumpy(out), [1.25, -7.5])


def test_get_global_unknown_name_is_named(globals_module):
    with pytest.raises(RuntimeError, match="no_such_global"):
        globals_module.get_global("no_such_global")


def test_get_global_shape_too_big_raises(globals_module):
    with pytest.raises(ValueError):
        globals_module.get_global("table", dtype=np.float32, shape=(17,))


TEMPLATE_SRC = r'''
template <typename T, int N>
__global__ void scale(const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * (T)N;
}
template <typename T>
__global__ void add_one(T* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += (T)1;
}
extern "C" __global__ void plain(int* x) { x[0] = 7; }
'''
EXPRS = ("scale<float, 3>", "scale<double, 5>", "scale<int, 2>", "add_one<long long>")


@pytest.fixture(scope="module")
def template_module():
    return kumo.RawModule(code=TEMPLATE_SRC, name_expressions=EXPRS)


@pytest.mark.parametrize("expr,dtype,factor", [("scale<float, 3>", np.float32, 3), ("scale<double, 5>", np.float64, 5),
                                               ("scale<int, 2>", np.int32, 2)])
def test_name_expression_template_kernels(template_module, expr, dtype, factor):
    x = np.arange(100, dtype=dtype)
    y = kumo.zeros(100, dtype=dtype)
    template_module.get_function(expr)((4,), (32,), (kumo.asarray(x), y, np.int32(100)))
    np.testing.assert_array_equal(kumo.asnumpy(y), x * factor)


def test_name_expression_lookup_ignores_spaces(template_module):
    x = kumo.asarray(np.arange(5, dtype=np.int64))
    template_module.get_function("add_one<long long >")((1,), (8,), (x, np.int32(5)))
    np.testing.assert_array_equal(kumo.asnumpy(x), np.arange(5) + 1)


def test_plain_kernel_reachable_next_to_name_expressions(template_module):
    x = kumo.zeros(1, dtype="int32")
    template_module.get_function("plain")((1,), (1,), (x,))
    assert int(kumo.asnumpy(x)[0]) == 7


def test_template_not_in_name_expressions_raises(template_module):
    with pytest.raises(RuntimeError, match="scale<float, 4>"):
        template_module.get_function("scale<float, 4>")


CUCOMPLEX_SRC = r'''
#include <cuComplex.h>
extern "C" __global__ void cmul(const cuFloatComplex* a, const cuFloatComplex* b, cuFloatComplex* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = cuCaddf(cuCmulf(a[i], b[i]), make_cuFloatComplex(cuCabsf(a[i]), 0.0f));
}
extern "C" __global__ void zdiv(const cuDoubleComplex* a, const cuDoubleComplex* b, cuDoubleComplex* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = cuConj(cuCdiv(a[i], b[i]));
}
'''


def _cplx(n, dtype, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)


def test_translate_cucomplex_float():
    mod = kumo.RawModule(code=CUCOMPLEX_SRC, translate_cucomplex=True)
    a, b = _cplx(50, np.complex64, 1), _cplx(50, np.complex64, 2)
    c = kumo.zeros(50, dtype="complex64")
    mod.get_function("cmul")((2,), (32,), (kumo.asarray(a), kumo.asarray(b), c, np.int32(50)))
    np.testing.assert_allclose(kumo.asnumpy(c), a * b + np.abs(a), rtol=1e-5)


def test_translate_cucomplex_double():
    mod = kumo.RawModule(code=CUCOMPLEX_SRC, translate_cucomplex=True)
    a, b = _cplx(40, np.complex128, 3), _cplx(40, np.complex128, 4)
    c = kumo.zeros(40, dtype="complex128")
    mod.get_function("zdiv")((2,), (32,), (kumo.asarray(a), kumo.asarray(b), c, np.int32(40)))
    np.testing.assert_allclose(kumo.asnumpy(c), np.conj(a / b), rtol=1e-12)


def test_options_reach_the_compiler():
    src = 'extern "C" __global__ void k(int* out) {\n#ifdef FLAG\n  out[0] = VALUE;\n#else\n  out[0] = -1;\n#endif\n}'
    out = kumo.zeros(1, dtype="int32")
    kumo.RawModule(code=src, options=("-DFLAG", "--define-macro=VALUE=5")).get_function("k")((1,), (1,), (out,))
    assert int(kumo.asnumpy(out)[0]) == 5


def test_code_and_path_are_exclusive(tmp_path):
    with pytest.raises(TypeError):
        kumo.RawModule()
    with pytest.raises(TypeError):
        kumo.RawModule(code="", path=str(tmp_path / "x.cubin"))


def test_path_module_on_the_host_raises_clearly(tmp_path):
    p = tmp_path / "k.ptx"
    p.write_text("// not for the host\n")
    mod = kumo.RawModule(path=str(p))
    with pytest.raises(ValueError, match="only on CUDA"):
        mod.get_function("k")


def test_get_texref_raises():
    mod = kumo.RawModule(code=GLOBALS_SRC)
    with pytest.raises(NotImplementedError, match="textures are not supported"):
        mod.get_texref("tex")


def test_unknown_function_name_is_named():
    mod = kumo.RawModule(code=GLOBALS_SRC)
    with pytest.raises(RuntimeError, match="missing_kernel"):
        mod.get_function("missing_kernel")


def test_compile_then_launch():
    mod = kumo.RawModule(code=TEMPLATE_SRC, name_expressions=["add_one<float>"])
    mod.compile()
    x = kumo.zeros(3, dtype="float32")
    mod.get_function("add_one<float>")((1,), (4,), (x, np.int32(3)))
    np.testing.assert_array_equal(kumo.asnumpy(x), [1, 1, 1])


# ---- The disk cache across processes ----------------------------------------------

_CHILD = textwrap.dedent("""
    import json, sys
    import numpy
    import kumo
    src = '''extern "C" __global__ void probe(float* y, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] = i * 2.0f + %(const)s;
    }'''
    y = kumo.zeros(40, dtype="float32")
    kumo.RawKernel(src, "probe")((2,), (32,), (y, numpy.int32(40)))
    print(json.dumps({"result": kumo.asnumpy(y).tolist(), "stats": kumo._core.kernel_cache_stats()}))
""")


def _child_env(cache_dir):
    e = dict(os.environ)
    e["PYTHONPATH"] = PYTHON_DIR + os.pathsep + e.get("PYTHONPATH", "")
    e["KUMO_CACHE_DIR"] = str(cache_dir)
    e.pop("KUMO_VERIFY_CUDA", None)
    return e


def _run_child(cache_dir, const):
    r = subprocess.run([sys.executable, "-c", _CHILD % {"const": const}], env=_child_env(cache_dir),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_second_process_hits_the_disk_cache(tmp_path):
    first = _run_child(tmp_path, 11)
    second = _run_child(tmp_path, 11)
    want = [i * 2.0 + 11 for i in range(40)]
    assert first["result"] == want and second["result"] == want
    assert first["stats"]["host_compiles"] >= 1
    assert second["stats"]["host_compiles"] == 0
    assert second["stats"]["disk_hits"] >= 1


def _concurrent_child(cache_dir, const, queue):
    os.environ["KUMO_CACHE_DIR"] = str(cache_dir)
    r = subprocess.run([sys.executable, "-c", _CHILD % {"const": const}], env=_child_env(cache_dir),
                       capture_output=True, text=True, timeout=300)
    queue.put((r.returncode, r.stdout, r.stderr[-2000:]))


def test_two_processes_compile_the_same_new_kernel_at_once(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_concurrent_child, args=(tmp_path, 13, queue)) for _ in range(2)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    want = [i * 2.0 + 13 for i in range(40)]
    for rc, out, err in results:
        assert rc == 0, err
        assert json.loads(out.strip().splitlines()[-1])["result"] == want
    # A third process finds the entry both wrote (atomically) intact.
    assert _run_child(tmp_path, 13)["stats"]["host_compiles"] == 0


def test_include_path_option_reaches_the_host_compiler(tmp_path):
    (tmp_path / "my_consts.h").write_text("#define MY_SCALE 6\n")
    src = '#include "my_consts.h"\nextern "C" __global__ void k(int* out) { out[0] = MY_SCALE * 7; }\n'
    out = kumo.zeros(1, dtype="int32")
    kumo.RawKernel(src, "k", options=("-I" + str(tmp_path),))((1,), (1,), (out,))
    assert int(kumo.asnumpy(out)[0]) == 42


def test_newer_language_standard_is_passed_on():
    src = ('extern "C" __global__ void k(int* out) {\n#if __cplusplus > 201703L\n  out[0] = 20;\n#else\n'
           '  out[0] = 17;\n#endif\n}\n')
    out = kumo.zeros(1, dtype="int32")
    kumo.RawKernel(src, "k", options=("-std=c++20",))((1,), (1,), (out,))
    assert int(kumo.asnumpy(out)[0]) == 20
