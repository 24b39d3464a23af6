#include "nn/convolution.h"

#include <string>

#include "core/errors.h"
#include "linalg/products.h"
#include "routines/elementwise.h"
#include "nn/im2col.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"

namespace kumo {
namespace {

int64_t prod(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t e : v) p *= e;
  return p;
}

Shape make_shape(std::initializer_list<int64_t> head, const std::vector<int64_t>& tail) {
  Shape s;
  for (int64_t e : head) s.push_back(e);
  for (int64_t e : tail) s.push_back(e);
  return s;
}

Dtype common_float(const char* who, std::initializer_list<const Array*> arrays) {
  Dtype dt = Dtype::kBool;
  bool first = true;
  for (const Array* a : arrays) {
    if (!a->defined()) continue;
    if (!is_floating(a->dtype()))
      throw TypeError(std::string(who) + ": arrays must be floating, got " + dtype_name(a->dtype()));
    dt = first ? a->dtype() : promote_types(dt, a->dtype());
    first = false;
  }
  return dt;
}

// The array as C-contiguous data of `dtype` (no copy when it already is).
Array prepared(const Array& a, Dtype dtype) {
  Array r = a.dtype() == dtype ? a : a.astype(dtype);
  return r.c_contiguous() ? r : r.copy(Order::kC);
}

void check_same_device(const char* who, const Array& a, const Array& b) {
  if (b.defined() && &a.device() != &b.device())
    throw ValueError(std::string(who) + ": arrays are on different devices");
}

void check_shape(const char* who, const char* what, const Array& a, const Shape& want) {
  if (a.shape() != want)
    throw ValueError(std::string(who) + ": " + what + " must have shape " + want.to_string() + ", got " +
                     a.shape().to_string());
}

// The patches of x for g as (N, G, C / G * K, O); x itself for a 1x1
// convolution without stride or padding.
Array patches(const Array& x, const ConvGeometry& g) {
  const int64_t K = prod(g.ksize), O = prod(g.out_size()), G = g.groups;
  bool pointwise = true;
  for (size_t a = 0; a < g.ndim(); ++a)
    pointwise = pointwise && g.ksize[a] == 1 && g.stride[a] == 1 && g.pad_lo[a] == 0 && g.pad_hi[a] == 0;
  const Array col = pointwise ? x : im2col_sized(x, g.ksize, g.stride, g.pad_lo, g.dilate, g.out_size());
  return col.reshape(Shape{g.batch, G, g.in_channels / G * K, O});
}

}  // namespace

std::string conv_tuple_str(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

std::vector<int64_t> conv_per_axis(const char* who, const char* what, const std::vector<int64_t>& v, size_t nd,
                                   int64_t dflt, int64_t lo) {
  std::vector<int64_t> out = v.empty()       ? std::vector<int64_t>(nd, dflt)
                             : v.size() == 1 ? std::vector<int64_t>(nd, v[0])
                                             : v;
  if (out.size() != nd)
    throw ValueError(std::string(who) + ": " + what + " must be an int or have " + std::to_string(nd) +
                     " entries, got " + conv_tuple_str(v));
  for (int64_t e : out)
    if (e < lo)
      throw ValueError(std::string(who) + ": " + what + " must be >= " + std::to_string(lo) + ", got " +
                       conv_tuple_str(v));
  return out;
}

ConvGeometry conv_geometry(const Shape& x_shape, const Shape& w_shape, const std::vector<int64_t>& stride,
                           const std::vector<int64_t>& pad, const std::vector<int64_t>& dilate, int64_t groups,
                           bool cover_all, const char* who) {
  if (x_shape.size() < 3)
    throw ValueError(std::string(who) + ": x must be (N, C, *spatial), got shape " + x_shape.to_string());
  if (w_shape.size() != x_shape.size())
    throw ValueError(std::string(who) + ": W must have as many dimensions as x (" + std::to_string(x_shape.size()) +
                     "), got shape " + w_shape.to_string());
  const size_t nd = x_shape.size() - 2;
  ConvGeometry g;
  g.stride = conv_per_axis(who, "stride", stride, nd, 1, 1);
  g.pad_lo = conv_per_axis(who, "pad", pad, nd, 0, 0);
  g.dilate = conv_per_axis(who, "dilate", dilate, nd, 1, 1);
  if (groups < 1) throw ValueError(std::string(who) + ": groups must be positive, got " + std::to_string(groups));
  g.groups = groups;
  g.batch = x_shape[0];
  g.in_channels = x_shape[1];
  g.out_channels = w_shape[0];
  if (g.in_channels % groups != 0 || g.out_channels % groups != 0)
    throw ValueError(std::string(who) + ": the numbers of input (" + std::to_string(g.in_channels) + ") and output (" +
                     std::to_string(g.out_channels) + ") channels must be divisible by groups (" +
                     std::to_string(groups) + ")");
  if (w_shape[1] != g.in_channels / groups)
    throw ValueError(std::string(who) + ": W of shape " + w_shape.to_string() + " expects " +
                     std::to_string(w_shape[1] * groups) + " input channels, x has " + std::to_string(g.in_channels));
  for (size_t a = 0; a < nd; ++a) {
    g.in_size.push_back(x_shape[static_cast<int>(a + 2)]);
    g.ksize.push_back(w_shape[static_cast<int>(a + 2)]);
  }
  g.pad_hi = g.pad_lo;
  for (size_t a = 0; a < nd; ++a) {
    const int64_t out = conv_outsize(g.in_size[a], g.ksize[a], g.stride[a], g.pad_lo[a], cover_all, g.dilate[a]);
    if (out <= 0)
      throw ValueError(std::string(who) + ": the output size along spatial axis " + std::to_string(a) +
                       " should be positive, got " + std::to_string(out));
    // The end padding that makes out_size() give `out` (cover_all's extra
    // stride - 1 at most); it never removes the symmetric padding.
    const int64_t span = (g.ksize[a] - 1) * g.dilate[a] + 1;
    const int64_t need = (out - 1) * g.stride[a] + span - g.in_size[a] - g.pad_lo[a];
    if (need > g.pad_hi[a]) g.pad_hi[a] = need;
  }
  return g;
}

Array convolution_forward(const Array& x0, const Array& w0, const Array& b0, const ConvGeometry& g) {
  const char* who = "convolution_forward";
  check_same_device(who, x0, w0);
  check_same_device(who, x0, b0);
  check_shape(who, "x", x0, make_shape({g.batch, g.in_channels}, g.in_size));
  check_shape(who, "W", w0, make_shape({g.out_channels, g.in_channels / g.groups}, g.ksize));
  if (b0.defined()) check_shape(who, "b", b0, Shape{g.out_channels});
  const Dtype dt = common_float(who, {&x0, &w0, &b0});
  const auto out = g.out_size();
  if (DnnBackend* dnn = dnn_backend(x0.device()); dnn && g.batch > 0 && dnn->supports_convolution(dt, g)) {
    const Array x = prepared(x0, dt), w = prepared(w0, dt), b = b0.defined() ? prepared(b0, dt) : Array();
    Array y = Array::empty(make_shape({g.batch, g.out_channels}, out), dt, x.device());
    dnn->convolution_forward(x.device(), dt, g, x.data(), w.data(), b.defined() ? b.data() : nullptr, y.data());
    return y;
  }
  const Array x = x0.astype(dt, Order::kK, false), w = w0.astype(dt, Order::kK, false);
  const int64_t G = g.groups, Cg = g.in_channels / G, K = prod(g.ksize);
  // (G, Cout / G, Cg * K) @ (N, G, Cg * K, O) -> (N, G, Cout / G, O)
  Array y = matmul(w.reshape(Shape{G, g.out_channels / G, Cg * K}), patches(x, g))
                .reshape(make_shape({g.batch, g.out_channels}, out));
  if (b0.defined()) {
    std::vector<int64_t> ones(g.ndim(), 1);
    y = add(y, b0.astype(dt, Order::kK, false).reshape(make_shape({1, g.out_channels}, ones)));
  }
  return y;
}

Array convolution_backward_data(const Array& gy0, const Array& w0, const ConvGeometry& g) {
  const char* who = "convolution_backward_data";
  check_same_device(who, gy0, w0);
  const auto out = g.out_size();
  check_shape(who, "gy", gy0, make_shape({g.batch, g.out_channels}, out));
  check_shape(who, "W", w0, make_shape({g.out_channels, g.in_channels / g.groups}, g.ksize));
  const Dtype dt = common_float(who, {&gy0, &w0});
  if (DnnBackend* dnn = dnn_backend(gy0.device()); dnn && g.batch > 0 && dnn->supports_convolution(dt, g)) {
    const Array gy = prepared(gy0, dt), w = prepared(w0, dt);
    Array gx = Array::empty(make_shape({g.batch, g.in_channels}, g.in_size), dt, gy.device());
    dnn->convolution_backward_data(gy.device(), dt, g, w.data(), gy.data(), gx.data());
    return gx;
  }
  const Array gy = gy0.astype(dt, Order::kK, false), w = w0.astype(dt, Order::kK, false);
  const int64_t G = g.groups, Cg = g.in_channels / G, Og = g.out_channels / G, K = prod(g.ksize), O = prod(out);
  // (G, Cg * K, Cout / G) @ (N, G, Cout / G, O) -> (N, G, Cg * K, O)
  const Array wt = w.reshape(Shape{G, Og, Cg * K}).transpose({0, 2, 1});
  Array col = matmul(wt, gy.reshape(Shape{g.batch, G, Og, O}));
  Shape cs{g.batch, g.in_channels};
  for (int64_t k : g.ksize) cs.push_back(k);
  for (int64_t o : out) cs.push_back(o);
  return col2im(col.reshape(cs), g.stride, g.pad_lo, g.in_size, g.dilate);
}

Array convolution_backward_weights(const Array& x0, const Array& gy0, const ConvGeometry& g) {
  const char* who = "convolution_backward_weights";
  check_same_device(who, x0, gy0);
  const auto out = g.out_size();
  check_shape(who, "x", x0, make_shape({g.batch, g.in_channels}, g.in_size));
  check_shape(who, "gy", gy0, make_shape({g.batch, g.out_channels}, out));
  const Dtype dt = common_float(who, {&x0, &gy0});
  const Shape w_shape = make_shape({g.out_channels, g.in_channels / g.groups}, g.ksize);
  if (DnnBackend* dnn = dnn_backend(x0.device()); dnn && g.batch > 0 && dnn->supports_convolution(dt, g)) {
    const Array x = prepared(x0, dt), gy = prepared(gy0, dt);
    Array gw = Array::empty(w_shape, dt, x.device());
    dnn->convolution_backward_weights(x.device(), dt, g, x.data(), gy.data(), gw.data());
    return gw;
  }
  const Array x = x0.astype(dt, Order::kK, false), gy = gy0.astype(dt, Order::kK, false);
  const int64_t G = g.groups, Og = g.out_channels / G, O = prod(out);
  // sum over n of (N, G, Cout / G, O) @ (N, G, O, Cg * K)
  const Array col = patches(x, g);
  const Array per_sample = matmul(gy.reshape(Shape{g.batch, G, Og, O}), col.transpose({0, 1, 3, 2}));
  return sum(per_sample, Axes(int64_t{0})).reshape(w_shape);
}

}  // namespace kumo
