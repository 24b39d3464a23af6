"""kumo.sparse.save_npz / load_npz against scipy.sparse's: files written by
either library read by the other, compressed or not, for every format and
both flavours (the *_array flag), with dtypes and empty matrices."""
import numpy
import pytest
import scipy.sparse as sps

import kumo
import kumo.sparse as ks

FORMATS = ["coo", "csr", "csc", "dia", "bsr"]
KINDS = ["array", "matrix"]
DTYPES = [numpy.bool_, numpy.int8, numpy.int64, numpy.uint32, numpy.float32, numpy.float64, numpy.complex64,
          numpy.complex128]


def scipy_matrix(fmt, kind, dtype=numpy.float64, shape=(6, 4), seed=0):
    rng = numpy.random.default_rng(seed)
    dense = (rng.integers(-3, 4, shape) * (rng.random(shape) < 0.5))
    if numpy.dtype(dtype).kind == "c":
        dense = dense + 1j * dense[::-1]
    dense = numpy.abs(dense) if numpy.dtype(dtype).kind == "u" else dense
    return getattr(sps, f"{fmt}_{kind}")(dense.astype(dtype))


def same_stored(k, s):
    """kumo object k and SciPy object s hold the same arrays, class kind and format."""
    assert k.format == s.format and k.shape == s.shape and k.dtype == s.dtype
    assert isinstance(k, ks.sparray) == isinstance(s, sps.sparray)
    names = {"coo": ["row", "col"], "dia": ["offsets"]}.get(s.format, ["indices", "indptr"])
    for name in names + ["data"]:
        numpy.testing.assert_array_equal(kumo.asnumpy(getattr(k, name)), getattr(s, name))
    numpy.testing.assert_array_equal(kumo.asnumpy(k.toarray()), s.toarray())


@pytest.mark.parametrize("compressed", [True, False])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_kumo_writes_scipy_reads(fmt, kind, compressed, tmp_path):
    s = scipy_matrix(fmt, kind)
    path = tmp_path / "m.npz"
    ks.save_npz(str(path), getattr(ks, f"{fmt}_{kind}")(s), compressed=compressed)
    back = sps.load_npz(str(path))
    assert type(back) is type(s)
    assert back.format == s.format
    numpy.testing.assert_array_equal(back.toarray(), s.toarray())
    numpy.testing.assert_array_equal(back.data, s.data)


@pytest.mark.parametrize("compressed", [True, False])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_scipy_writes_kumo_reads(fmt, kind, compressed, tmp_path):
    s = scipy_matrix(fmt, kind, seed=1)
    path = tmp_path / "m.npz"
    sps.save_npz(str(path), s, compressed=compressed)
    k = ks.load_npz(str(path))
    assert type(k) is getattr(ks, f"{fmt}_{kind}")
    same_stored(k, s)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_roundtrip_dtypes(fmt, dtype, tmp_path):
    s = scipy_matrix(fmt, "array", dtype=dtype, seed=2)
    path = tmp_path / "m.npz"
    ks.save_npz(str(path), getattr(ks, f"{fmt}_array")(s))
    same_stored(ks.load_npz(str(path)), s)
    same_stored(ks.load_npz(str(path)), sps.load_npz(str(path)))


@pytest.mark.parametrize("fmt", FORMATS)
def test_empty_matrices(fmt, tmp_path):
    s = getattr(sps, f"{fmt}_matrix")((0, 3)) if fmt != "bsr" else sps.bsr_matrix((0, 3))
    path = tmp_path / "e.npz"
    ks.save_npz(str(path), getattr(ks, f"{fmt}_matrix")(s))
    back = sps.load_npz(str(path))
    assert back.shape == (0, 3) and back.nnz == 0 and back.format == fmt


def test_noncanonical_coo_keeps_entries(tmp_path):
    data, row, col = numpy.array([1.0, 2.0, 0.0]), numpy.array([2, 2, 0]), numpy.array([1, 1, 0])
    k = ks.coo_array((data, (row, col)), shape=(3, 3))
    path = tmp_path / "c.npz"
    ks.save_npz(str(path), k)
    s = sps.load_npz(str(path))
    numpy.testing.assert_array_equal(s.row, row)
    numpy.testing.assert_array_equal(s.data, data)


def test_suffix_added_and_file_objects(tmp_path):
    k = ks.csr_matrix(numpy.eye(3))
    ks.save_npz(str(tmp_path / "noext"), k)
    assert (tmp_path / "noext.npz").exists()
    with open(tmp_path / "f.npz", "wb") as f:
        ks.save_npz(f, k)
    with open(tmp_path / "f.npz", "rb") as f:
        back = ks.load_npz(f)
    numpy.testing.assert_array_equal(kumo.asnumpy(back.toarray()), numpy.eye(3))


def test_not_a_sparse_file(tmp_path):
    path = tmp_path / "plain.npz"
    numpy.savez(path, a=numpy.ones(3))
    with pytest.raises(ValueError):
        sps.load_npz(str(path))
    with pytest.raises(ValueError, match="does not contain a sparse"):
        ks.load_npz(str(path))


def test_unknown_format(tmp_path):
    path = tmp_path / "odd.npz"
    numpy.savez(path, format=numpy.array(b"xyz"), shape=numpy.array([2, 2]), data=numpy.ones(1))
    with pytest.raises(ValueError):
        sps.load_npz(str(path))
    with pytest.raises(ValueError, match="Unknown format"):
        ks.load_npz(str(path))


def test_save_scipy_object_directly(tmp_path):
    s = scipy_matrix("csc", "array", seed=3)
    path = tmp_path / "s.npz"
    ks.save_npz(str(path), s)
    same_stored(ks.load_npz(str(path)), s)


def test_one_dimensional_coo_loads_as_1d(tmp_path):
    path = tmp_path / "v.npz"
    sps.save_npz(str(path), sps.coo_array(numpy.array([0.0, 1.0, 2.0])))
    loaded = ks.load_npz(str(path))
    assert type(loaded) is ks.coo_array and loaded.shape == (3,)
    numpy.testing.assert_array_equal(kumo.asnumpy(loaded.toarray()), [0.0, 1.0, 2.0])
