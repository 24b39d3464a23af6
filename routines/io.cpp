// The .npy format and .npz archives (see io.h for the layout).
#include "routines/io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <streambuf>

#include "core/errors.h"
#include "routines/io_detail.h"
#include "routines/zip_archive.h"

namespace kumo {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
// NumPy aligns the data to 64 bytes and leaves room in the header for the
// first (C order) or last (Fortran order) extent to grow to 21 digits, so
// that appending writers can rewrite the header in place.
constexpr size_t kAlign = 64;
constexpr size_t kGrowthAxisDigits = 21;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// ---- a parser for the header's Python literal ----

struct Literal {
  enum class Kind { kString, kInt, kBool, kNone, kTuple, kList, kDict } kind = Kind::kNone;
  std::string text;  // kString: the value
  int64_t integer = 0;
  bool boolean = false;
  std::vector<Literal> items;                        // tuple, list
  std::vector<std::pair<Literal, Literal>> entries;  // dict
  std::string source;                                // the literal as written, for messages
};

class LiteralParser {
 public:
  explicit LiteralParser(const std::string& s) : s_(s) {}
  Literal parse_all() {
    Literal v = value();
    skip();
    if (p_ != s_.size()) fail();
    return v;
  }

 private:
  const std::string& s_;
  size_t p_ = 0;

  [[noreturn]] void fail() { throw ValueError("Cannot parse header: " + quoted(s_)); }
  void skip() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r')) ++p_;
  }
  bool eat(char c) {
    skip();
    if (p_ < s_.size() && s_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  // Items up to `close`, separated by commas; returns whether the last item had a trailing comma.
  template <class F>
  bool sequence(char close, F item) {
    bool comma = false;
    while (!eat(close)) {
      item();
      comma = eat(',');
      if (!comma) {
        if (!eat(close)) fail();
        break;
      }
    }
    return comma;
  }
  Literal value() {
    skip();
    if (p_ >= s_.size()) fail();
    const size_t start = p_;
    Literal v;
    const char c = s_[p_];
    if (c == '\'' || c == '"') {
      v.kind = Literal::Kind::kString;
      ++p_;
      while (p_ < s_.size() && s_[p_] != c) {
        if (s_[p_] == '\\' && p_ + 1 < s_.size()) ++p_;
        v.text.push_back(s_[p_++]);
      }
      if (p_ >= s_.size()) fail();
      ++p_;
    } else if (c == '(' || c == '[') {
      ++p_;
      const bool tuple = c == '(';
      v.kind = tuple ? Literal::Kind::kTuple : Literal::Kind::kList;
      const bool comma = sequence(tuple ? ')' : ']', [&] { v.items.push_back(value()); });
      // "(5)" is the int 5, not a tuple: a one-item tuple needs its comma.
      if (tuple && v.items.size() == 1 && !comma) {
        Literal inner = v.items[0];
        v = inner;
      }
    } else if (c == '{') {
      ++p_;
      v.kind = Literal::Kind::kDict;
      sequence('}', [&] {
        Literal key = value();
        if (!eat(':')) fail();
        v.entries.emplace_back(std::move(key), value());
      });
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = Literal::Kind::kInt;
      size_t end = p_ + (c == '-' ? 1 : 0);
      while (end < s_.size() && s_[end] >= '0' && s_[end] <= '9') ++end;
      if (end == p_ + (c == '-' ? 1 : 0)) fail();
      errno = 0;
      v.integer = std::strtoll(s_.c_str() + p_, nullptr, 10);
      if (errno == ERANGE) fail();
      p_ = end;
      // Files written by Python 2 may carry a long suffix.
      if (p_ < s_.size() && (s_[p_] == 'L' || s_[p_] == 'l')) ++p_;
    } else if (s_.compare(p_, 4, "True") == 0 || s_.compare(p_, 5, "False") == 0) {
      v.kind = Literal::Kind::kBool;
      v.boolean = s_[p_] == 'T';
      p_ += v.boolean ? 4 : 5;
    } else if (s_.compare(p_, 4, "None") == 0) {
      p_ += 4;
    } else {
      fail();
    }
    v.source = s_.substr(start, p_ - start);
    return v;
  }
};

NpyHeader header_from_dict(const std::string& header) {
  Literal d = LiteralParser(header).parse_all();
  if (d.kind != Literal::Kind::kDict) throw ValueError("Header is not a dictionary: " + d.source);
  const Literal *descr = nullptr, *fortran = nullptr, *shape = nullptr;
  std::vector<std::string> keys;
  bool only_expected = true;
  for (const auto& [k, v] : d.entries) {
    keys.push_back(k.kind == Literal::Kind::kString ? quoted(k.text) : k.source);
    if (k.kind != Literal::Kind::kString)
      only_expected = false;
    else if (k.text == "descr")
      descr = &v;
    else if (k.text == "fortran_order")
      fortran = &v;
    else if (k.text == "shape")
      shape = &v;
    else
      only_expected = false;
  }
  if (!only_expected || !descr || !fortran || !shape || d.entries.size() != 3) {
    std::sort(keys.begin(), keys.end());
    std::string list;
    for (const auto& k : keys) list += (list.empty() ? "" : ", ") + k;
    throw ValueError("Header does not contain the correct keys: [" + list + "]");
  }
  NpyHeader h;
  if (shape->kind != Literal::Kind::kTuple) throw ValueError("shape is not valid: " + shape->source);
  for (const Literal& x : shape->items) {
    if (x.kind != Literal::Kind::kInt || x.integer < 0) throw ValueError("shape is not valid: " + shape->source);
    if (h.shape.size() == kMaxNdim)
      throw ValueError("shape " + shape->source + " has more than " + std::to_string(kMaxNdim) + " dimensions");
    h.shape.push_back(x.integer);
  }
  if (fortran->kind != Literal::Kind::kBool) throw ValueError("fortran_order is not a valid bool: " + fortran->source);
  h.fortran_order = fortran->boolean;
  // A structured dtype's descr is a list; keep its text so the error can show it.
  h.descr = descr->kind == Literal::Kind::kString ? descr->text : descr->source;
  if (descr->kind != Literal::Kind::kString && descr->kind != Literal::Kind::kList)
    throw ValueError("descr is not a valid dtype descriptor: " + descr->source);
  return h;
}

// An istream over bytes already in memory (no copy).
class MemoryStreamBuf : public std::streambuf {
 public:
  MemoryStreamBuf(const char* data, size_t n) {
    char* p = const_cast<char*>(data);  // read-only use: only the get area is set
    setg(p, p, p + n);
  }
};

// A host array over bytes that begin with an .npy header, sharing `block`
// (a header's 64-byte alignment keeps the data aligned); moved to `device`.
Array array_over_npy_bytes(const std::shared_ptr<Memory>& block, size_t n, Device& device, int64_t max_header_size) {
  MemoryStreamBuf buf(static_cast<const char*>(block->data()), n);
  std::istream in(&buf);
  NpyHeader h = read_npy_header(in, max_header_size);
  auto [dtype, swap] = dtype_from_npy_descr(h.descr);
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  const int64_t nbytes = shape_size(h.shape) * item;
  if (static_cast<int64_t>(n) - h.data_offset < nbytes)
    throw ValueError("Failed to read all data for array. Expected " + std::to_string(nbytes) + " bytes, found " +
                     std::to_string(static_cast<int64_t>(n) - h.data_offset));
  Strides strides = h.fortran_order ? f_strides(h.shape, item) : c_strides(h.shape, item);
  Array a(block, h.data_offset, h.shape, strides, dtype);
  if (h.data_offset % 16 != 0) {  // written by another tool without NumPy's alignment
    Array aligned = Array::empty(h.shape, dtype, host_device(), h.fortran_order ? Order::kF : Order::kC);
    std::memcpy(aligned.data(), a.data(), static_cast<size_t>(nbytes));
    a = aligned;
  }
  if (swap) io_detail::byteswap(a.data(), shape_size(h.shape), dtype);
  return &device == &host_device() ? a : a.to_device(device);
}

struct ReadFile {
  std::ifstream in;
  explicit ReadFile(const std::string& path, const char* call) {
    in.open(path, std::ios::binary);
    if (!in) throw OSError(errno, std::string(call) + "('" + path + "'): " + std::strerror(errno));
  }
};

// An array as NumPy saves it: F-contiguous (but not C-contiguous) arrays in
// Fortran order, everything else in C order.
struct NpyImage {
  explicit NpyImage(const Array& a)
      : fortran(a.ndim() > 1 && a.f_contiguous() && !a.c_contiguous()),
        header(npy_header_bytes(npy_descr(a.dtype()), fortran, a.shape())),
        bytes(fortran ? a.transpose() : a) {}
  bool fortran;
  std::string header;
  io_detail::HostBytes bytes;
};

// A file mapping that lives as long as the arrays over it.
class MappedMemory final : public Memory {
 public:
  MappedMemory(void* ptr, size_t size) : Memory(ptr, size, &host_device()) {}
  ~MappedMemory() override { munmap(data(), size()); }
};

// A file descriptor closed on scope exit.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace

// ---- helpers shared with io_raw.cpp ----

namespace io_detail {

HostBytes::HostBytes(const Array& a) : size_(static_cast<size_t>(a.nbytes())) {
  if (size_ == 0) return;
  if (a.device().type() == DeviceType::kCPU) {
    keep_ = a.c_contiguous() ? a : a.copy(Order::kC);
    data_ = keep_.data();
  } else {
    copy_ = host_device().allocate(size_);
    a.copy_to_host_buffer(copy_->data());
    data_ = static_cast<const char*>(copy_->data());
  }
}

void byteswap(char* data, int64_t count, Dtype dtype) {
  const int64_t unit = static_cast<int64_t>(is_complex(dtype) ? itemsize(dtype) / 2 : itemsize(dtype));
  const int64_t n = count * static_cast<int64_t>(itemsize(dtype)) / unit;
  for (int64_t i = 0; i < n; ++i) {
    char* p = data + i * unit;
    if (unit == 2) {
      uint16_t v;
      std::memcpy(&v, p, 2);
      v = __builtin_bswap16(v);
      std::memcpy(p, &v, 2);
    } else if (unit == 4) {
      uint32_t v;
      std::memcpy(&v, p, 4);
      v = __builtin_bswap32(v);
      std::memcpy(p, &v, 4);
    } else if (unit == 8) {
      uint64_t v;
      std::memcpy(&v, p, 8);
      v = __builtin_bswap64(v);
      std::memcpy(p, &v, 8);
    }
  }
}

}  // namespace io_detail

// ---- header ----

std::string npy_descr(Dtype dtype) {
  const size_t n = itemsize(dtype);
  const char order = n == 1 ? '|' : '<';
  return std::string(1, order) + kind_char(dtype) + std::to_string(n);
}

std::pair<Dtype, bool> dtype_from_npy_descr(const std::string& descr) {
  if (descr == "|O" || descr == "O" || descr == "<O" || descr == ">O" || descr == "=O")
    throw ValueError("Object arrays cannot be loaded when allow_pickle=False");
  if (descr.size() >= 3 && std::string("<>|=").find(descr[0]) != std::string::npos) {
    const char kind = descr[1];
    const std::string size = descr.substr(2);
    for (int i = 0; i < kNumDtypes; ++i) {
      const auto d = static_cast<Dtype>(i);
      if (kind_char(d) == kind && std::to_string(itemsize(d)) == size) {
        // This library targets little-endian hosts (x86-64, aarch64), as NumPy's wheels do.
        const bool swap = descr[0] == '>' && itemsize(d) > 1;
        return {d, swap};
      }
    }
  }
  throw TypeError("descr is not a valid dtype descriptor for kumo (no such dtype): " + quoted(descr));
}

std::string npy_header_bytes(const std::string& descr, bool fortran_order, const Shape& shape) {
  // The dict as Python's repr of a dict with sorted keys writes it, trailing ", " included.
  std::string dict = "{'descr': " + quoted(descr) + ", 'fortran_order': " + (fortran_order ? "True" : "False") +
                     ", 'shape': " + shape.to_string() + ", }";
  if (shape.size() > 0) {
    const std::string growth = std::to_string(fortran_order ? shape[shape.size() - 1] : shape[0]);
    if (growth.size() < kGrowthAxisDigits) dict.append(kGrowthAxisDigits - growth.size(), ' ');
  }
  // Version 1.0 while the length fits 16 bits, else 2.0 (this ASCII header
  // never needs 3.0's UTF-8). The padding is 1 to 64 spaces: an already
  // aligned header still gets a full 64, as NumPy pads.
  int major = 1;
  size_t prefix = kMagicLen + 2 + 2;
  size_t pad = kAlign - (prefix + dict.size() + 1) % kAlign;
  if (dict.size() + 1 + pad > 0xFFFF) {
    major = 2;
    prefix = kMagicLen + 2 + 4;
    pad = kAlign - (prefix + dict.size() + 1) % kAlign;
  }
  dict.append(pad, ' ');
  dict.push_back('\n');
  std::string out(kMagic, kMagicLen);
  out.push_back(static_cast<char>(major));
  out.push_back(0);
  const size_t len = dict.size();
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) out.push_back(static_cast<char>((len >> (8 * i)) & 0xFF));
  return out + dict;
}

NpyHeader read_npy_header(std::istream& in, int64_t max_header_size) {
  char magic[kMagicLen + 2];
  in.read(magic, sizeof magic);
  const auto got = static_cast<size_t>(in.gcount());
  if (got < kMagicLen || std::memcmp(magic, kMagic, kMagicLen) != 0) {
    std::string shown;
    for (size_t i = 0; i < std::min(got, kMagicLen); ++i) {
      const auto c = static_cast<unsigned char>(magic[i]);
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      shown += (c >= 32 && c < 127 && c != '\'' && c != '\\') ? std::string(1, static_cast<char>(c)) : hex;
    }
    throw ValueError("the magic string is not correct; expected b'\\x93NUMPY', got b'" + shown + "'");
  }
  if (got < sizeof magic) throw ValueError("EOF: reading magic string, expected 8 bytes got " + std::to_string(got));
  NpyHeader h;
  h.major_version = static_cast<unsigned char>(magic[kMagicLen]);
  h.minor_version = static_cast<unsigned char>(magic[kMagicLen + 1]);
  if (h.minor_version != 0 || h.major_version < 1 || h.major_version > 3)
    throw ValueError("we only support format version (1,0), (2,0), and (3,0), not (" + std::to_string(h.major_version) +
                     ", " + std::to_string(h.minor_version) + ")");
  const int len_bytes = h.major_version == 1 ? 2 : 4;
  unsigned char len_field[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char*>(len_field), len_bytes);
  if (in.gcount() != len_bytes)
    throw ValueError("EOF: reading array header length, expected " + std::to_string(len_bytes) + " bytes got " +
                     std::to_string(in.gcount()));
  const uint32_t len = len_field[0] | (len_field[1] << 8) | (len_field[2] << 16) | (uint32_t{len_field[3]} << 24);
  // 1.0 and 2.0 headers are latin-1, 3.0 UTF-8; either way the keys and
  // values kumo reads are ASCII, so the bytes are parsed as they are.
  std::string header(len, '\0');
  in.read(header.data(), len);
  if (static_cast<uint32_t>(in.gcount()) != len)
    throw ValueError("EOF: reading array header, expected " + std::to_string(len) + " bytes got " +
                     std::to_string(in.gcount()));
  if (static_cast<int64_t>(len) > max_header_size)
    throw ValueError("Header info length (" + std::to_string(len) +
                     ") is large and may not be safe to load securely.\nTo allow loading, adjust `max_header_size` "
                     "or fully trust the `.npy` file using `allow_pickle=True`.");
  NpyHeader parsed = header_from_dict(header);
  parsed.major_version = h.major_version;
  parsed.minor_version = h.minor_version;
  parsed.data_offset = static_cast<int64_t>(kMagicLen + 2 + len_bytes + len);
  return parsed;
}

// ---- .npy ----

void save_npy(std::ostream& out, const Array& a) {
  NpyImage image(a);
  out.write(image.header.data(), static_cast<std::streamsize>(image.header.size()));
  out.write(image.bytes.data(), static_cast<std::streamsize>(image.bytes.size()));
  if (!out)
    throw OSError(EIO,
                  "save_npy: writing " + std::to_string(image.header.size() + image.bytes.size()) + " bytes failed");
}

void save_npy(const std::string& path, const Array& a) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw OSError(errno, "save_npy('" + path + "'): " + std::strerror(errno));
  save_npy(out, a);
  out.close();
  if (!out) throw OSError(errno ? errno : EIO, "save_npy('" + path + "'): closing the file failed");
}

Array load_npy(std::istream& in, Device& device, int64_t max_header_size) {
  NpyHeader h = read_npy_header(in, max_header_size);
  auto [dtype, swap] = dtype_from_npy_descr(h.descr);
  Array a = Array::empty(h.shape, dtype, host_device(), h.fortran_order ? Order::kF : Order::kC);
  const auto nbytes = static_cast<std::streamsize>(a.nbytes());
  if (nbytes > 0) {
    in.read(a.data(), nbytes);
    if (in.gcount() != nbytes)
      throw ValueError("Failed to read all data for array. Expected " + h.shape.to_string() + " = " +
                       std::to_string(a.size()) + " elements (" + std::to_string(nbytes) + " bytes), could only read " +
                       std::to_string(in.gcount()) + " bytes");
  }
  if (swap) io_detail::byteswap(a.data(), a.size(), dtype);
  return &device == &host_device() ? a : a.to_device(device);
}

MmapMode mmap_mode_from_string(const std::string& mode) {
  if (mode.empty()) return MmapMode::kNone;
  if (mode == "r" || mode == "readonly") return MmapMode::kReadOnly;
  if (mode == "r+" || mode == "readwrite") return MmapMode::kReadWrite;
  if (mode == "c" || mode == "copyonwrite") return MmapMode::kCopyOnWrite;
  throw ValueError("mode must be one of ['r', 'c', 'r+'] for a load (got " + quoted(mode) + ")");
}

Array load_npy(const std::string& path, MmapMode mmap_mode, Device& device, int64_t max_header_size) {
  ReadFile file(path, "load_npy");
  if (mmap_mode == MmapMode::kNone) {
    try {
      return load_npy(file.in, device, max_header_size);
    } catch (const ValueError& e) {
      throw ValueError(std::string(e.what()) + " (load_npy('" + path + "'))");
    }
  }
  const std::string call = "load_npy('" + path + "', mmap)";
  if (&device != &host_device()) throw ValueError(call + ": a memory map lives on the host, not on " + device.name());
  NpyHeader h = read_npy_header(file.in, max_header_size);
  auto [dtype, swap] = dtype_from_npy_descr(h.descr);
  if (swap)
    throw ValueError(call + ": the file's byte order (" + h.descr +
                     ") is not the machine's; load it without "
                     "mmap_mode to get a byte-swapped copy");
  const bool writable = mmap_mode != MmapMode::kReadOnly;
  Fd fd{open(path.c_str(), mmap_mode == MmapMode::kReadWrite ? O_RDWR : O_RDONLY)};
  if (fd.fd < 0) throw OSError(errno, call + ": " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd.fd, &st) != 0) throw OSError(errno, call + ": fstat: " + std::strerror(errno));
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  const int64_t nbytes = shape_size(h.shape) * item;
  if (st.st_size < h.data_offset + nbytes)
    throw ValueError(call + ": the file holds " + std::to_string(st.st_size - h.data_offset) + " data bytes, the " +
                     "header promises " + std::to_string(nbytes));
  // A read-only map is still private and writable at the page level: the
  // array is marked read-only, but a caller who sets it writeable again
  // then writes private pages instead of faulting.
  const int prot = PROT_READ | PROT_WRITE;
  const int flags = mmap_mode == MmapMode::kReadWrite ? MAP_SHARED : MAP_PRIVATE;
  const auto map_len = static_cast<size_t>(h.data_offset + nbytes);
  void* p = mmap(nullptr, map_len, prot, flags, fd.fd, 0);
  if (p == MAP_FAILED) throw OSError(errno, call + ": mmap: " + std::strerror(errno));
  auto memory = std::make_shared<MappedMemory>(p, map_len);
  Strides strides = h.fortran_order ? f_strides(h.shape, item) : c_strides(h.shape, item);
  return Array(memory, h.data_offset, h.shape, strides, dtype, writable);
}

// ---- .npz ----

NpzWriter::NpzWriter(const std::string& path, bool compress)
    : what_("savez('" + path + "')"),
      file_(std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc)),
      compress_(compress) {
  if (!*file_) throw OSError(errno, what_ + ": " + std::strerror(errno));
  zip_ = std::make_unique<ZipWriter>(*file_);
}

NpzWriter::NpzWriter(std::ostream& out, bool compress)
    : what_("savez"), zip_(std::make_unique<ZipWriter>(out)), compress_(compress) {}

NpzWriter::~NpzWriter() = default;  // ZipWriter's destructor finishes an unclosed archive

void NpzWriter::add(const std::string& name, const Array& a) {
  NpyImage image(a);
  zip_->add(name + ".npy", {{image.header.data(), image.header.size()}, {image.bytes.data(), image.bytes.size()}},
            compress_);
}

void NpzWriter::add_npy_bytes(const std::string& name, const std::string& npy) {
  zip_->add(name + ".npy", {{npy.data(), npy.size()}}, compress_);
}

void NpzWriter::close() {
  zip_->finish();
  if (file_) {
    file_->close();
    if (!*file_) throw OSError(errno ? errno : EIO, what_ + ": closing the file failed");
  }
}

void savez(std::ostream& out, const NamedArrays& arrays, bool compress) {
  NpzWriter npz(out, compress);
  for (const auto& [name, a] : arrays) npz.add(name, a);
  npz.close();
}

void savez(const std::string& path, const NamedArrays& arrays, bool compress) {
  NpzWriter npz(path, compress);
  for (const auto& [name, a] : arrays) npz.add(name, a);
  npz.close();
}

NpzFile::NpzFile(const std::string& path, int64_t max_header_size) : max_header_size_(max_header_size) {
  auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*in) throw OSError(errno, "NpzFile('" + path + "'): " + std::strerror(errno));
  zip_ = std::make_unique<ZipReader>(std::move(in), "NpzFile('" + path + "')");
}

NpzFile::NpzFile(std::unique_ptr<std::istream> in, const std::string& what, int64_t max_header_size)
    : zip_(std::make_unique<ZipReader>(std::move(in), what)), max_header_size_(max_header_size) {}

NpzFile::~NpzFile() = default;
NpzFile::NpzFile(NpzFile&&) noexcept = default;
NpzFile& NpzFile::operator=(NpzFile&&) noexcept = default;

std::vector<std::string> NpzFile::entry_names() const {
  std::vector<std::string> names;
  for (const auto& e : zip_->entries()) names.push_back(e.name);
  return names;
}

std::vector<std::string> NpzFile::array_names() const {
  std::vector<std::string> names;
  for (const auto& e : zip_->entries())
    if (e.name.size() > 4 && e.name.compare(e.name.size() - 4, 4, ".npy") == 0)
      names.push_back(e.name.substr(0, e.name.size() - 4));
  return names;
}

bool NpzFile::contains(const std::string& entry) const { return zip_->find(entry) != nullptr; }

Array NpzFile::array(const std::string& name, Device& device) {
  const ZipReader::Entry* e = zip_->find(name + ".npy");
  if (!e) e = zip_->find(name);
  if (!e) throw ValueError(quoted(name) + " is not a file in the archive");
  // The entry is inflated (or read) once into host memory that the array then uses.
  std::shared_ptr<Memory> block = host_device().allocate(static_cast<size_t>(e->size));
  zip_->read(*e, static_cast<char*>(block->data()));
  try {
    return array_over_npy_bytes(block, static_cast<size_t>(e->size), device, max_header_size_);
  } catch (const ValueError& err) {
    throw ValueError(std::string(err.what()) + " (entry " + quoted(e->name) + " of the archive)");
  }
}

std::string NpzFile::bytes(const std::string& entry) {
  const ZipReader::Entry* e = zip_->find(entry);
  if (!e) throw ValueError(quoted(entry) + " is not a file in the archive");
  std::string out(static_cast<size_t>(e->size), '\0');
  zip_->read(*e, out.data());
  return out;
}

NamedArrays load_npz(const std::string& path, Device& device) {
  NpzFile npz(path);
  NamedArrays out;
  for (const std::string& name : npz.array_names()) out.emplace_back(name, npz.array(name, device));
  return out;
}

}  // namespace kumo
