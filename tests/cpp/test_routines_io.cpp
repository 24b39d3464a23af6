// routines/io.h: .npy headers byte for byte as NumPy writes them, round trips
// of every dtype and layout, files from other writers (big-endian, versions
// 2.0/3.0), .npz archives (stored, deflated, ZIP64 entry counts), raw and
// text element files, and the errors of bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <complex>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

using C = std::complex<double>;

// A fresh path in the test's temporary directory, removed at scope exit.
class TempPath {
 public:
  explicit TempPath(const std::string& name)
      : path_(std::filesystem::path(::testing::TempDir()) / ("kumo_io_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempPath() { std::filesystem::remove(path_); }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Array sample(Dtype dtype, const Shape& shape) {
  Array a = arange(0, shape_size(shape), 1, Dtype::kInt64).reshape(shape);
  if (dtype == Dtype::kBool) return remainder(a, 2).astype(dtype);
  return a.astype(dtype);
}

std::vector<C> values(const Array& a) { return a.to_vector<C>(); }

// A version-1.0 .npy header with the given dict text (padded to 64 bytes).
std::string handmade_header(const std::string& dict, int major = 1) {
  std::string body = dict;
  const size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + body.size() + 1) % 64 != 0) body.push_back(' ');
  body.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back(static_cast<char>(major));
  out.push_back(0);
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) out.push_back(static_cast<char>((body.size() >> (8 * i)) & 0xFF));
  return out + body;
}

template <class E>
void expect_error(const std::function<void()>& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no exception; wanted one with: " << fragment;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(RoutinesIo, HeaderBytesAreNumpys) {
  // NumPy 2: np.save(f, np.zeros((3, 4))) and np.zeros((3, 4), order='F', dtype='>i2').
  const std::string want = std::string("\x93NUMPY\x01\x00v\x00", 10) +
                           "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }" + std::string(58, ' ') + "\n";
  EXPECT_EQ(npy_header_bytes("<f8", false, {3, 4}), want);
  EXPECT_EQ(npy_header_bytes(">i2", true, {3, 4}).substr(10, 60),
            "{'descr': '>i2', 'fortran_order': True, 'shape': (3, 4), }  ");
  EXPECT_EQ(npy_header_bytes("<f8", false, {}).size() % 64, 0u);
  EXPECT_NE(npy_header_bytes("<f8", false, {}).find("'shape': (), }"), std::string::npos);
  EXPECT_NE(npy_header_bytes("|b1", false, {7}).find("'shape': (7,), }"), std::string::npos);
  EXPECT_EQ(npy_descr(Dtype::kBool), "|b1");
  EXPECT_EQ(npy_descr(Dtype::kUInt8), "|u1");
  EXPECT_EQ(npy_descr(Dtype::kFloat16), "<f2");
  EXPECT_EQ(npy_descr(Dtype::kComplex128), "<c16");
}

TEST(RoutinesIo, SaveMatchesHeaderAndData) {
  Array a = sample(Dtype::kFloat64, {3, 4});
  std::ostringstream out;
  save_npy(out, a);
  const std::string s = out.str();
  ASSERT_EQ(s.size(), 128u + 96u);
  EXPECT_EQ(s.substr(0, 128), npy_header_bytes("<f8", false, {3, 4}));
  double v[12];
  std::memcpy(v, s.data() + 128, sizeof v);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(v[i], i);
}

TEST(RoutinesIo, RoundTripEveryDtypeAndShape) {
  const std::vector<Shape> shapes = {{}, {0}, {0, 3}, {5}, {2, 3}, {2, 3, 4}};
  for (int d = 0; d < kNumDtypes; ++d) {
    const auto dtype = static_cast<Dtype>(d);
    for (const Shape& shape : shapes) {
      Array a = sample(dtype, shape);
      std::stringstream io;
      save_npy(io, a);
      Array b = load_npy(io);
      EXPECT_EQ(b.dtype(), dtype) << dtype_name(dtype);
      EXPECT_EQ(b.shape(), shape) << dtype_name(dtype) << shape.to_string();
      EXPECT_EQ(values(b), values(a)) << dtype_name(dtype) << shape.to_string();
    }
  }
}

TEST(RoutinesIo, FortranOrderAndStridedInputs) {
  Array f = sample(Dtype::kInt32, {3, 4}).copy(Order::kF);
  std::stringstream io;
  save_npy(io, f);
  EXPECT_NE(io.str().find("'fortran_order': True"), std::string::npos);
  Array g = load_npy(io);
  EXPECT_TRUE(g.f_contiguous());
  EXPECT_FALSE(g.c_contiguous());
  EXPECT_EQ(values(g), values(f));

  Array base = sample(Dtype::kFloat32, {4, 6});
  Array view = base(slice(none, none, -1), slice(1, none, 2));  // negative and stepped strides
  std::stringstream io2;
  save_npy(io2, view);
  EXPECT_NE(io2.str().find("'fortran_order': False"), std::string::npos);
  Array h = load_npy(io2);
  EXPECT_EQ(h.shape(), (Shape{4, 3}));
  EXPECT_EQ(values(h), values(view));
}

TEST(RoutinesIo, ArraysBackToBackInOneStream) {
  std::stringstream io;
  save_npy(io, sample(Dtype::kInt8, {3}));
  save_npy(io, sample(Dtype::kFloat64, {2, 2}));
  EXPECT_EQ(load_npy(io).dtype(), Dtype::kInt8);
  Array second = load_npy(io);
  EXPECT_EQ(second.shape(), (Shape{2, 2}));
  EXPECT_EQ(values(second), (std::vector<C>{0, 1, 2, 3}));
}

TEST(RoutinesIo, BigEndianAndLaterVersions) {
  // '>f8' [1.5, -2.0] and '>c8' [1+2j], written by hand as NumPy does on a big-endian machine.
  std::string data = handmade_header("{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }");
  data += std::string("\x3f\xf8\0\0\0\0\0\0\xc0\0\0\0\0\0\0\0", 16);
  std::istringstream in(data);
  Array a = load_npy(in);
  EXPECT_EQ(a.dtype(), Dtype::kFloat64);
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{1.5, -2.0}));

  std::string c = handmade_header("{'descr': '>c8', 'fortran_order': False, 'shape': (1,), }", 2);
  c += std::string("\x3f\x80\0\0\x40\0\0\0", 8);
  std::istringstream cin(c);
  EXPECT_EQ(load_npy(cin).to_vector<C>(), (std::vector<C>{C(1, 2)}));

  // Version 3.0 (UTF-8 header), keys in another order, double quotes, no trailing comma.
  std::string v3 = handmade_header("{\"shape\": (2, 1), \"descr\": \"<i2\", \"fortran_order\": False}", 3);
  v3 += std::string("\x07\0\xf9\xff", 4);
  std::istringstream v3in(v3);
  Array b = load_npy(v3in);
  EXPECT_EQ(b.shape(), (Shape{2, 1}));
  EXPECT_EQ(b.to_vector<int>(), (std::vector<int>{7, -7}));
}

TEST(RoutinesIo, BadFiles) {
  auto load_text = [](const std::string& s) {
    std::istringstream in(s);
    load_npy(in);
  };
  expect_error<ValueError>([&] { load_text("PK\x03\x04 not npy"); }, "the magic string is not correct");
  expect_error<ValueError>(
      [&] { load_text(handmade_header("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }")); },
      "Object arrays cannot be loaded when allow_pickle=False");
  expect_error<ValueError>([&] { load_text(handmade_header("{'descr': '<f8', 'shape': (2,), }")); },
                           "Header does not contain the correct keys: ['descr', 'shape']");
  expect_error<ValueError>([&] { load_text(handmade_header("{'descr': '<f8', 'fortran_order': 0, 'shape': (2,), }")); },
                           "fortran_order is not a valid bool: 0");
  expect_error<ValueError>(
      [&] { load_text(handmade_header("{'descr': '<f8', 'fortran_order': False, 'shape': (2.5,), }")); },
      "Cannot parse header");
  expect_error<ValueError>(
      [&] { load_text(handmade_header("{'descr': '<f8', 'fortran_order': False, 'shape': [2], }")); },
      "shape is not valid: [2]");
  expect_error<TypeError>(
      [&] { load_text(handmade_header("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }")); }, "'<U3'");
  expect_error<ValueError>(
      [&] { load_text(handmade_header("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }") + "short"); },
      "Failed to read all data");
  std::string big =
      handmade_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }" + std::string(20000, ' '), 2);
  expect_error<ValueError>([&] { load_text(big); }, "Header info length");
  std::istringstream ok(big + std::string(8, '\0'));
  EXPECT_EQ(load_npy(ok, host_device(), 1 << 20).size(), 1);
  std::string bad_version = handmade_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }");
  bad_version[6] = 4;
  expect_error<ValueError>([&] { load_text(bad_version); }, "we only support format version");
  expect_error<OSError>([&] { load_npy("/nonexistent/dir/x.npy"); }, "/nonexistent/dir/x.npy");
  try {
    load_npy("/nonexistent/dir/x.npy");
  } catch (const OSError& e) {
    EXPECT_EQ(e.error_number(), ENOENT);
  }
}

TEST(RoutinesIo, PathsAndMemoryMaps) {
  TempPath p("mm.npy");
  Array a = sample(Dtype::kFloat64, {3, 4});
  save_npy(p.str(), a);
  EXPECT_EQ(values(load_npy(p.str())), values(a));

  Array r = load_npy(p.str(), MmapMode::kReadOnly);
  EXPECT_FALSE(r.writeable());
  EXPECT_EQ(values(r), values(a));

  {
    Array w = load_npy(p.str(), MmapMode::kReadWrite);
    EXPECT_TRUE(w.writeable());
    reinterpret_cast<double*>(w.data())[0] = 42.0;  // goes to the file
  }
  EXPECT_EQ(load_npy(p.str()).to_vector<double>()[0], 42.0);
  {
    Array c = load_npy(p.str(), MmapMode::kCopyOnWrite);
    reinterpret_cast<double*>(c.data())[1] = -1.0;  // stays private
    EXPECT_EQ(c.to_vector<double>()[1], -1.0);
  }
  EXPECT_EQ(load_npy(p.str()).to_vector<double>()[1], 1.0);
  EXPECT_EQ(mmap_mode_from_string("r+"), MmapMode::kReadWrite);
  EXPECT_THROW(mmap_mode_from_string("w"), ValueError);
}

TEST(RoutinesIo, NpzStoredAndDeflated) {
  for (bool compress : {false, true}) {
    TempPath p(compress ? "c.npz" : "s.npz");
    Array x = sample(Dtype::kFloat32, {100, 10});
    Array y = sample(Dtype::kComplex128, {3}).copy();
    Array z = sample(Dtype::kInt16, {4, 5}).copy(Order::kF);
    savez(p.str(), {{"x", x}, {"y", y}, {"zeta", z}}, compress);
    NamedArrays got = load_npz(p.str());
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].first, "x");
    EXPECT_EQ(got[1].first, "y");
    EXPECT_EQ(got[2].first, "zeta");
    EXPECT_EQ(values(got[0].second), values(x));
    EXPECT_EQ(values(got[1].second), values(y));
    EXPECT_EQ(values(got[2].second), values(z));
    EXPECT_TRUE(got[2].second.f_contiguous());
    NpzFile npz(p.str());
    EXPECT_EQ(npz.entry_names(), (std::vector<std::string>{"x.npy", "y.npy", "zeta.npy"}));
    EXPECT_TRUE(npz.contains("y.npy"));
    EXPECT_EQ(values(npz.array("y.npy")), values(y));
    expect_error<ValueError>([&] { npz.array("w"); }, "'w' is not a file in the archive");
    // Deflate shrinks these regular values a lot; a stored archive holds them as they are.
    const auto size = std::filesystem::file_size(p.str());
    if (compress)
      EXPECT_LT(size, 4000u);
    else
      EXPECT_GT(size, 4000u);
  }
}

TEST(RoutinesIo, NpzDetectsCorruption) {
  TempPath p("bad.npz");
  savez(p.str(), {{"a", sample(Dtype::kInt64, {50})}});
  std::string bytes = file_bytes(p.str());
  bytes[200] ^= 0x5A;  // a data byte of the one entry
  {
    std::ofstream out(p.str(), std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  expect_error<ValueError>([&] { load_npz(p.str()); }, "Bad CRC-32");
  {
    std::ofstream out(p.str(), std::ios::binary | std::ios::trunc);
    out << "not a zip archive at all, just some text that is long enough";
  }
  expect_error<ValueError>([&] { NpzFile npz(p.str()); }, "File is not a zip file");
}

TEST(RoutinesIo, NpzWithZip64EntryCount) {
  // 70000 entries do not fit the 16-bit count: the ZIP64 end records hold it.
  NamedArrays many;
  Array one = sample(Dtype::kUInt8, {});
  for (int i = 0; i < 70000; ++i) many.emplace_back("a" + std::to_string(i), one);
  std::stringstream out;
  savez(out, many);
  NpzFile npz(std::make_unique<std::stringstream>(out.str()), "memory");
  ASSERT_EQ(npz.array_names().size(), 70000u);
  EXPECT_EQ(npz.array_names()[69999], "a69999");
  EXPECT_EQ(npz.array("a69999").item<int>(), 0);
}

TEST(RoutinesIo, RawAndTextFiles) {
  TempPath p("raw.bin");
  Array a = sample(Dtype::kInt32, {2, 3}).transpose();  // written in C order of the view
  tofile(p.str(), a);
  EXPECT_EQ(std::filesystem::file_size(p.str()), 24u);
  EXPECT_EQ(fromfile(p.str(), Dtype::kInt32).to_vector<int>(), (std::vector<int>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(fromfile(p.str(), Dtype::kInt32, 2, "", 4).to_vector<int>(), (std::vector<int>{3, 1}));
  EXPECT_EQ(fromfile(p.str(), Dtype::kInt64).size(), 3);

  tofile(p.str(), Array(sample(Dtype::kFloat64, {4})) * 0.5, ", ");
  EXPECT_EQ(file_bytes(p.str()), "0.0, 0.5, 1.0, 1.5");
  EXPECT_EQ(fromfile(p.str(), Dtype::kFloat64, -1, ",").to_vector<double>(), (std::vector<double>{0, 0.5, 1, 1.5}));
  tofile(p.str(), sample(Dtype::kInt16, {3}), " ", "%03d");
  EXPECT_EQ(file_bytes(p.str()), "000 001 002");
  tofile(p.str(), sample(Dtype::kBool, {3}), "\n");
  EXPECT_EQ(file_bytes(p.str()), "False\nTrue\nFalse");
  std::ostringstream floats;
  tofile(floats, full({3}, 1e20, Dtype::kFloat32), ";");
  // As NumPy: each element as the Python float (double) it becomes.
  EXPECT_EQ(floats.str(), "1.0000000200408773e+20;1.0000000200408773e+20;1.0000000200408773e+20");

  EXPECT_EQ(fromstring("1 2\n3", Dtype::kUInt8, -1, " ").to_vector<int>(), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(fromstring("1,2,x,4", Dtype::kInt64, -1, ",").size(), 2);  // stops at text that is no number
  EXPECT_EQ(fromstring("1+2j 3j", Dtype::kComplex128, -1, " ").to_vector<C>(), (std::vector<C>{C(1, 2), C(0, 3)}));
  EXPECT_THROW(fromstring("1 2", Dtype::kInt64, 3, " "), ValueError);
  EXPECT_THROW(fromstring("1 2", Dtype::kInt64, -1, ""), ValueError);
  const float f[3] = {1.5f, 2.5f, 3.5f};
  EXPECT_EQ(frombuffer(f, sizeof f, Dtype::kFloat32, -1, 4).to_vector<float>(), (std::vector<float>{2.5f, 3.5f}));
  EXPECT_THROW(frombuffer(f, 10, Dtype::kFloat32), ValueError);
}

TEST(RoutinesIo, NpzWriterTakesArraysAndReadyNpyBytes) {
  TempPath p("w.npz");
  std::ostringstream ready;
  save_npy(ready, sample(Dtype::kUInt16, {2, 2}));
  {
    NpzWriter npz(p.str(), /*compress=*/true);
    npz.add("first", sample(Dtype::kFloat16, {3}));
    npz.add_npy_bytes("second", ready.str());
    npz.close();
  }
  NamedArrays got = load_npz(p.str());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, "first");
  EXPECT_EQ(got[0].second.dtype(), Dtype::kFloat16);
  EXPECT_EQ(got[1].first, "second");
  EXPECT_EQ(got[1].second.dtype(), Dtype::kUInt16);
  EXPECT_EQ(values(got[1].second), (std::vector<C>{0, 1, 2, 3}));
  NpzFile npz(p.str());
  EXPECT_EQ(npz.bytes("second.npy"), ready.str());
}
