#include "autograd/functions/pooling.h"

#include <memory>
#include <string>
#include <vector>

#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/convolution.h"
#include "core/errors.h"
#include "routines/creation.h"
#include "routines/im2col.h"
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

// Forward keeps the argmax indexes (integer data, not part of the graph);
// backward scatters the gradient to them.
class MaxPooling : public FunctionNode {
 public:
  MaxPooling(Window w, bool cover_all) : w_(std::move(w)), cover_all_(cover_all) {}
  std::string label() const override { return "MaxPoolingND"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    auto r = kumo::max_pool(x[0], w_.k, w_.s, w_.p, cover_all_);
    idx_ = r.second;
    return {r.first};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {pool_scatter_var(gy[0], idx_, w_, spatial(input_shape(0), w_.nd))};
  }
  const Array& indexes() const { return idx_; }

 private:
  Window w_;
  bool cover_all_;
  Array idx_;
};

std::pair<Variable, Array> max_pool_impl(const char* who, int want_nd, const Variable& x,
                                         const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                                         const std::vector<int64_t>& pad, bool cover_all) {
  Window w = window(who, x, want_nd, ksize, stride, pad);
  auto node = std::make_shared<MaxPooling>(w, cover_all);
  Variable y = apply(node, {x})[0];
  return {y, node->indexes()};
}

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
  // The in-bounds elements of each window: the same sum over ones.
  Shape one{1, 1};
  for (int64_t e : spatial(x.shape(), w.nd)) one.push_back(e);
  Array cnt = kumo::im2col_sized(ones(one, x.dtype(), Order::kC, x.device()), w.k, w.s, w.p, ones_d, out);
  Shape c1{1, 1, K};
  Shape o1{1, 1};
  for (int64_t o : out) {
    c1.push_back(o);
    o1.push_back(o);
  }
  Array count = kumo::sum(cnt.reshape(c1), Axes{2}).reshape(o1);
  return s / Variable(count, false);
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
  return max_pool_impl("max_pooling_nd", 0, x, ksize, stride, pad, cover_all);
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
