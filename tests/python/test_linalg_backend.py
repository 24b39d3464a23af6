"""The kumo._core.linalg binding contract (BLAS/LAPACK over batches of
column-major matrices) checked against NumPy on the current device."""
import numpy
import pytest

import kumo
from kumo._core import linalg as L

DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def tol(dtype):
    return 2e-4 if numpy.dtype(dtype) in (numpy.float32, numpy.complex64) else 1e-10


def rnd(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def col_major(x, pad=0):
    """kumo copy of a (batch, rows, cols) NumPy array holding column-major
    matrices; pad > 0 leaves a leading dimension of rows + pad."""
    b, r, c = x.shape
    full = numpy.zeros((b, c, r + pad), dtype=x.dtype)
    full[:, :, :r] = x.transpose(0, 2, 1)
    k = kumo.array(full).transpose(0, 2, 1)
    return k[:, :r, :] if pad else k


def row_major(x):
    return kumo.array(numpy.ascontiguousarray(x))


def stepped(x):
    """Same values behind negative and stepped strides (neither row- nor column-major)."""
    doubled = numpy.repeat(x[:, ::-1, ::-1], 2, axis=2)
    return kumo.array(doubled)[:, ::-1, ::-2]


LAYOUTS = {"row": row_major, "col": col_major, "stepped": stepped}


def empty_out(shape, dtype, layout):
    b, m, n = shape
    if layout == "row":
        return kumo.empty((b, m, n), dtype=dtype)
    return kumo.empty((b, n, m), dtype=dtype).transpose(0, 2, 1)


def host(x):
    return kumo.asnumpy(x)


def assert_close(actual, expected, dtype, scale=10):
    numpy.testing.assert_allclose(actual, expected, rtol=scale * tol(dtype), atol=scale * tol(dtype))


# ---- gemm ----


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("a_layout", ["row", "col", "stepped"])
@pytest.mark.parametrize("b_layout", ["row", "col", "stepped"])
@pytest.mark.parametrize("out_layout", ["row", "col"])
@pytest.mark.parametrize("batches", [(3, 3, 3), (1, 3, 3), (3, 1, 3), (1, 1, 1)])
def test_gemm_matches_matmul(dtype, a_layout, b_layout, out_layout, batches):
    ba, bb, b = batches
    a = rnd((ba, 4, 5), dtype, 1)
    bm = rnd((bb, 5, 3), dtype, 2)
    out = empty_out((b, 4, 3), dtype, out_layout)
    assert L.gemm(LAYOUTS[a_layout](a), LAYOUTS[b_layout](bm), out) is None
    assert_close(host(out), numpy.matmul(a, bm), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("out_layout", ["row", "col"])
def test_gemm_larger_batched_products(dtype, out_layout):
    # Sizes where the backend switches from per-matrix calls to whole-batch ones.
    a = rnd((3, 50, 60), dtype, 3)
    bm = rnd((1, 60, 70), dtype, 4)
    out = empty_out((3, 50, 70), dtype, out_layout)
    L.gemm(col_major(a), row_major(bm), out)
    assert_close(host(out), numpy.matmul(a, bm), dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_many_small_products(dtype):
    a = rnd((500, 8, 8), dtype, 5)
    bm = rnd((500, 8, 8), dtype, 6)
    out = kumo.empty((500, 8, 8), dtype=dtype)
    L.gemm(row_major(a), row_major(bm), out)
    assert_close(host(out), numpy.matmul(a, bm), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 5, 1), (4, 1, 3), (1, 1, 1)])
def test_gemm_vector_shapes(dtype, shape):
    m, k, n = shape
    a = rnd((2, m, k), dtype, 7)
    bm = rnd((2, k, n), dtype, 8)
    # Transposed views of single rows/columns have arbitrary strides on the unit axis.
    ka = kumo.array(numpy.ascontiguousarray(a.transpose(0, 2, 1))).transpose(0, 2, 1)
    kb = kumo.array(numpy.ascontiguousarray(bm.transpose(0, 2, 1))).transpose(0, 2, 1)
    out = kumo.empty((2, m, n), dtype=dtype)
    L.gemm(ka, kb, out)
    assert_close(host(out), numpy.matmul(a, bm), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_zero_inner_size_gives_zeros(dtype):
    out = kumo.array(numpy.full((2, 3, 4), numpy.nan, dtype=dtype))
    L.gemm(kumo.empty((2, 3, 0), dtype=dtype), kumo.empty((2, 0, 4), dtype=dtype), out)
    numpy.testing.assert_array_equal(host(out), numpy.zeros((2, 3, 4), dtype=dtype))


@pytest.mark.parametrize("shape", [(0, 3, 4, 5), (2, 0, 4, 5), (2, 3, 4, 0)])
def test_gemm_empty_output(shape):
    b, m, k, n = shape
    out = kumo.empty((b, m, n), dtype=numpy.float64)
    L.gemm(kumo.empty((b, m, k)), kumo.empty((b, k, n)), out)
    assert out.shape == (b, m, n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_out_aliasing_an_input(dtype):
    a = rnd((2, 4, 4), dtype, 9)
    b = rnd((2, 4, 4), dtype, 10)
    ka, kb = row_major(a), row_major(b)
    L.gemm(ka, kb, ka)
    assert_close(host(ka), numpy.matmul(a, b), dtype)
    L.gemm(kb, kb, kb)
    assert_close(host(kb), numpy.matmul(b, b), dtype)


def test_gemm_rejects_mixed_dtypes():
    with pytest.raises(TypeError):
        L.gemm(kumo.ones((1, 2, 2), dtype=numpy.float32), kumo.ones((1, 2, 2)), kumo.empty((1, 2, 2)))


def test_gemm_rejects_integer_dtype():
    a = kumo.ones((1, 2, 2), dtype=numpy.int64)
    with pytest.raises(TypeError):
        L.gemm(a, a, kumo.empty((1, 2, 2), dtype=numpy.int64))


@pytest.mark.parametrize("shapes", [((1, 2, 3), (1, 4, 2), (1, 2, 2)), ((1, 2, 3), (1, 3, 2), (1, 3, 2)),
                                    ((2, 2, 3), (3, 3, 2), (3, 2, 2))])
def test_gemm_rejects_mismatched_shapes(shapes):
    sa, sb, so = shapes
    with pytest.raises(ValueError):
        L.gemm(kumo.ones(sa), kumo.ones(sb), kumo.empty(so))


def test_gemm_rejects_non_3d():
    with pytest.raises(ValueError):
        L.gemm(kumo.ones((2, 2)), kumo.ones((2, 2)), kumo.empty((2, 2)))


def test_gemm_rejects_strided_out():
    out = kumo.empty((1, 4, 6))[:, ::2, ::2]
    with pytest.raises(ValueError):
        L.gemm(kumo.ones((1, 2, 3)), kumo.ones((1, 3, 3)), out)


def test_gemm_rejects_read_only_out():
    out = kumo.broadcast_to(kumo.empty((1, 2, 2)), (3, 2, 2))
    with pytest.raises(ValueError):
        L.gemm(kumo.ones((3, 2, 2)), kumo.ones((3, 2, 2)), out)


@pytest.mark.skipif(not kumo.cuda.is_available(), reason="needs a CUDA device next to the host")
def test_gemm_rejects_arrays_on_two_devices():
    with kumo.Device("cpu"):
        a = kumo.ones((1, 2, 2))
    with kumo.Device("cuda:0"):
        b = kumo.ones((1, 2, 2))
        out = kumo.empty((1, 2, 2))
    with pytest.raises(kumo._core.DeviceError):
        L.gemm(a, b, out)


# ---- getrf / getrs ----


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trans", ["N", "T", "C"])
@pytest.mark.parametrize("batch,n,nrhs", [(1, 6, 2), (40, 5, 3), (1, 80, 1)])
def test_getrf_getrs_solve(dtype, trans, batch, n, nrhs):
    a = rnd((batch, n, n), dtype, 10) + 3 * numpy.eye(n, dtype=dtype)
    b = rnd((batch, n, nrhs), dtype, 11)
    ka = col_major(a, pad=2)
    ipiv, info = L.getrf(ka)
    assert ipiv.dtype == numpy.int32 and ipiv.shape == (batch, n)
    numpy.testing.assert_array_equal(host(info), numpy.zeros(batch, dtype=numpy.int32))
    kb = col_major(b)
    L.getrs(ka, ipiv, kb, trans)
    op = {"N": a, "T": a.transpose(0, 2, 1), "C": a.conj().transpose(0, 2, 1)}[trans]
    assert_close(host(kb), numpy.linalg.solve(op, b), dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
def test_getrf_reports_singular_matrix(dtype):
    a = numpy.stack([numpy.eye(3, dtype=dtype), numpy.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], dtype=dtype)])
    _, info = L.getrf(col_major(a))
    info = host(info)
    assert info[0] == 0 and info[1] > 0


def test_getrf_zero_size():
    ipiv, info = L.getrf(kumo.empty((3, 0, 0)))
    assert ipiv.shape == (3, 0)
    numpy.testing.assert_array_equal(host(info), numpy.zeros(3, dtype=numpy.int32))


@pytest.mark.parametrize("step", [2, -1, -2])
def test_getrf_of_batch_slice(step):
    a = rnd((6, 4, 4), numpy.float64, 12) + 2 * numpy.eye(4)
    full = col_major(a)
    sub = full[::step]
    _, info = L.getrf(sub)
    lu = host(sub)
    expect = col_major(numpy.ascontiguousarray(a[::step]))
    L.getrf(expect)
    numpy.testing.assert_allclose(lu, host(expect))
    assert host(info).tolist() == [0] * len(a[::step])
    # Entries outside the slice are untouched.
    if step == 2:
        numpy.testing.assert_array_equal(host(full)[1::2], a[1::2])


def test_getrf_rejects_row_major():
    with pytest.raises(ValueError, match="column-major"):
        L.getrf(kumo.ones((1, 3, 3)))


def test_getrf_rejects_non_square():
    with pytest.raises(ValueError, match="square"):
        L.getrf(col_major(numpy.ones((1, 3, 2))))


def test_getrf_rejects_integer_dtype():
    with pytest.raises(TypeError):
        L.getrf(kumo.empty((1, 2, 2), dtype=numpy.int32).transpose(0, 2, 1))


def test_getrf_rejects_read_only():
    a = kumo.broadcast_to(col_major(numpy.eye(2)[None]), (1, 2, 2))
    with pytest.raises(ValueError, match="read-only"):
        L.getrf(a)


def test_getrs_rejects_bad_trans_and_shapes():
    lu = col_major(numpy.eye(3)[None])
    ipiv, _ = L.getrf(lu)
    with pytest.raises(ValueError):
        L.getrs(lu, ipiv, col_major(numpy.ones((1, 3, 1))), "X")
    with pytest.raises(ValueError):
        L.getrs(lu, ipiv, col_major(numpy.ones((1, 2, 1))), "N")
    with pytest.raises(TypeError):
        L.getrs(lu, ipiv, col_major(numpy.ones((1, 3, 1), dtype=numpy.float32)), "N")
    with pytest.raises(TypeError):
        L.getrs(lu, kumo.ones((1, 3), dtype=numpy.int64), col_major(numpy.ones((1, 3, 1))), "N")


# ---- potrf ----


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch,n", [(1, 7), (30, 4)])
def test_potrf_matches_cholesky(dtype, batch, n):
    x = rnd((batch, n, n), dtype, 13)
    a = x @ x.conj().transpose(0, 2, 1) + n * numpy.eye(n, dtype=dtype)
    ka = col_major(a)
    info = L.potrf(ka)
    numpy.testing.assert_array_equal(host(info), numpy.zeros(batch, dtype=numpy.int32))
    assert_close(numpy.tril(host(ka)), numpy.linalg.cholesky(a), dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
def test_potrf_reports_not_positive_definite(dtype):
    a = numpy.stack([numpy.diag([1.0, 2.0, -1.0]), numpy.eye(3)]).astype(dtype)
    assert host(L.potrf(col_major(a))).tolist() == [3, 0]


# ---- geqrf / orgqr ----


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m,n", [(6, 4), (4, 4)])
def test_geqrf_orgqr_reduced_qr(dtype, m, n):
    a = rnd((3, m, n), dtype, 14)
    ka = col_major(a)
    tau, info = L.geqrf(ka)
    assert tau.shape == (3, n) and tau.dtype == numpy.dtype(dtype)
    r = numpy.triu(host(ka)[:, :n, :])
    info = L.orgqr(ka, tau, n)
    q = host(ka)
    numpy.testing.assert_array_equal(host(info), numpy.zeros(3, dtype=numpy.int32))
    assert_close(q @ r, a, dtype, scale=100)
    assert_close(numpy.abs(r), numpy.abs(numpy.linalg.qr(a)[1]), dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
def test_orgqr_complete_q_from_narrow_factorization(dtype):
    a = rnd((2, 5, 3), dtype, 15)
    ka = col_major(a)
    tau, _ = L.geqrf(ka)
    full = numpy.zeros((2, 5, 5), dtype=dtype)
    full[:, :, :3] = host(ka)
    kq = col_major(full)
    L.orgqr(kq, tau, 3)
    q = host(kq)
    assert_close(q.conj().transpose(0, 2, 1) @ q, numpy.broadcast_to(numpy.eye(5), (2, 5, 5)), dtype, scale=100)
    assert_close(q[:, :, :3] @ numpy.triu(host(ka)[:, :3, :]), a, dtype, scale=100)


def test_orgqr_rejects_wide_matrix_and_large_k():
    tau, _ = L.geqrf(col_major(numpy.ones((1, 3, 3))))
    with pytest.raises(ValueError):
        L.orgqr(col_major(numpy.ones((1, 2, 3))), tau, 2)
    with pytest.raises(ValueError):
        L.orgqr(col_major(numpy.ones((1, 3, 3))), tau, 4)


# ---- gesvd ----


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(2, 6, 4), (2, 3, 5), (1, 4, 4), (20, 3, 3)])
@pytest.mark.parametrize("job", ["N", "S", "A"])
def test_gesvd_against_numpy(dtype, shape, job):
    a = rnd(shape, dtype, 16)
    s, u, vt, info = L.gesvd(col_major(a), job)
    b, m, n = shape
    k = min(m, n)
    numpy.testing.assert_array_equal(host(info), numpy.zeros(b, dtype=numpy.int32))
    assert s.dtype == numpy.dtype(dtype).type(0).real.dtype
    assert_close(host(s), numpy.linalg.svd(a, compute_uv=False), dtype, scale=100)
    if job == "N":
        assert u is None and vt is None
        return
    assert u.shape == (b, m, m if job == "A" else k) and vt.shape == (b, n if job == "A" else k, n)
    uh, vh, sh = host(u), host(vt), host(s)
    assert_close((uh[:, :, :k] * sh[:, None, :]) @ vh[:, :k, :], a, dtype, scale=100)
    assert_close(uh.conj().transpose(0, 2, 1) @ uh, numpy.broadcast_to(numpy.eye(uh.shape[2]), (b,) + (uh.shape[2],) * 2),
                 dtype, scale=100)


def test_gesvd_empty_matrix_full_bases_are_identities():
    s, u, vt, info = L.gesvd(kumo.empty((2, 0, 3)).transpose(0, 2, 1), "A")  # (2, 3, 0)
    assert s.shape == (2, 0)
    numpy.testing.assert_array_equal(host(u), numpy.broadcast_to(numpy.eye(3), (2, 3, 3)))
    assert vt.shape == (2, 0, 0)


def test_gesvd_rejects_bad_job():
    with pytest.raises(ValueError):
        L.gesvd(col_major(numpy.ones((1, 2, 2))), "X")


# ---- syevd ----


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch,n", [(1, 8), (25, 4)])
def test_syevd_against_eigh(dtype, batch, n):
    x = rnd((batch, n, n), dtype, 17)
    h = (x + x.conj().transpose(0, 2, 1)) / 2
    w, info = L.syevd(col_major(h), False)
    assert w.dtype == numpy.dtype(dtype).type(0).real.dtype
    assert_close(host(w), numpy.linalg.eigvalsh(h), dtype, scale=100)
    kv = col_major(h)
    w, info = L.syevd(kv, True)
    numpy.testing.assert_array_equal(host(info), numpy.zeros(batch, dtype=numpy.int32))
    v, wh = host(kv), host(w)
    assert_close(h @ v, v * wh[:, None, :], dtype, scale=100)


def test_syevd_reads_only_lower_triangle():
    h = numpy.array([[[2.0, 99.0], [1.0, 2.0]]])  # upper entry is garbage
    w, _ = L.syevd(col_major(h), False)
    numpy.testing.assert_allclose(host(w), [[1.0, 3.0]])


# ---- geev ----


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch,n", [(1, 6), (20, 4)])
def test_geev_eigenvalues_as_sorted_sets(dtype, batch, n):
    a = rnd((batch, n, n), dtype, 18)
    w, vr, info = L.geev(col_major(a), False)
    assert vr is None
    expected_dtype = numpy.complex64 if numpy.dtype(dtype) in (numpy.float32, numpy.complex64) else numpy.complex128
    assert w.dtype == expected_dtype
    expected = numpy.sort_complex(numpy.linalg.eigvals(a))
    assert_close(numpy.sort_complex(host(w)), expected, dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
def test_geev_vectors(dtype):
    a = rnd((3, 5, 5), dtype, 19)
    w, vr, info = L.geev(col_major(a), True)
    numpy.testing.assert_array_equal(host(info), numpy.zeros(3, dtype=numpy.int32))
    v, wh = host(vr), host(w)
    assert v.shape == (3, 5, 5) and v.dtype == wh.dtype
    assert_close(a @ v, v * wh[:, None, :], dtype, scale=100)
    assert_close(numpy.linalg.norm(v, axis=1), numpy.ones((3, 5)), dtype, scale=100)


def test_geev_real_matrix_complex_pair():
    a = numpy.array([[[0.0, -1.0], [1.0, 0.0]]])
    w, vr, _ = L.geev(col_major(a), True)
    numpy.testing.assert_allclose(numpy.sort_complex(host(w)[0]), [-1j, 1j], atol=1e-14)
    v = host(vr)
    numpy.testing.assert_allclose(a @ v, v * host(w)[:, None, :], atol=1e-14)
