// NumPy's binary and raw file formats:
//
//   kumo::save_npy("a.npy", a);                       // numpy.save
//   kumo::Array b = kumo::load_npy("a.npy");          // numpy.load (host)
//   kumo::Array m = kumo::load_npy("a.npy", kumo::MmapMode::kReadOnly);
//   kumo::savez("ab.npz", {{"a", a}, {"b", b}}, /*compress=*/true);
//   kumo::NpzWriter w("c.npz", false); w.add("a", a); w.close();  // member by member
//   auto arrays = kumo::load_npz("ab.npz");           // name -> Array, in archive order
//   kumo::tofile("raw.bin", a);                       // ndarray.tofile
//   kumo::Array r = kumo::fromfile("raw.bin", kumo::Dtype::kFloat64);
//
// .npy: the magic string "\x93NUMPY", a version byte pair (1.0: 16-bit header
// length; 2.0: 32-bit; 3.0: 32-bit with a UTF-8 header), then a Python dict
// literal {'descr', 'fortran_order', 'shape'} padded with spaces and '\n' so
// that the data starts on a 64-byte boundary. Files are written exactly as
// NumPy 2 writes them (byte for byte); every byte order and version loads.
// .npz: a ZIP archive of NAME.npy entries (routines/zip_archive.h).
#pragma once
#include <functional>
#include <optional>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/array.h"
#include "core/device.h"

namespace kumo {

// NumPy's default limit on the header length (its max_header_size).
inline constexpr int64_t kNpyMaxHeaderSize = 10000;

// The parsed header of a .npy file.
struct NpyHeader {
  std::string descr;  // as in the file: "<f8", "|b1", "|O", "[('a', '<i4')]" ...
  bool fortran_order = false;
  Shape shape;
  int major_version = 1, minor_version = 0;
  int64_t data_offset = 0;  // bytes from the magic string to the data
};

// The descr NumPy writes for `dtype` on this (little-endian) machine: "<f8", "|b1".
std::string npy_descr(Dtype dtype);
// The dtype of a descr and whether its bytes need swapping; "|O" is a
// ValueError naming allow_pickle, other descrs kumo has no dtype for a TypeError.
std::pair<Dtype, bool> dtype_from_npy_descr(const std::string& descr);

// The magic string, version, length and dict of a header, exactly as NumPy
// pads it (the growth-axis reserve and the 64-byte alignment included).
std::string npy_header_bytes(const std::string& descr, bool fortran_order, const Shape& shape);
// Reads and validates a header; the stream is left at the first data byte.
NpyHeader read_npy_header(std::istream& in, int64_t max_header_size = kNpyMaxHeaderSize);

// numpy.save. F-contiguous (but not C-contiguous) arrays are written in
// Fortran order, everything else in C order; arrays on a GPU are copied to
// the host first.
void save_npy(std::ostream& out, const Array& a);
void save_npy(const std::string& path, const Array& a);

// numpy.load of a .npy into a new array on `device`. Reads exactly the
// header and the data, so several arrays saved back to back in one stream
// load one after another.
Array load_npy(std::istream& in, Device& device = host_device(), int64_t max_header_size = kNpyMaxHeaderSize);

// numpy.load's mmap_mode: None, 'r', 'r+', 'c'.
enum class MmapMode { kNone, kReadOnly, kReadWrite, kCopyOnWrite };
MmapMode mmap_mode_from_string(const std::string& mode);  // "" -> kNone
// A memory-mapped load is a host array over the file's pages (read-only for
// kReadOnly; kReadWrite writes go to the file; kCopyOnWrite keeps them private).
Array load_npy(const std::string& path, MmapMode mmap = MmapMode::kNone, Device& device = host_device(),
               int64_t max_header_size = kNpyMaxHeaderSize);

using NamedArrays = std::vector<std::pair<std::string, Array>>;

// numpy.savez / savez_compressed: each array becomes the entry NAME.npy,
// stored or deflated.
void savez(std::ostream& out, const NamedArrays& arrays, bool compress = false);
void savez(const std::string& path, const NamedArrays& arrays, bool compress = false);

class ZipWriter;
// Writes an .npz one member at a time: what savez does for a whole list,
// for callers that produce members one by one or hold some as ready bytes.
class NpzWriter {
 public:
  NpzWriter(const std::string& path, bool compress);
  // Writes to `out`, which must outlive the writer.
  NpzWriter(std::ostream& out, bool compress);
  ~NpzWriter();  // finishes the archive if close() was not called (errors are lost: call close())
  NpzWriter(const NpzWriter&) = delete;
  NpzWriter& operator=(const NpzWriter&) = delete;

  // The entry NAME.npy holding `a`.
  void add(const std::string& name, const Array& a);
  // The entry NAME.npy holding `npy`, the bytes of a whole .npy file (such
  // as the header and pickle of an object array, which Python writes).
  void add_npy_bytes(const std::string& name, const std::string& npy);
  // Writes the central directory and closes the file.
  void close();

 private:
  std::string what_;
  std::unique_ptr<std::ofstream> file_;
  std::unique_ptr<ZipWriter> zip_;
  bool compress_;
};

class ZipReader;
// numpy.lib.npyio.NpzFile: an open archive whose arrays are read on demand.
class NpzFile {
 public:
  explicit NpzFile(const std::string& path, int64_t max_header_size = kNpyMaxHeaderSize);
  // An archive held by a seekable stream (e.g. a std::istringstream); `what` names it in errors.
  NpzFile(std::unique_ptr<std::istream> in, const std::string& what, int64_t max_header_size = kNpyMaxHeaderSize);
  ~NpzFile();
  NpzFile(NpzFile&&) noexcept;
  NpzFile& operator=(NpzFile&&) noexcept;

  // Entry names as stored ("a.npy", "notes.txt"), in archive order.
  std::vector<std::string> entry_names() const;
  // Names of the .npy entries without the suffix (NumPy's NpzFile.files, minus other members).
  std::vector<std::string> array_names() const;
  bool contains(const std::string& entry) const;
  // The array of entry `name` or `name`.npy; KeyError-style ValueError if neither exists.
  Array array(const std::string& name, Device& device = host_device());
  // The raw bytes of an entry (what NumPy returns for members that are not .npy).
  std::string bytes(const std::string& entry);

 private:
  std::unique_ptr<ZipReader> zip_;
  int64_t max_header_size_;
};

// Every array of an .npz, in archive order.
NamedArrays load_npz(const std::string& path, Device& device = host_device());

// ndarray.tofile: the elements in C order, as raw bytes (sep empty) or as
// text separated by `sep`, each written with the printf-style `format`
// ("%s": Python's str of the element).
void tofile(std::ostream& out, const Array& a, const std::string& sep = "", const std::string& format = "%s");
void tofile(const std::string& path, const Array& a, const std::string& sep = "", const std::string& format = "%s");

// numpy.fromfile: `count` items (-1: all) after skipping `offset` bytes, read
// as raw bytes (sep empty) or parsed as text numbers separated by `sep`
// (whitespace in `sep` matches any whitespace). Reading stops at the first
// text that does not parse.
Array fromfile(std::istream& in, Dtype dtype = Dtype::kFloat64, int64_t count = -1, const std::string& sep = "",
               int64_t offset = 0, Device& device = host_device());
Array fromfile(const std::string& path, Dtype dtype = Dtype::kFloat64, int64_t count = -1, const std::string& sep = "",
               int64_t offset = 0, Device& device = host_device());

// numpy.frombuffer as a copy on `device`, and numpy.fromstring, whose
// binary mode (sep empty) NumPy 2 removed (ValueError).
Array frombuffer(const void* data, size_t nbytes, Dtype dtype = Dtype::kFloat64, int64_t count = -1, int64_t offset = 0,
                 Device& device = host_device());
// numpy.frombuffer as NumPy's: a 1-d host array over someone else's memory
// (no copy), `release` called when the last array using it goes; nullopt
// when data + offset is not aligned for the dtype (then copy instead: the
// kernels assume aligned elements).
std::optional<Array> frombuffer_view(void* data, size_t nbytes, Dtype dtype, int64_t count, int64_t offset,
                                     bool writeable, std::function<void()> release);
Array fromstring(const std::string& text, Dtype dtype, int64_t count, const std::string& sep,
                 Device& device = host_device());

}  // namespace kumo
