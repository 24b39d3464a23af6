"""kumo.save/load/savez/fromfile/... against NumPy: files written by one load in
the other, byte for byte where NumPy's output is deterministic."""
import io
import os
import pickle
import zipfile

import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, make_numpy, to_kumo

LAYOUTS = ["0d", "empty", "1d", "3d", "broadcast", "transposed", "negative"]


def host(a):
    return kumo.asnumpy(a)


def assert_same(k, n):
    got = host(k)
    assert got.dtype == n.dtype
    assert got.shape == n.shape
    numpy.testing.assert_array_equal(got, n)


# ---- .npy ----

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_save_is_numpys_bytes(tmp_path, dtype, layout):
    n = make_numpy(layout, dtype)
    k = to_kumo(n)
    kumo.save(tmp_path / "k", k)  # suffix appended as NumPy does
    numpy.save(tmp_path / "n", n)
    assert (tmp_path / "k.npy").read_bytes() == (tmp_path / "n.npy").read_bytes()
    assert_same(kumo.load(tmp_path / "n.npy"), n)
    assert_same(kumo.load(str(tmp_path / "k.npy")), numpy.load(tmp_path / "k.npy"))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float16, numpy.float64, numpy.complex64, numpy.uint64])
def test_fortran_order_matches_numpy(tmp_path, dtype):
    n = numpy.asfortranarray(make_numpy("3d", dtype))
    k = kumo.array(n, order="F")
    assert k.flags.f_contiguous and not k.flags.c_contiguous
    kbuf, nbuf = io.BytesIO(), io.BytesIO()
    kumo.save(kbuf, k)
    numpy.save(nbuf, n)
    assert kbuf.getvalue() == nbuf.getvalue()
    back = kumo.load(io.BytesIO(nbuf.getvalue()))
    assert back.flags.f_contiguous
    assert_same(back, n)


@pytest.mark.parametrize("dtype", [numpy.int16, numpy.uint32, numpy.int64, numpy.float16, numpy.float32,
                                   numpy.float64, numpy.complex64, numpy.complex128])
def test_big_endian_files_from_numpy(tmp_path, dtype):
    n = make_numpy("3d", dtype).astype(numpy.dtype(dtype).newbyteorder(">"))
    numpy.save(tmp_path / "be.npy", n)
    assert b"'descr': '>" in (tmp_path / "be.npy").read_bytes()[:128]
    k = kumo.load(tmp_path / "be.npy")
    assert host(k).dtype == numpy.dtype(dtype)
    numpy.testing.assert_array_equal(host(k), n)


def test_file_objects_and_sequential_arrays(tmp_path):
    a, b = numpy.arange(5.0), numpy.arange(6, dtype=numpy.int8).reshape(2, 3)
    with open(tmp_path / "two.npy", "wb") as f:
        kumo.save(f, kumo.asarray(a))
        numpy.save(f, b)
    with open(tmp_path / "two.npy", "rb") as f:
        first = kumo.load(f)
        second = numpy.load(f)  # the file is positioned just after the first array
    assert_same(first, a)
    numpy.testing.assert_array_equal(second, b)
    with open(tmp_path / "two.npy", "rb") as f:
        numpy.load(f)
        assert_same(kumo.load(f), b)


def test_save_accepts_array_likes_and_keeps_the_path(tmp_path):
    kumo.save(str(tmp_path / "x.npy"), [[1, 2], [3, 4]])
    assert not (tmp_path / "x.npy.npy").exists()
    numpy.testing.assert_array_equal(numpy.load(tmp_path / "x.npy"), [[1, 2], [3, 4]])


def test_mmap_modes(tmp_path):
    p = tmp_path / "m.npy"
    numpy.save(p, numpy.arange(12.0).reshape(3, 4))
    r = kumo.load(p, mmap_mode="r")
    assert not r.flags.writeable
    numpy.testing.assert_array_equal(host(r), numpy.arange(12.0).reshape(3, 4))
    w = kumo.load(p, mmap_mode="r+", device="cpu")
    w[0, 0] = 99.0
    del w
    assert numpy.load(p)[0, 0] == 99.0
    c = kumo.load(p, mmap_mode="c", device="cpu")
    c[0, 1] = -5.0
    assert host(c)[0, 1] == -5.0
    assert numpy.load(p)[0, 1] == 1.0
    with pytest.raises(ValueError):
        kumo.load(p, mmap_mode="x")


def test_errors_as_numpy(tmp_path):
    p = tmp_path / "bad.npy"
    p.write_bytes(b"\x93NUMPZ\x01\x00 garbage")
    with pytest.raises(ValueError, match="pickled"):  # NumPy's message for files that are neither npy nor npz
        kumo.load(p)
    with pytest.raises(ValueError, match="pickled"):
        numpy.load(p)
    p.write_bytes(b"")
    with pytest.raises(EOFError):
        kumo.load(p)
    with pytest.raises(FileNotFoundError):
        kumo.load(tmp_path / "missing.npy")
    with pytest.raises(ValueError, match="encoding must be"):
        kumo.load(p, encoding="utf8")
    header = numpy.lib.format
    buf = io.BytesIO()
    header.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False, "shape": (4,)})
    buf.write(b"\0" * 8)  # 1 of 4 elements
    with pytest.raises(ValueError, match="Failed to read all data"):
        kumo.load(io.BytesIO(buf.getvalue()))


def test_pickle_only_when_allowed(tmp_path):
    obj = numpy.array([{"a": 1}, None, "text"], dtype=object)
    numpy.save(tmp_path / "o.npy", obj)
    with pytest.raises(ValueError, match="Object arrays cannot be loaded when allow_pickle=False"):
        kumo.load(tmp_path / "o.npy")
    got = kumo.load(tmp_path / "o.npy", allow_pickle=True)
    assert list(got) == list(obj)
    with pytest.raises(ValueError, match="Object arrays cannot be saved when allow_pickle=False"):
        kumo.save(tmp_path / "o2.npy", obj, allow_pickle=False)
    kumo.save(tmp_path / "o2.npy", obj)
    assert list(numpy.load(tmp_path / "o2.npy", allow_pickle=True)) == list(obj)
    with open(tmp_path / "p.pkl", "wb") as f:
        pickle.dump({"x": 1}, f)
    with pytest.raises(ValueError, match="allow_pickle"):
        kumo.load(tmp_path / "p.pkl")
    assert kumo.load(tmp_path / "p.pkl", allow_pickle=True) == {"x": 1}


def test_max_header_size(tmp_path):
    n = numpy.zeros(3, dtype=[(f"field_with_a_long_name_{i}", "f8") for i in range(400)])
    numpy.save(tmp_path / "s.npy", n)  # a structured header longer than 10000 characters
    with pytest.raises(ValueError, match="Header info length"):
        kumo.load(tmp_path / "s.npy")
    with pytest.raises(TypeError):  # kumo has no structured dtypes
        kumo.load(tmp_path / "s.npy", max_header_size=10**6)


def test_load_on_a_chosen_device(tmp_path):
    numpy.save(tmp_path / "d.npy", numpy.arange(4))
    k = kumo.load(tmp_path / "d.npy", device="cpu")
    assert k.device == kumo.Device("cpu")
    if kumo.cuda.is_available():
        g = kumo.load(tmp_path / "d.npy", device="cuda:0")
        assert g.device == kumo.Device("cuda", 0)
        numpy.testing.assert_array_equal(host(g), numpy.arange(4))
        kumo.save(tmp_path / "g.npy", g)
        assert (tmp_path / "g.npy").read_bytes() == (tmp_path / "d.npy").read_bytes()


# ---- .npz ----

@pytest.mark.parametrize("compressed", [False, True])
def test_npz_both_ways(tmp_path, compressed):
    arrays = {f"a{i}": make_numpy(layout, dtype, seed=i)
              for i, (layout, dtype) in enumerate(zip(LAYOUTS * 2, ALL_DTYPES))}
    save_k = kumo.savez_compressed if compressed else kumo.savez
    save_n = numpy.savez_compressed if compressed else numpy.savez
    save_k(tmp_path / "k", numpy.arange(3), kumo.arange(2.0), **{k: to_kumo(v) for k, v in arrays.items()})
    save_n(tmp_path / "n", numpy.arange(3), numpy.arange(2.0), **arrays)
    with zipfile.ZipFile(tmp_path / "k.npz") as z:  # Python's own reader accepts the archive
        assert z.testzip() is None
        assert all(i.compress_type == (zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED)
                   for i in z.infolist())
    with numpy.load(tmp_path / "k.npz") as nz, kumo.load(tmp_path / "n.npz") as kz:
        assert nz.files == kz.files == list(arrays) + ["arr_0", "arr_1"]
        for name, want in arrays.items():
            numpy.testing.assert_array_equal(nz[name], want)
            assert_same(kz[name], want)
        assert_same(kz["arr_0.npy"], numpy.arange(3))
        assert_same(kz.f.arr_1, numpy.arange(2.0))
    # each entry is exactly NumPy's .npy bytes
    with zipfile.ZipFile(tmp_path / "k.npz") as zk, zipfile.ZipFile(tmp_path / "n.npz") as zn:
        for name in zn.namelist():
            assert zk.read(name) == zn.read(name), name


def test_npz_mapping_interface(tmp_path):
    kumo.savez(tmp_path / "m.npz", x=kumo.arange(3), y=kumo.ones((2, 2)))
    npz = kumo.load(tmp_path / "m.npz")
    assert isinstance(npz, kumo.NpzFile)
    assert list(npz) == ["x", "y"] == list(npz.keys())
    assert "x" in npz and "x.npy" in npz and "z" not in npz
    assert len(npz) == 2
    with pytest.raises(KeyError, match="z is not a file in the archive"):
        npz["z"]
    assert_same(npz["y"], numpy.ones((2, 2)))
    npz.close()
    with pytest.raises(ValueError):
        npz["x"]
    with pytest.raises(ValueError, match="Cannot use un-named variables and keyword arr_0"):
        kumo.savez(tmp_path / "bad.npz", kumo.arange(2), arr_0=kumo.arange(3))


def test_npz_in_file_objects(tmp_path):
    buf = io.BytesIO()
    kumo.savez_compressed(buf, kumo.arange(10), b=kumo.zeros(3, dtype=kumo.float32))
    npz = numpy.load(io.BytesIO(buf.getvalue()))
    numpy.testing.assert_array_equal(npz["arr_0"], numpy.arange(10))
    k = kumo.load(io.BytesIO(buf.getvalue()))
    assert k.files == ["b", "arr_0"]
    assert_same(k["arr_0"], numpy.arange(10))
    with open(tmp_path / "f.npz", "wb") as f:
        numpy.savez(f, q=numpy.eye(3))
    with open(tmp_path / "f.npz", "rb") as f, kumo.load(f) as npz:
        assert_same(npz["q"], numpy.eye(3))


def test_npz_other_members_and_pickles(tmp_path):
    p = tmp_path / "mixed.npz"
    numpy.savez(p, obj=numpy.array([1, "a"], dtype=object), num=numpy.arange(3))
    with zipfile.ZipFile(p, "a") as z:
        z.writestr("notes.txt", b"hello")
    with kumo.load(p) as npz:
        assert npz.files == ["obj", "num", "notes.txt"]
        assert npz["notes.txt"] == b"hello"
        assert_same(npz["num"], numpy.arange(3))
        with pytest.raises(ValueError, match="Object arrays cannot be loaded"):
            npz["obj"]
    with kumo.load(p, allow_pickle=True) as npz:
        assert list(npz["obj"]) == [1, "a"]


def test_npz_corrupt(tmp_path):
    kumo.savez(tmp_path / "c.npz", a=kumo.arange(100))
    data = bytearray((tmp_path / "c.npz").read_bytes())
    data[300] ^= 0xFF
    (tmp_path / "c.npz").write_bytes(bytes(data))
    with pytest.raises(ValueError, match="CRC"):
        kumo.load(tmp_path / "c.npz")["a"]


# ---- raw files ----

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tofile_fromfile_binary(tmp_path, dtype):
    n = make_numpy("negative", dtype)
    to_kumo(n).tofile(tmp_path / "k.bin")
    n.tofile(tmp_path / "n.bin")
    assert (tmp_path / "k.bin").read_bytes() == (tmp_path / "n.bin").read_bytes()
    assert_same(kumo.fromfile(tmp_path / "n.bin", dtype=dtype), numpy.fromfile(tmp_path / "n.bin", dtype=dtype))
    assert_same(kumo.fromfile(str(tmp_path / "n.bin"), dtype=dtype, count=3, offset=numpy.dtype(dtype).itemsize),
                numpy.fromfile(tmp_path / "n.bin", dtype=dtype, count=3, offset=numpy.dtype(dtype).itemsize))
    with open(tmp_path / "n.bin", "rb") as f:
        assert_same(kumo.fromfile(f, dtype=dtype, count=2), numpy.fromfile(tmp_path / "n.bin", dtype=dtype, count=2))


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint64, numpy.int64, numpy.float16,
                                   numpy.float32, numpy.float64, numpy.complex128])
@pytest.mark.parametrize("sep", [" ", ", ", "\n"])
def test_tofile_text_is_numpys(tmp_path, dtype, sep):
    values = numpy.array([0, 1, 2.5, -3, 1e-5, 1e17, 0.1, 123456.789], dtype=numpy.float64)
    n = values.astype(dtype) if numpy.dtype(dtype).kind in "fc" else numpy.arange(8).astype(dtype)
    if numpy.dtype(dtype).kind == "c":
        n = n + 1j * n[::-1]
    kumo.asarray(n).tofile(tmp_path / "k.txt", sep=sep)
    n.tofile(tmp_path / "n.txt", sep=sep)
    assert (tmp_path / "k.txt").read_text() == (tmp_path / "n.txt").read_text()
    if numpy.dtype(dtype).kind != "c" and dtype is not numpy.bool_:
        assert_same(kumo.fromfile(tmp_path / "n.txt", dtype=dtype, sep=sep),
                    numpy.fromfile(tmp_path / "n.txt", dtype=dtype, sep=sep))


def test_tofile_format(tmp_path):
    n = numpy.array([1.5, -2.25, 3.0])
    for fmt in ["%.3f", "%10.2e", "%d", "%g", "[%s]"]:
        kumo.asarray(n).tofile(tmp_path / "k.txt", sep=";", format=fmt)
        n.tofile(tmp_path / "n.txt", sep=";", format=fmt)
        assert (tmp_path / "k.txt").read_text() == (tmp_path / "n.txt").read_text(), fmt


def test_fromstring_frombuffer_fromiter():
    assert_same(kumo.fromstring("1, 2 ,3", dtype=numpy.int32, sep=","), numpy.array([1, 2, 3], numpy.int32))
    assert_same(kumo.fromstring("1.5 2.5", sep=" "), numpy.fromstring("1.5 2.5", sep=" "))
    assert_same(kumo.fromstring("1 2 3 4", dtype=numpy.int16, count=2, sep=" "), numpy.array([1, 2], numpy.int16))
    with pytest.raises(ValueError, match="binary mode of fromstring is removed"):
        kumo.fromstring(b"\x01\x02", dtype=numpy.uint8, sep="")
    raw = numpy.arange(6, dtype=numpy.float32).tobytes()
    assert_same(kumo.frombuffer(raw, dtype=numpy.float32), numpy.frombuffer(raw, dtype=numpy.float32))
    assert_same(kumo.frombuffer(raw, dtype=numpy.float32, count=2, offset=8),
                numpy.frombuffer(raw, dtype=numpy.float32, count=2, offset=8))
    with pytest.raises(ValueError):
        kumo.frombuffer(raw[:5], dtype=numpy.float32)
    assert_same(kumo.fromiter((i * i for i in range(5)), dtype=numpy.int64), numpy.arange(5) ** 2)
    assert_same(kumo.fromiter(iter(range(10)), dtype=float, count=3), numpy.arange(3.0))
    with pytest.raises(ValueError):
        kumo.fromiter(iter(range(2)), dtype=float, count=3)


# ---- text files ----

def test_loadtxt_options(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("# header line\nskip me\n1,2,3\n4,5,6 # tail\n7,8,9\n")
    got = kumo.loadtxt(p, delimiter=",", skiprows=2, usecols=(0, 2), dtype=numpy.int32)
    assert_same(got, numpy.array([[1, 3], [4, 6], [7, 9]], numpy.int32))
    p.write_text("% c\n1;2\n3;4\n")
    x, y = kumo.loadtxt(p, delimiter=";", comments="%", unpack=True)
    assert_same(x, numpy.array([1.0, 3.0]))
    assert_same(y, numpy.array([2.0, 4.0]))
    assert_same(kumo.loadtxt(p, delimiter=";", skiprows=1, max_rows=1, ndmin=2), numpy.array([[1.0, 2.0]]))


def test_savetxt_is_numpys(tmp_path):
    n = numpy.arange(6.0).reshape(2, 3) / 3
    kumo.savetxt(tmp_path / "k.txt", kumo.asarray(n), fmt="%.4f", delimiter=",", header="a,b,c", footer="end")
    numpy.savetxt(tmp_path / "n.txt", n, fmt="%.4f", delimiter=",", header="a,b,c", footer="end")
    assert (tmp_path / "k.txt").read_text() == (tmp_path / "n.txt").read_text()
    kumo.savetxt(tmp_path / "k.txt", kumo.asarray(n))
    assert_same(kumo.loadtxt(tmp_path / "k.txt"), n)


def test_genfromtxt(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("a b c\n1 2 3\n4 nan 6\n7 8\n")
    with pytest.raises(ValueError):
        kumo.genfromtxt(p, skip_header=1)  # the short row, as NumPy
    p.write_text("a b c\n1 2 3\n4 N/A 6\n")
    got = kumo.genfromtxt(p, skip_header=1, missing_values="N/A", filling_values=-1)
    assert_same(got, numpy.array([[1.0, 2.0, 3.0], [4.0, -1.0, 6.0]]))
    assert_same(kumo.genfromtxt(p, skip_header=1, usecols=(0,), dtype=numpy.int64, missing_values="N/A"),
                numpy.array([1, 4]))
    with pytest.raises(TypeError):
        kumo.genfromtxt(p, names=True, dtype=None)  # structured: not a kumo array


def test_tofile_to_file_objects_and_bad_archives(tmp_path):
    k = kumo.arange(5, dtype=kumo.int16)
    with open(tmp_path / "t.bin", "wb") as f:
        k.tofile(f)
        k.tofile(f, sep=",")
    assert (tmp_path / "t.bin").read_bytes() == numpy.arange(5, dtype=numpy.int16).tobytes() + b"0,1,2,3,4"
    (tmp_path / "no.npz").write_bytes(b"PK\x03\x04 but not really a zip archive")
    with pytest.raises(ValueError, match="not a zip file"):
        kumo.load(tmp_path / "no.npz")
    with pytest.raises(ValueError, match="not a zip file"):
        kumo.NpzFile(io.BytesIO(b"PK\x05\x06"))


def test_file_object_errors_pass_through(tmp_path):
    with open(tmp_path / "t.txt", "w") as f:  # text mode: NumPy also refuses it
        with pytest.raises(TypeError):
            kumo.save(f, kumo.arange(3))


def test_npz_with_more_entries_than_16_bits_is_read_by_zipfile_and_numpy():
    buf = io.BytesIO()
    one = kumo.asarray(numpy.uint8(7))
    kumo.savez(buf, **{f"a{i}": one for i in range(70000)})  # the count needs the ZIP64 end records
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        assert len(z.namelist()) == 70000
    with numpy.load(io.BytesIO(buf.getvalue())) as n:
        assert len(n.files) == 70000
        assert n["a69999"] == 7


@pytest.mark.parametrize("compressed", [False, True])
def test_savez_pickles_object_arrays_only_when_allowed(tmp_path, compressed):
    save = kumo.savez_compressed if compressed else kumo.savez
    obj = numpy.array([{"k": 1}, "text", None], dtype=object)
    save(tmp_path / "o", obj, n=kumo.arange(3))
    with numpy.load(tmp_path / "o.npz", allow_pickle=True) as z:
        assert list(z["arr_0"]) == list(obj)
        numpy.testing.assert_array_equal(z["n"], numpy.arange(3))
    with kumo.load(tmp_path / "o.npz", allow_pickle=True) as z:
        assert list(z["arr_0"]) == list(obj)
    with pytest.raises(ValueError, match="Object arrays cannot be saved when allow_pickle=False"):
        save(tmp_path / "p", obj, allow_pickle=False)


def test_file_objects_for_text_fromfile_and_mmap(tmp_path):
    (tmp_path / "t.txt").write_text("1, 2, 3, 4")
    with open(tmp_path / "t.txt", "rb") as f:
        assert_same(kumo.fromfile(f, dtype=numpy.int32, sep=","), numpy.array([1, 2, 3, 4], numpy.int32))
    numpy.save(tmp_path / "a.npy", numpy.arange(3))
    with open(tmp_path / "a.npy", "rb") as f:
        with pytest.raises(ValueError, match="file name"):
            kumo.load(f, mmap_mode="r")


@pytest.mark.parametrize("value", [numpy.asarray("hello"), numpy.array(["a", "bcd"]), numpy.array([b"x", b"yz"]),
                                   numpy.array(["2020-01-01"], dtype="datetime64[D]")])
def test_savez_dtypes_kumo_lacks_round_trip_as_numpy(tmp_path, value):
    # NumPy's savez writes strings, bytes and datetimes; they come back as NumPy arrays.
    path = str(tmp_path / "s.npz")
    kumo.savez(path, v=value, n=kumo.arange(3))
    with numpy.load(path) as ref:
        numpy.testing.assert_array_equal(ref["v"], value)
    with kumo.load(path) as f:
        got = f["v"]
        assert isinstance(got, numpy.ndarray) and got.dtype == value.dtype
        numpy.testing.assert_array_equal(got, value)
        numpy.testing.assert_array_equal(kumo.asnumpy(f["n"]), numpy.arange(3))
