// Raw and text element files: ndarray.tofile, numpy.fromfile, frombuffer
// and the text mode of fromstring.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/errors.h"
#include "core/memory.h"
#include "kernels/ufunc.h"
#include "routines/io.h"
#include "routines/io_detail.h"
#include "routines/printing.h"

namespace kumo {

namespace {

// ---- writing elements as text ----

// Python's repr of a float from its shortest digits: positional between 1e-4
// and 1e16, else scientific with a two-digit exponent; `point_zero` adds the
// ".0" of integral values (off inside complex numbers, as Python writes them).
// NumPy's tofile writes each element as the Python float (a double) it
// converts to, so float16/float32 values show all the digits of their double.
std::string python_float_text(double v, bool point_zero) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0) return sign + (point_zero ? "0.0" : "0");
  const std::string s = shortest_scientific(std::fabs(v), Dtype::kFloat64);  // "1.2345e+02"
  const size_t e_at = s.find('e');
  std::string digits = s.substr(0, e_at);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int exponent = std::atoi(s.c_str() + e_at + 1);
  const int n = static_cast<int>(digits.size());
  if (exponent < -4 || exponent >= 16) {
    std::string out = sign + digits.substr(0, 1);
    if (n > 1) out += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + e;
  }
  if (exponent < 0) return sign + "0." + std::string(-exponent - 1, '0') + digits;
  if (n <= exponent + 1) return sign + digits + std::string(exponent + 1 - n, '0') + (point_zero ? ".0" : "");
  return sign + digits.substr(0, exponent + 1) + "." + digits.substr(exponent + 1);
}

// One element read from host memory, with what each kind of format needs.
struct Element {
  Dtype dtype = Dtype::kFloat64;
  bool boolean = false;
  int64_t i = 0;
  uint64_t u = 0;
  std::complex<double> c;
};

Element element_at(const char* p, Dtype dtype) {
  Element e;
  e.dtype = dtype;
  switch (kind(dtype)) {
    case DtypeKind::kBool:
      e.boolean = *p != 0;
      break;
    case DtypeKind::kSigned: {
      int64_t v = 0;
      switch (itemsize(dtype)) {
        case 1:
          v = *reinterpret_cast<const int8_t*>(p);
          break;
        case 2: {
          int16_t x;
          std::memcpy(&x, p, 2);
          v = x;
          break;
        }
        case 4: {
          int32_t x;
          std::memcpy(&x, p, 4);
          v = x;
          break;
        }
        default:
          std::memcpy(&v, p, 8);
      }
      e.i = v;
      break;
    }
    case DtypeKind::kUnsigned: {
      uint64_t v = 0;
      std::memcpy(&v, p, itemsize(dtype));  // little-endian: the low bytes
      e.u = v;
      break;
    }
    default:
      break;  // floats are filled in by the caller (float16 has no C++ type)
  }
  return e;
}

// Python's str of a NumPy scalar (what tofile's default "%s" writes).
std::string python_str(const Element& e) {
  switch (kind(e.dtype)) {
    case DtypeKind::kBool:
      return e.boolean ? "True" : "False";
    case DtypeKind::kSigned:
      return std::to_string(e.i);
    case DtypeKind::kUnsigned:
      return std::to_string(e.u);
    case DtypeKind::kFloat:
      return python_float_text(e.c.real(), true);
    case DtypeKind::kComplex: {
      const double re = e.c.real(), im = e.c.imag();
      std::string imag = python_float_text(im, false);
      if (re == 0 && !std::signbit(re)) return imag + "j";
      if (imag[0] != '-') imag = "+" + imag;
      return "(" + python_float_text(re, false) + imag + "j)";
    }
  }
  return "";
}

// Applies a printf-style format with one conversion to an element, as
// Python's `format % item` does for NumPy scalars.
std::string format_element(const std::string& format, const Element& e) {
  if (format == "%s") return python_str(e);
  size_t at = 0;
  while ((at = format.find('%', at)) != std::string::npos && at + 1 < format.size() && format[at + 1] == '%') at += 2;
  if (at == std::string::npos) throw ValueError("tofile: format " + format + " has no conversion");
  const size_t conv = format.find_first_of("diouxXeEfFgGcrsa", at + 1);
  if (conv == std::string::npos) throw ValueError("tofile: format " + format + " has no conversion");
  const char c = format[conv];
  const std::string head = format.substr(0, conv), tail = format.substr(conv + 1);
  char buf[512];
  const bool is_cplx = kind(e.dtype) == DtypeKind::kComplex;
  const double real = kind(e.dtype) == DtypeKind::kBool       ? (e.boolean ? 1.0 : 0.0)
                      : kind(e.dtype) == DtypeKind::kSigned   ? static_cast<double>(e.i)
                      : kind(e.dtype) == DtypeKind::kUnsigned ? static_cast<double>(e.u)
                                                              : e.c.real();
  if (c == 's' || c == 'r') {
    std::snprintf(buf, sizeof buf, (head + "s" + tail).c_str(), python_str(e).c_str());
  } else if (is_cplx) {
    throw TypeError("tofile: format " + format + " needs a real number, not complex");
  } else if (std::string("dioxXuc").find(c) != std::string::npos) {
    const std::string f = head + "ll" + (c == 'i' ? 'd' : c) + tail;
    if (kind(e.dtype) == DtypeKind::kUnsigned)
      std::snprintf(buf, sizeof buf, f.c_str(), static_cast<unsigned long long>(e.u));
    else if (kind(e.dtype) == DtypeKind::kSigned)
      std::snprintf(buf, sizeof buf, f.c_str(), static_cast<long long>(e.i));
    else
      std::snprintf(buf, sizeof buf, f.c_str(), static_cast<long long>(std::trunc(real)));
  } else {
    std::snprintf(buf, sizeof buf, format.c_str(), real);
  }
  return buf;
}

// ---- reading elements from text ----

class TextScanner {
 public:
  TextScanner(const std::string& text, const std::string& sep) : s_(text) {
    for (char ch : sep)
      if (!std::isspace(static_cast<unsigned char>(ch))) core_.push_back(ch);
  }
  // Parses the next number into `out` (converted to dtype); false at the end
  // of the text or at text that does not parse.
  bool next(Dtype dtype, char* out) {
    skip_space();
    if (!first_) {
      // Whitespace in the separator matches any run of whitespace (or none);
      // its other characters must appear.
      if (!core_.empty()) {
        if (s_.compare(p_, core_.size(), core_) != 0) return false;
        p_ += core_.size();
        skip_space();
      } else if (p_ == after_number_) {
        return false;  // two numbers with nothing between them
      }
    }
    if (p_ >= s_.size()) return false;
    const char* begin = s_.c_str() + p_;
    char* end = nullptr;
    kernels::ScalarValue v;
    errno = 0;
    if (is_integer(dtype) || dtype == Dtype::kBool) {
      v.kind = WeakScalar::kInt;
      if (kind(dtype) == DtypeKind::kUnsigned && *begin != '-') {
        v.u = std::strtoull(begin, &end, 10);
        v.is_uint = v.u > static_cast<uint64_t>(INT64_MAX);
        v.i = static_cast<int64_t>(v.u);
      } else {
        v.i = std::strtoll(begin, &end, 10);
      }
      v.f = v.is_uint ? static_cast<double>(v.u) : static_cast<double>(v.i);
      if (dtype == Dtype::kBool) {
        v.kind = WeakScalar::kBool;
        v.b = v.i != 0;
      }
    } else {
      const double re = std::strtod(begin, &end);
      double im = 0;
      if (end != begin && is_complex(dtype)) {
        char* im_end = nullptr;
        if (*end == 'j') {  // "2j": the number was the imaginary part
          im = re;
          end += 1;
          v.c = {0, im};
        } else if ((*end == '+' || *end == '-') && (im = std::strtod(end, &im_end), im_end != end) && *im_end == 'j') {
          end = im_end + 1;
          v.c = {re, im};
        } else {
          v.c = {re, 0};
        }
        v.kind = WeakScalar::kComplex;
      } else {
        v.kind = WeakScalar::kFloat;
        v.f = re;
      }
    }
    if (end == begin) return false;
    kernels::store_scalar(v, dtype, out);
    p_ = static_cast<size_t>(end - s_.c_str());
    after_number_ = p_;
    first_ = false;
    return true;
  }
  bool at_end() {
    skip_space();
    if (!core_.empty() && s_.compare(p_, core_.size(), core_) == 0) p_ += core_.size();
    skip_space();
    return p_ >= s_.size();
  }

 private:
  const std::string& s_;
  std::string core_;
  size_t p_ = 0, after_number_ = std::string::npos;
  bool first_ = true;
  void skip_space() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
  }
};

Array parse_text(const std::string& text, Dtype dtype, int64_t count, const std::string& sep, Device& device,
                 const std::string& call) {
  TextScanner scan(text, sep);
  const size_t item = itemsize(dtype);
  std::string values;
  char buf[16];
  int64_t n = 0;
  while ((count < 0 || n < count) && scan.next(dtype, buf)) {
    values.append(buf, item);
    ++n;
  }
  if (count >= 0 && n < count)
    throw ValueError(call + ": string is smaller than requested size (" + std::to_string(n) + " of " +
                     std::to_string(count) + " items)");
  return frombuffer(values.data(), values.size(), dtype, n, 0, device);
}

std::string read_rest(std::istream& in) {
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

void tofile(std::ostream& out, const Array& a, const std::string& sep, const std::string& format) {
  if (sep.empty()) {
    io_detail::HostBytes bytes(a);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  } else {
    io_detail::HostBytes bytes(a);
    // Floats are read through a float64/complex128 copy: float16 has no C++ type.
    const bool inexact = is_inexact(a.dtype());
    std::vector<std::complex<double>> values;
    if (inexact) {
      Array wide = a.astype(Dtype::kComplex128, Order::kC);
      values.resize(static_cast<size_t>(a.size()));
      if (!values.empty()) wide.copy_to_host_buffer(values.data());
    }
    const int64_t item = a.itemsize();
    for (int64_t i = 0; i < a.size(); ++i) {
      Element e = element_at(bytes.data() + i * item, a.dtype());
      if (inexact) e.c = values[static_cast<size_t>(i)];
      if (i > 0) out << sep;
      out << format_element(format, e);
    }
  }
  if (!out) throw OSError(EIO, "tofile: writing " + std::to_string(a.nbytes()) + " bytes of data failed");
}

void tofile(const std::string& path, const Array& a, const std::string& sep, const std::string& format) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw OSError(errno, "tofile('" + path + "'): " + std::strerror(errno));
  tofile(out, a, sep, format);
  out.close();
  if (!out) throw OSError(errno ? errno : EIO, "tofile('" + path + "'): closing the file failed");
}

namespace {
// The number of elements frombuffer reads, with NumPy's errors.
int64_t frombuffer_count(size_t nbytes, Dtype dtype, int64_t count, int64_t offset) {
  const auto item = static_cast<int64_t>(itemsize(dtype));
  if (offset < 0 || static_cast<size_t>(offset) > nbytes)
    throw ValueError("offset must be non-negative and no greater than buffer length (" + std::to_string(nbytes) + ")");
  const int64_t avail = static_cast<int64_t>(nbytes) - offset;
  if (count < 0) {
    if (avail % item != 0) throw ValueError("buffer size must be a multiple of element size");
    return avail / item;
  }
  if (count > avail / item) throw ValueError("buffer is smaller than requested size");
  return count;
}
}  // namespace

std::optional<Array> frombuffer_view(void* data, size_t nbytes, Dtype dtype, int64_t count, int64_t offset,
                                     bool writeable, std::function<void()> release) {
  count = frombuffer_count(nbytes, dtype, count, offset);
  const auto item = static_cast<int64_t>(itemsize(dtype));
  char* first = static_cast<char*>(data) + offset;
  if (reinterpret_cast<uintptr_t>(first) % static_cast<uintptr_t>(item) != 0) return std::nullopt;
  auto memory = std::make_shared<ExternalMemory>(first, static_cast<size_t>(count * item), &host_device(),
                                                 std::move(release));
  return Array(memory, 0, Shape{count}, Strides{item}, dtype, writeable);
}

Array frombuffer(const void* data, size_t nbytes, Dtype dtype, int64_t count, int64_t offset, Device& device) {
  const auto item = static_cast<int64_t>(itemsize(dtype));
  count = frombuffer_count(nbytes, dtype, count, offset);
  Array out = Array::empty({count}, dtype, host_device());
  if (count > 0) std::memcpy(out.data(), static_cast<const char*>(data) + offset, static_cast<size_t>(count * item));
  return &device == &host_device() ? out : out.to_device(device);
}

Array fromstring(const std::string& text, Dtype dtype, int64_t count, const std::string& sep, Device& device) {
  // NumPy 2 removed the binary mode; frombuffer is the byte reader.
  if (sep.empty()) throw ValueError("The binary mode of fromstring is removed, use frombuffer instead");
  return parse_text(text, dtype, count, sep, device, "fromstring");
}

Array fromfile(std::istream& in, Dtype dtype, int64_t count, const std::string& sep, int64_t offset, Device& device) {
  if (offset > 0) {
    in.seekg(offset, std::ios::cur);
    if (!in) throw OSError(EINVAL, "fromfile: cannot skip " + std::to_string(offset) + " bytes");
  }
  if (!sep.empty()) return parse_text(read_rest(in), dtype, count, sep, device, "fromfile");
  const auto item = static_cast<int64_t>(itemsize(dtype));
  if (count < 0) {
    // Everything left, whole items only (a partial item at the end is dropped, as NumPy does).
    const std::streampos here = in.tellg();
    if (here < 0 || !in.seekg(0, std::ios::end)) {  // not seekable: read it all
      in.clear();
      std::string rest = read_rest(in);
      return frombuffer(rest.data(), rest.size() - rest.size() % item, dtype, -1, 0, device);
    }
    count = static_cast<int64_t>(in.tellg() - here) / item;
    in.seekg(here);
  }
  Array out = Array::empty({count}, dtype, host_device());
  in.read(out.data(), static_cast<std::streamsize>(count * item));
  const int64_t got = in.gcount() / item;
  // NumPy returns the items it could read (with a warning) when the file is shorter.
  if (got < count) out = out.index({IndexItem::slice(0, got, 1)}).copy();
  return &device == &host_device() ? out : out.to_device(device);
}

Array fromfile(const std::string& path, Dtype dtype, int64_t count, const std::string& sep, int64_t offset,
               Device& device) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw OSError(errno, "fromfile('" + path + "'): " + std::strerror(errno));
  return fromfile(in, dtype, count, sep, offset, device);
}

}  // namespace kumo
