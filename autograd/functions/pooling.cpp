#include "autograd/functions/pooling.h"

#include <memory>
#include <string>
#include <vector>

#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/convolution.h"
#include "autograd/mode.h"
#include "core/errors.h"
#include "routines/creation.h"
#include "nn/dnn_backend.h"
#include "nn/im2col.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {
namespace {

std::string vec_str(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

std::vector<int64_t> spatial(const Shape& s, size_t nd) {
  std::vector<int64_t> v;
  for (size_t a = 0; a < nd; ++a) v.push_back(s[static_cast<int>(2 + a)]);
  return v;
}

std::vector<int64_t> per_axis(const char* who, const char* what, const std::vector<int64_t>& v, size_t nd,
                              const std::vector<int64_t>& dflt, int64_t lo) {
  std::vector<int64_t> out = v.empty() ? dflt : v.size() == 1 ? std::vector<int64_t>(nd, v[0]) : v;
  if (out.size() != nd)
    throw ValueError(std::string(who) + ": " + what + " must be an int or have " + std::to_string(nd) +
                     " entries, got " + vec_str(v));
  for (int64_t e : out)
    if (e < lo)
      throw ValueError(std::string(who) + ": " + what + " must be >= " + std::to_string(lo) + ", got " + vec_str(v));
  return out;
}

// The window parameters of a pooling over x: ksize, stride (ksize when
// empty) and pad, one entry per spatial axis.
struct Window {
  size_t nd;
  std::vector<int64_t> k, s, p;
};

Window window(const char* who, const Variable& x, int want_nd, const std::vector<int64_t>& ksize,
              const std::vector<int64_t>& stride, const std::vector<int64_t>& pad) {
  if (!x.defined()) throw TypeError(std::string(who) + ": x is required");
  if (x.ndim() < 3)
    throw ValueError(std::string(who) + ": x must be (N, C, *spatial), got shape " + x.shape().to_string());
  if (want_nd > 0 && x.ndim() != want_nd + 2)
    throw ValueError(std::string(who) + ": x must be " + std::to_string(want_nd + 2) + "-d, got shape " +
                     x.shape().to_string());
  if (!is_floating(x.dtype())) throw TypeError(std::string(who) + ": x must be floating, got " + dtype_name(x.dtype()));
  if (ksize.empty()) throw ValueError(std::string(who) + ": ksize is required");
  Window w;
  w.nd = static_cast<size_t>(x.ndim() - 2);
  w.k = per_axis(who, "ksize", ksize, w.nd, {}, 1);
  w.s = per_axis(who, "stride", stride, w.nd, w.k, 1);
  w.p = per_axis(who, "pad", pad, w.nd, std::vector<int64_t>(w.nd, 0), 0);
  return w;
}

Variable pool_scatter_var(const Variable& v, const Array& idx, const Window& w, const std::vector<int64_t>& outsize);

class PoolGather : public FunctionNode {
 public:
  PoolGather(Array idx, Window w) : idx_(std::move(idx)), w_(std::move(w)) {}
  std::string label() const override { return "PoolGather"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    return {kumo::pool_gather(x[0], idx_, w_.k, w_.s, w_.p)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {pool_scatter_var(gy[0], idx_, w_, spatial(input_shape(0), w_.nd))};
  }

 private:
  Array idx_;
  Window w_;
};

class PoolScatter : public FunctionNode {
 public:
  PoolScatter(Array idx, Window w, std::vector<int64_t> outsize)
      : idx_(std::move(idx)), w_(std::move(w)), out_(std::move(outsize)) {}
  std::string label() const override { return "PoolScatter"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    return {kumo::pool_scatter(x[0], idx_, w_.k, w_.s, w_.p, out_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {apply(std::make_shared<PoolGather>(idx_, w_), {gy[0]})[0]};
  }

 private:
  Array idx_;
  Window w_;
  std::vector<int64_t> out_;
};

Variable pool_scatter_var(const Variable& v, const Array& idx, const Window& w, const std::vector<int64_t>& outsize) {
  return apply(std::make_shared<PoolScatter>(idx, w, outsize), {v})[0];
}

// ---- The vendor backend (cuDNN on CUDA) --------------------------------------

// The vendor backend's pooling of x with window w and output extents out,
// when dnn_backend(x.device()) has one that takes the case (*g is then its
// geometry); null otherwise, and the functions use their own kernels. The
// host's backend declines pooling, so this is the CUDA path only. A window
// reaching past the padding (cover_all) becomes more padding at the end,
// which backends that pad symmetrically decline.
DnnBackend* pool_backend(const Array& x, PoolMode mode, const Window& w, const std::vector<int64_t>& out,
                         PoolGeometry* g) {
  DnnBackend* backend = dnn_backend(x.device());
  if (backend == nullptr) return nullptr;
  for (int64_t o : out)
    if (o <= 0) return nullptr;  // the fallback raises the error
  g->batch = x.shape()[0];
  g->channels = x.shape()[1];
  g->in_size = spatial(x.shape(), w.nd);
  g->ksize = w.k;
  g->stride = w.s;
  g->pad_lo = w.p;
  g->pad_hi = w.p;
  for (size_t a = 0; a < w.nd; ++a) {
    const int64_t reach = (out[a] - 1) * w.s[a] + w.k[a] - w.p[a] - g->in_size[a];
    if (reach > g->pad_hi[a]) g->pad_hi[a] = reach;
  }
  if (g->out_size() != out) return nullptr;
  return backend->supports_pooling(x.dtype(), mode, *g) ? backend : nullptr;
}

Array c_contiguous(const Array& a) { return a.c_contiguous() ? a : a.copy(Order::kC); }

Shape pooled_shape(const Shape& x, const std::vector<int64_t>& out) {
  Shape s{x[0], x[1]};
  for (int64_t o : out) s.push_back(o);
  return s;
}

Array backend_pool_forward(DnnBackend* backend, PoolMode mode, const PoolGeometry& g, const Array& x,
                           const std::vector<int64_t>& out) {
  const Array xc = c_contiguous(x);
  Array y = Array::empty(pooled_shape(x.shape(), out), x.dtype(), x.device());
  backend->pooling_forward(x.device(), x.dtype(), mode, g, xc.data(), y.data());
  return y;
}

// gx from the backend, for backward passes that record no graph.
Variable backend_pool_backward(DnnBackend* backend, PoolMode mode, const PoolGeometry& g, const Array& x,
                               const Array& y, const Variable& gy) {
  const Array xc = c_contiguous(x), yc = c_contiguous(y);
  const Array gyc =
      c_contiguous(gy.array().dtype() == x.dtype() ? gy.array() : gy.array().astype(x.dtype(), Order::kC, false));
  Array gx = Array::empty(x.shape(), x.dtype(), x.device());
  backend->pooling_backward(x.device(), x.dtype(), mode, g, xc.data(), yc.data(), gyc.data(), gx.data());
  return Variable(gx, false);
}

// The extents of a pooling's output (conv_outsize per axis).
std::vector<int64_t> pooled_extents(const Shape& x, const Window& w, bool cover_all) {
  std::vector<int64_t> out;
  for (size_t a = 0; a < w.nd; ++a)
    out.push_back(conv_outsize(x[static_cast<int>(a + 2)], w.k[a], w.s[a], w.p[a], cover_all));
  return out;
}

// Forward keeps the argmax indexes (integer data, not part of the graph);
// backward scatters the gradient to them. With a vendor backend (and no
// indexes asked for), forward is the backend's and keeps x and y instead:
// backward is then the backend's too when it records no graph, and the
// differentiable scatter by indexes (computed from x only then) when it
// does (double backprop).
class MaxPooling : public FunctionNode {
 public:
  MaxPooling(Window w, bool cover_all, bool want_indexes)
      : w_(std::move(w)), cover_all_(cover_all), want_indexes_(want_indexes) {}
  std::string label() const override { return "MaxPoolingND"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    if (!want_indexes_) {
      const std::vector<int64_t> out = pooled_extents(x[0].shape(), w_, cover_all_);
      if (DnnBackend* b = pool_backend(x[0], PoolMode::kMax, w_, out, &geometry_)) {
        backend_ = b;
        retain_inputs({0});
        retain_outputs({0});
        return {backend_pool_forward(b, PoolMode::kMax, geometry_, x[0], out)};
      }
    }
    auto r = kumo::max_pool(x[0], w_.k, w_.s, w_.p, cover_all_);
    idx_ = r.second;
    return {r.first};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    if (backend_ != nullptr) {
      const Array x = get_retained_inputs()[0].array();
      if (!is_backprop_enabled()) {
        return {
            backend_pool_backward(backend_, PoolMode::kMax, geometry_, x, get_retained_outputs()[0].array(), gy[0])};
      }
      if (!idx_.defined()) idx_ = kumo::max_pool(x, w_.k, w_.s, w_.p, cover_all_).second;
    }
    return {pool_scatter_var(gy[0], idx_, w_, spatial(input_shape(0), w_.nd))};
  }
  const Array& indexes() const { return idx_; }

 private:
  Window w_;
  bool cover_all_;
  bool want_indexes_;
  DnnBackend* backend_ = nullptr;
  PoolGeometry geometry_;
  Array idx_;
};

std::pair<Variable, Array> max_pool_impl(const char* who, int want_nd, const Variable& x,
                                         const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                                         const std::vector<int64_t>& pad, bool cover_all, bool want_indexes = false) {
  Window w = window(who, x, want_nd, ksize, stride, pad);
  auto node = std::make_shared<MaxPooling>(w, cover_all, want_indexes);
  Variable y = apply(node, {x})[0];
  return {y, node->indexes()};
}

Variable unpool_impl(const char* who, int want_nd, const Variable& x, const std::vector<int64_t>& ksize,
                     const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                     const std::vector<int64_t>& outsize, bool cover_all);

// The in-bounds elements of each window of a pooling over x of shape xs, as
// a (1, 1, *out) array: the window sums over ones.
Array window_counts(const Shape& xs, Dtype dtype, Device& device, const Window& w, const std::vector<int64_t>& out) {
  const std::vector<int64_t> ones_d(w.nd, 1);
  int64_t K = 1;
  for (int64_t k : w.k) K *= k;
  Shape one{1, 1};
  for (int64_t e : spatial(xs, w.nd)) one.push_back(e);
  Array cnt = kumo::im2col_sized(ones(one, dtype, Order::kC, device), w.k, w.s, w.p, ones_d, out);
  Shape c1{1, 1, K};
  Shape o1{1, 1};
  for (int64_t o : out) {
    c1.push_back(o);
    o1.push_back(o);
  }
  return kumo::sum(cnt.reshape(c1), Axes{2}).reshape(o1);
}

// Average pooling by the vendor backend: forward keeps x and y for the
// backend's backward. The pooling is linear, so under double backprop the
// gradient is the adjoint of the window sums (unpooling over the input's
// extents) applied to gy over the divisors, which is differentiable again.
class AveragePooling : public FunctionNode {
 public:
  AveragePooling(DnnBackend* backend, PoolMode mode, PoolGeometry g, Window w, std::vector<int64_t> out)
      : backend_(backend), mode_(mode), g_(std::move(g)), w_(std::move(w)), out_(std::move(out)) {}
  std::string label() const override { return "AveragePoolingND"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    retain_outputs({0});
    return {backend_pool_forward(backend_, mode_, g_, x[0], out_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    if (!is_backprop_enabled()) {
      return {backend_pool_backward(backend_, mode_, g_, get_retained_inputs()[0].array(),
                                    get_retained_outputs()[0].array(), gy[0])};
    }
    Variable scaled;
    if (mode_ == PoolMode::kAverageIncludePad) {
      int64_t K = 1;
      for (int64_t k : w_.k) K *= k;
      scaled = gy[0] * (1.0 / static_cast<double>(K));
    } else {
      scaled = gy[0] / Variable(window_counts(input_shape(0), input_dtype(0), input_device(0), w_, out_), false);
    }
    return {unpool_impl("average_pooling_nd", 0, scaled, w_.k, w_.s, w_.p, spatial(input_shape(0), w_.nd), false)};
  }

 private:
  DnnBackend* backend_;
  PoolMode mode_;
  PoolGeometry g_;
  Window w_;
  std::vector<int64_t> out_;
};

Variable avg_pool_impl(const char* who, int want_nd, const Variable& x, const std::vector<int64_t>& ksize,
                       const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                       std::optional<double> pad_value) {
  Window w = window(who, x, want_nd, ksize, stride, pad);
  if (pad_value && *pad_value != 0)
    throw ValueError(std::string(who) + ": pad_value must be 0 or None, got " + std::to_string(*pad_value));
  std::vector<int64_t> out;
  int64_t K = 1;
  for (size_t a = 0; a < w.nd; ++a) {
    out.push_back(conv_outsize(x.shape()[static_cast<int>(a + 2)], w.k[a], w.s[a], w.p[a], false));
    if (out.back() <= 0)
      throw ValueError(std::string(who) + ": the output size along spatial axis " + std::to_string(a) +
                       " should be positive, got " + std::to_string(out.back()));
    K *= w.k[a];
  }
  const PoolMode mode = pad_value ? PoolMode::kAverageIncludePad : PoolMode::kAverageExcludePad;
  PoolGeometry g;
  if (DnnBackend* b = pool_backend(x.array(), mode, w, out, &g)) {
    return apply(std::make_shared<AveragePooling>(b, mode, g, w, out), {x})[0];
  }
  const std::vector<int64_t> ones_d(w.nd, 1);
  Variable col = im2col_patches(x, w.k, w.s, w.p, ones_d, out);
  Shape cs{x.shape()[0], x.shape()[1], K};
  Shape ys{x.shape()[0], x.shape()[1]};
  for (int64_t o : out) {
    cs.push_back(o);
    ys.push_back(o);
  }
  Variable s = sum(reshape(col, cs), Axes{2});
  if (pad_value) return s * (1.0 / static_cast<double>(K));
  return s / Variable(window_counts(x.shape(), x.dtype(), x.device(), w, out), false);
}

Variable unpool_impl(const char* who, int want_nd, const Variable& x, const std::vector<int64_t>& ksize,
                     const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                     const std::vector<int64_t>& outsize, bool cover_all) {
  Window w = window(who, x, want_nd, ksize, stride, pad);
  const auto in = spatial(x.shape(), w.nd);
  std::vector<int64_t> out;
  if (outsize.empty()) {
    for (size_t a = 0; a < w.nd; ++a) out.push_back(deconv_outsize(in[a], w.k[a], w.s[a], w.p[a], cover_all));
  } else {
    out = per_axis(who, "outsize", outsize, w.nd, {}, 0);
  }
  for (size_t a = 0; a < w.nd; ++a)
    if (out[a] <= 0)
      throw ValueError(std::string(who) + ": the output size along spatial axis " + std::to_string(a) +
                       " should be positive, got " + std::to_string(out[a]));
  Shape one{x.shape()[0], x.shape()[1]}, full_s{x.shape()[0], x.shape()[1]};
  for (size_t a = 0; a < w.nd; ++a) {
    one.push_back(1);
    full_s.push_back(w.k[a]);
  }
  for (int64_t i : in) {
    one.push_back(i);
    full_s.push_back(i);
  }
  return col2im(broadcast_to(reshape(x, one), full_s), w.s, w.p, out, std::vector<int64_t>(w.nd, 1));
}

}  // namespace

Variable max_pooling_nd(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, bool cover_all) {
  return max_pool_impl("max_pooling_nd", 0, x, ksize, stride, pad, cover_all).first;
}
std::pair<Variable, Array> max_pooling_nd_with_indices(const Variable& x, const std::vector<int64_t>& ksize,
                                                       const std::vector<int64_t>& stride,
                                                       const std::vector<int64_t>& pad, bool cover_all) {
  return max_pool_impl("max_pooling_nd", 0, x, ksize, stride, pad, cover_all, true);
}
Variable max_pooling_1d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, bool cover_all) {
  return max_pool_impl("max_pooling_1d", 1, x, ksize, stride, pad, cover_all).first;
}
Variable max_pooling_2d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, bool cover_all) {
  return max_pool_impl("max_pooling_2d", 2, x, ksize, stride, pad, cover_all).first;
}
Variable max_pooling_3d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, bool cover_all) {
  return max_pool_impl("max_pooling_3d", 3, x, ksize, stride, pad, cover_all).first;
}

Variable average_pooling_nd(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                            const std::vector<int64_t>& pad, std::optional<double> pad_value) {
  return avg_pool_impl("average_pooling_nd", 0, x, ksize, stride, pad, pad_value);
}
Variable average_pooling_1d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                            const std::vector<int64_t>& pad, std::optional<double> pad_value) {
  return avg_pool_impl("average_pooling_1d", 1, x, ksize, stride, pad, pad_value);
}
Variable average_pooling_2d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                            const std::vector<int64_t>& pad, std::optional<double> pad_value) {
  return avg_pool_impl("average_pooling_2d", 2, x, ksize, stride, pad, pad_value);
}
Variable average_pooling_3d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                            const std::vector<int64_t>& pad, std::optional<double> pad_value) {
  return avg_pool_impl("average_pooling_3d", 3, x, ksize, stride, pad, pad_value);
}

Variable unpooling_nd(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                      const std::vector<int64_t>& pad, const std::vector<int64_t>& outsize, bool cover_all) {
  return unpool_impl("unpooling_nd", 0, x, ksize, stride, pad, outsize, cover_all);
}
Variable unpooling_2d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                      const std::vector<int64_t>& pad, const std::vector<int64_t>& outsize, bool cover_all) {
  return unpool_impl("unpooling_2d", 2, x, ksize, stride, pad, outsize, cover_all);
}

Variable upsampling_2d(const Variable& x, const Array& indexes, const std::vector<int64_t>& ksize,
                       const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                       const std::vector<int64_t>& outsize, bool cover_all) {
  const char* who = "upsampling_2d";
  Window w = window(who, x, 2, ksize, stride, pad);
  if (indexes.shape() != x.shape())
    throw ValueError(std::string(who) + ": indexes of shape " + indexes.shape().to_string() +
                     " must have the shape of x " + x.shape().to_string());
  if (!is_integer(indexes.dtype()))
    throw TypeError(std::string(who) + ": indexes must hold integers, got " + dtype_name(indexes.dtype()));
  const auto in = spatial(x.shape(), 2);
  std::vector<int64_t> out;
  if (outsize.empty()) {
    for (size_t a = 0; a < 2; ++a) out.push_back(deconv_outsize(in[a], w.k[a], w.s[a], w.p[a], cover_all));
  } else {
    out = per_axis(who, "outsize", outsize, 2, {}, 0);
  }
  for (size_t a = 0; a < 2; ++a)
    if (out[a] <= 0)
      throw ValueError(std::string(who) + ": the output size along spatial axis " + std::to_string(a) +
                       " should be positive, got " + std::to_string(out[a]));
  return pool_scatter_var(x, indexes.astype(Dtype::kInt64, Order::kC, false), w, out);
}

Variable global_average_pooling_2d(const Variable& x) {
  if (!x.defined()) throw TypeError("global_average_pooling_2d: x is required");
  if (x.ndim() != 4)
    throw ValueError("global_average_pooling_2d: x must be 4-d (N, C, H, W), got shape " + x.shape().to_string());
  if (!is_floating(x.dtype()))
    throw TypeError("global_average_pooling_2d: x must be floating, got " + std::string(dtype_name(x.dtype())));
  return mean(x, Axes{2, 3});
}

}  // namespace autograd
}  // namespace kumo
