// NumPy's array printing rules, re-derived from its documented behaviour:
// one formatter per array (a common width for every element), floats in
// positional notation unless the magnitudes call for scientific notation,
// nested brackets with hanging indents, and lines wrapped at 75 columns.
#include "routines/printing.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstring>
#include <sstream>
#include <vector>

#include "core/errors.h"

namespace kumo {

namespace {

constexpr int kLineWidth = 75;
constexpr int kPrecision = 8;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

// ---- float16 round trips (the shortest text that reads back as the same half) ----
// Round-to-nearest-even float16 of a double, as its float value.
float round_to_half(double x) {
  if (!std::isfinite(x) || x == 0) return static_cast<float>(x);
  double a = std::fabs(x);
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int ulp_exp = std::max(e - 11, -24);  // 11 significant bits, subnormals below 2^-14
  double q = std::nearbyint(std::ldexp(a, -ulp_exp));
  double r = std::ldexp(q, ulp_exp);
  if (r > 65504.0) r = INFINITY;
  return static_cast<float>(x < 0 ? -r : r);
}

std::string chars(double v, std::chars_format fmt, int precision, bool is_float32) {
  char buf[512];
  std::to_chars_result res;
  if (precision < 0)
    res = is_float32 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), fmt)
                     : std::to_chars(buf, buf + sizeof buf, v, fmt);
  else
    res = is_float32 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), fmt, precision)
                     : std::to_chars(buf, buf + sizeof buf, v, fmt, precision);
  return std::string(buf, res.ptr);
}

// The shortest decimal text of `v` that reads back as the same value of `dtype`.
std::string shortest(double v, Dtype dtype, std::chars_format fmt) {
  if (dtype == Dtype::kFloat16) {
    for (int digits = 1; digits <= 6; ++digits) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
      double back = std::strtod(buf, nullptr);
      if (round_to_half(back) == static_cast<float>(v)) return chars(back, fmt, -1, false);
    }
    return chars(v, fmt, -1, true);
  }
  return chars(v, fmt, -1, dtype == Dtype::kFloat32 || dtype == Dtype::kComplex64);
}

size_t frac_digits(const std::string& s) {
  size_t dot = s.find('.');
  if (dot == std::string::npos) return 0;
  size_t end = s.find('e');
  if (end == std::string::npos) end = s.size();
  return end - dot - 1;
}

std::string trim_zeros(std::string s) {
  // "1.2300" -> "1.23", "1.000" -> "1." (NumPy's trim='.').
  size_t dot = s.find('.');
  if (dot == std::string::npos) return s + ".";
  size_t last = s.find_last_not_of('0');
  return s.substr(0, std::max(last, dot) + 1);
}

// Formats the floats of one array (or the real or imaginary parts of a complex one).
class FloatFormat {
 public:
  FloatFormat(const std::vector<double>& values, Dtype dtype, bool sign_plus)
      : dtype_(dtype), sign_plus_(sign_plus) {
    std::vector<double> finite;
    bool neg_inf = false, has_nonfinite = false;
    for (double v : values) {
      if (std::isfinite(v)) finite.push_back(v);
      else {
        has_nonfinite = true;
        if (std::isinf(v) && v < 0) neg_inf = true;
      }
    }
    double max_abs = 0, min_abs = INFINITY;
    for (double v : finite)
      if (v != 0) {
        max_abs = std::max(max_abs, std::fabs(v));
        min_abs = std::min(min_abs, std::fabs(v));
      }
    if (max_abs > 0) {
      // Tiny magnitudes, a wide dynamic range, or integers with more digits than
      // the type resolves (10**min(8, decimal precision)) read better in
      // scientific notation.
      double cutoff = dtype == Dtype::kFloat16 ? 1e3 : dtype == Dtype::kFloat32 ? 1e6 : 1e8;
      exp_mode_ = max_abs >= cutoff || min_abs < 1e-4 || max_abs / min_abs > 1e3;
    }
    if (finite.empty()) {
      pad_left_ = pad_right_ = 0;
    } else if (exp_mode_) {
      precision_ = 0;
      for (double v : finite) {
        std::string s = shortest(v, dtype_, std::chars_format::scientific);
        precision_ = std::max<int>(precision_, std::min<int>(frac_digits(s), kPrecision));
      }
      for (double v : finite) {
        std::string s = scientific(v);
        pad_left_ = std::max<int>(pad_left_, s.find('.'));
        exp_size_ = std::max<int>(exp_size_, s.size() - s.find('e') - 2);
      }
      pad_right_ = exp_size_ + 2 + precision_;
    } else {
      for (double v : finite) {
        std::string s = positional_digits(v);
        size_t dot = s.find('.');
        pad_left_ = std::max<int>(pad_left_, dot);
        pad_right_ = std::max<int>(pad_right_, s.size() - dot - 1);
      }
    }
    if (has_nonfinite) {
      int offset = pad_right_ + 1;
      int nan_len = 3 + (sign_plus_ ? 1 : 0);
      int inf_len = 3 + ((neg_inf || sign_plus_) ? 1 : 0);
      pad_left_ = std::max({pad_left_, nan_len - offset, inf_len - offset});
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      std::string r = std::isnan(v) ? "nan" : "inf";
      if (std::isinf(v) && v < 0) r = "-" + r;
      else if (sign_plus_) r = "+" + r;
      int width = pad_left_ + pad_right_ + 1;
      return std::string(std::max<int>(0, width - static_cast<int>(r.size())), ' ') + r;
    }
    if (exp_mode_) {
      std::string s = scientific(v);
      size_t e = s.find('e');
      std::string exp_digits = s.substr(e + 2);
      if (static_cast<int>(exp_digits.size()) < exp_size_)
        exp_digits = std::string(exp_size_ - exp_digits.size(), '0') + exp_digits;
      std::string mant = s.substr(0, e);
      int lead = static_cast<int>(mant.find('.'));
      return std::string(std::max(0, pad_left_ - lead), ' ') + mant + "e" + s[e + 1] + exp_digits;
    }
    std::string s = positional_digits(v);
    size_t dot = s.find('.');
    int left = static_cast<int>(dot), right = static_cast<int>(s.size() - dot - 1);
    return std::string(std::max(0, pad_left_ - left), ' ') + s + std::string(std::max(0, pad_right_ - right), ' ');
  }

 private:
  std::string with_sign(std::string s, double v) const {
    if (sign_plus_ && !std::signbit(v)) s = "+" + s;
    return s;
  }
  // Shortest round-trip digits, at most kPrecision after the point, trimmed.
  std::string positional_digits(double v) const {
    std::string s = shortest(v, dtype_, std::chars_format::fixed);
    if (frac_digits(s) > static_cast<size_t>(kPrecision))
      s = chars(v, std::chars_format::fixed, kPrecision, dtype_ == Dtype::kFloat32 || dtype_ == Dtype::kComplex64);
    return with_sign(trim_zeros(s), v);
  }
  std::string scientific(double v) const {
    std::string s = chars(v, std::chars_format::scientific, precision_,
                          dtype_ == Dtype::kFloat32 || dtype_ == Dtype::kComplex64 || dtype_ == Dtype::kFloat16);
    if (precision_ == 0) s.insert(s.find('e'), ".");
    return with_sign(s, v);
  }

  Dtype dtype_;
  bool sign_plus_;
  bool exp_mode_ = false;
  int precision_ = 0, pad_left_ = 0, pad_right_ = 0, exp_size_ = 0;
};

// The elements of the array in C order as doubles / complex (host copy).
struct HostValues {
  std::vector<std::complex<double>> values;
  Shape shape;
};

// Indices shown along one axis: all of them, or the edge items around a gap.
std::vector<int64_t> shown(int64_t n, bool summarize) {
  std::vector<int64_t> idx;
  if (summarize && n > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i) idx.push_back(i);
    for (int64_t i = n - kEdgeItems; i < n; ++i) idx.push_back(i);
  } else {
    for (int64_t i = 0; i < n; ++i) idx.push_back(i);
  }
  return idx;
}

class Printer {
 public:
  Printer(const Array& a, bool summarize, std::string separator)
      : a_(a), summarize_(summarize), sep_(std::move(separator)) {
    host_.resize(static_cast<size_t>(a.size()));
    if (is_integer(a.dtype()) || a.dtype() == Dtype::kBool) {
      // Integers print exactly (a double would round above 2^53).
      if (kind(a.dtype()) == DtypeKind::kUnsigned) {
        std::vector<uint64_t> v = a.to_vector<uint64_t>();
        ints_.assign(v.begin(), v.end());
        unsigned_ = true;
      } else {
        std::vector<int64_t> v = a.to_vector<int64_t>();
        for (int64_t x : v) ints_.push_back(static_cast<uint64_t>(x));
      }
    } else if (is_complex(a.dtype())) {
      std::vector<std::complex<double>> v = a.to_vector<std::complex<double>>();
      host_ = v;
    } else {
      std::vector<double> v = a.to_vector<double>();
      for (size_t i = 0; i < v.size(); ++i) host_[i] = v[i];
    }
    // The formatter sees only the elements that are printed.
    std::vector<int64_t> flat;
    collect(0, 0, &flat);
    Dtype d = a.dtype();
    if (d == Dtype::kBool) {
      true_str_ = a.ndim() == 0 ? "True" : " True";
    } else if (is_integer(d)) {
      for (int64_t f : flat) width_ = std::max<int>(width_, int_text(f).size());
    } else {
      std::vector<double> re, im;
      for (int64_t f : flat) {
        re.push_back(host_[f].real());
        im.push_back(host_[f].imag());
      }
      Dtype part = d == Dtype::kComplex64 ? Dtype::kFloat32 : d == Dtype::kComplex128 ? Dtype::kFloat64 : d;
      real_ = std::make_unique<FloatFormat>(re, part, false);
      if (is_complex(d)) imag_ = std::make_unique<FloatFormat>(im, part, true);
    }
  }

  // NumPy's nested layout with hanging indents, wrapping at `line_width`.
  std::string format(const std::string& hanging, int line_width) const {
    return recurse(0, 0, hanging, line_width);
  }

 private:
  std::string int_text(int64_t flat) const {
    return unsigned_ ? std::to_string(ints_[flat]) : std::to_string(static_cast<int64_t>(ints_[flat]));
  }
  std::string element(int64_t flat) const {
    Dtype d = a_.dtype();
    if (d == Dtype::kBool) return ints_[flat] ? true_str_ : "False";
    if (is_integer(d)) {
      std::string s = int_text(flat);
      return std::string(std::max<int>(0, width_ - static_cast<int>(s.size())), ' ') + s;
    }
    if (!imag_) return (*real_)(host_[flat].real());
    std::string i = (*imag_)(host_[flat].imag());
    size_t end = i.find_last_not_of(' ') + 1;
    return (*real_)(host_[flat].real()) + i.substr(0, end) + "j" + i.substr(end);
  }
  void collect(int axis, int64_t base, std::vector<int64_t>* flat) const {
    if (axis == a_.ndim()) {
      flat->push_back(base);
      return;
    }
    int64_t stride = 1;
    for (int k = axis + 1; k < a_.ndim(); ++k) stride *= a_.shape()[k];
    for (int64_t i : shown(a_.shape()[axis], summarize_)) collect(axis + 1, base + i * stride, flat);
  }
  static void extend(std::string* s, std::string* line, const std::string& word, int width,
                     const std::string& hanging) {
    bool wrap = static_cast<int>(line->size() + word.size()) > width &&
                line->size() > hanging.size();  // wrapping would not help an empty line
    if (wrap) {
      size_t end = line->find_last_not_of(' ');
      *s += line->substr(0, end == std::string::npos ? 0 : end + 1) + "\n";
      *line = hanging;
    }
    *line += word;
  }
  std::string recurse(int axis, int64_t base, const std::string& hanging, int width) const {
    if (axis == a_.ndim()) return element(base);
    const std::string next_hanging = hanging + " ";
    const int next_width = width - 1;
    int64_t n = a_.shape()[axis];
    int64_t stride = 1;
    for (int k = axis + 1; k < a_.ndim(); ++k) stride *= a_.shape()[k];
    std::vector<int64_t> idx = shown(n, summarize_);
    bool gap = static_cast<int64_t>(idx.size()) < n;
    std::string s;
    std::string sep_stripped = sep_.substr(0, sep_.find_last_not_of(' ') + 1);
    if (a_.ndim() - axis == 1) {
      std::string line = hanging;
      for (size_t k = 0; k < idx.size(); ++k) {
        std::string word = recurse(axis + 1, base + idx[k] * stride, next_hanging, next_width);
        bool last = k + 1 == idx.size();
        extend(&s, &line, word, last ? width : width - 1, hanging);
        if (!last) line += sep_;
        if (gap && static_cast<int64_t>(k) == kEdgeItems - 1) {
          extend(&s, &line, "...", width - 1, hanging);
          line += sep_;
        }
      }
      s += line;
    } else {
      std::string line_sep = sep_stripped + std::string(a_.ndim() - axis - 1, '\n');
      for (size_t k = 0; k < idx.size(); ++k) {
        s += hanging + recurse(axis + 1, base + idx[k] * stride, next_hanging, next_width);
        if (k + 1 < idx.size()) s += line_sep;
        if (gap && static_cast<int64_t>(k) == kEdgeItems - 1) s += hanging + "..." + line_sep;
      }
    }
    return "[" + s.substr(hanging.size()) + "]";
  }

  const Array& a_;
  bool summarize_;
  std::string sep_;
  std::vector<std::complex<double>> host_;
  std::vector<uint64_t> ints_;
  bool unsigned_ = false;
  std::string true_str_;
  int width_ = 0;
  std::unique_ptr<FloatFormat> real_, imag_;
};

bool default_dtype_shown(Dtype d) {
  return d == Dtype::kFloat64 || d == Dtype::kInt64 || d == Dtype::kBool || d == Dtype::kComplex128;
}

}  // namespace

std::string shortest_scientific(double v, Dtype dtype) { return shortest(v, dtype, std::chars_format::scientific); }

std::string array_repr(const Array& a) {
  const std::string prefix = "array(";
  bool summarize = a.size() > kThreshold;
  std::string extras;
  if (a.size() == 0 && (a.ndim() != 1)) extras += ", shape=" + a.shape().to_string();
  else if (summarize) extras += ", shape=" + a.shape().to_string();
  bool show_dtype = a.size() == 0 || !default_dtype_shown(a.dtype());
  std::string body;
  if (a.size() == 0) {
    body = "[]";
  } else {
    // The closing ")" (or "," before more arguments) shares the last line.
    int width = kLineWidth - 1;
    body = Printer(a, summarize, ", ").format(std::string(prefix.size() + 1, ' '), width);
  }
  std::string s = prefix + body + extras;
  if (!show_dtype) return s + ")";
  std::string dtype_part = std::string("dtype=") + dtype_name(a.dtype()) + ")";
  size_t last_line = s.size() - (s.rfind('\n') == std::string::npos ? 0 : s.rfind('\n') + 1);
  if (a.size() > 0 && static_cast<int>(last_line + 2 + dtype_part.size()) > kLineWidth)
    return s + ",\n" + std::string(prefix.size(), ' ') + dtype_part;
  return s + ", " + dtype_part;
}

std::string array_str(const Array& a) {
  if (a.size() == 0) return "[]";
  return Printer(a, a.size() > kThreshold, " ").format(" ", kLineWidth);
}

std::ostream& operator<<(std::ostream& os, const Array& a) { return os << array_repr(a); }

}  // namespace kumo
