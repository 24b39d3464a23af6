#include "autograd/functions/convolution.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "autograd/functions/argument_checks.h"
#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/linalg.h"
#include "core/errors.h"
#include "nn/convolution.h"
#include "nn/im2col.h"

namespace kumo {
namespace autograd {
namespace {

std::vector<int64_t> spatial(const Shape& s, size_t from, size_t nd) {
  std::vector<int64_t> v;
  for (size_t a = 0; a < nd; ++a) v.push_back(s[static_cast<int>(from + a)]);
  return v;
}

class Im2col : public FunctionNode {
 public:
  Im2col(std::vector<int64_t> k, std::vector<int64_t> s, std::vector<int64_t> p, std::vector<int64_t> d,
         std::vector<int64_t> o, double pad_value)
      : k_(std::move(k)), s_(std::move(s)), p_(std::move(p)), d_(std::move(d)), o_(std::move(o)), pv_(pad_value) {}
  std::string label() const override { return "Im2col"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    return {kumo::im2col_sized(x[0], k_, s_, p_, d_, o_, Scalar(pv_))};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {col2im(gy[0], s_, p_, spatial(input_shape(0), 2, k_.size()), d_)};
  }

 private:
  std::vector<int64_t> k_, s_, p_, d_, o_;
  double pv_;
};

class Col2im : public FunctionNode {
 public:
  Col2im(std::vector<int64_t> s, std::vector<int64_t> p, std::vector<int64_t> o, std::vector<int64_t> d)
      : s_(std::move(s)), p_(std::move(p)), o_(std::move(o)), d_(std::move(d)) {}
  std::string label() const override { return "Col2im"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::col2im(x[0], s_, p_, o_, d_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    const size_t nd = s_.size();
    return {im2col_patches(gy[0], spatial(input_shape(0), 2, nd), s_, p_, d_, spatial(input_shape(0), 2 + nd, nd))};
  }

 private:
  std::vector<int64_t> s_, p_, o_, d_;
};

void check_bias(const char* who, const Variable& b, int64_t channels) {
  if (b.defined() && (b.ndim() != 1 || b.shape()[0] != channels))
    throw ValueError(std::string(who) + ": b must have shape (" + std::to_string(channels) + ",), got " +
                     b.shape().to_string());
}

size_t check_ranks(const char* who, const Variable& x, const Variable& W, int want_nd) {
  if (!x.defined() || !W.defined()) throw TypeError(std::string(who) + ": x and W are required");
  if (x.ndim() < 3)
    throw ValueError(std::string(who) + ": x must be (N, C, *spatial), got shape " + x.shape().to_string());
  if (W.ndim() != x.ndim())
    throw ValueError(std::string(who) + ": W must have as many dimensions as x (" + std::to_string(x.ndim()) +
                     "), got shape " + W.shape().to_string());
  if (want_nd > 0 && x.ndim() != want_nd + 2)
    throw ValueError(std::string(who) + ": x must be " + std::to_string(want_nd + 2) + "-d, got shape " +
                     x.shape().to_string());
  require_floating(x, who, "x");
  require_floating(W, who, "W");
  return static_cast<size_t>(x.ndim() - 2);
}

int64_t prod(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t e : v) p *= e;
  return p;
}

// The three linear maps of a convolution with geometry g, each a function
// node whose backward is written with the other two (Chainer's
// Convolution2DFunction, Deconvolution2DFunction and Convolution2DGradW):
// any order of derivative stays on the vendor kernels.
Variable conv_forward_var(const Variable& x, const Variable& W, const Variable& b, const ConvGeometry& g);
Variable conv_data_grad_var(const Variable& gy, const Variable& W, const ConvGeometry& g);
Variable conv_weight_grad_var(const Variable& x, const Variable& gy, const ConvGeometry& g);

// The bias gradient: gy summed over every axis but the channels.
Variable bias_grad(const Variable& gy) {
  std::vector<int64_t> axes{0};
  for (int64_t a = 2; a < gy.ndim(); ++a) axes.push_back(a);
  return sum(gy, Axes(axes));
}

// y = x * W (+ b): inputs (x, W[, b]).
class Convolution : public FunctionNode {
 public:
  explicit Convolution(ConvGeometry g) : g_(std::move(g)) {}
  std::string label() const override { return "Convolution"; }
  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_inputs({0, 1});
    return {kumo::convolution_forward(in[0], in[1], in.size() > 2 ? in[2] : Array(), g_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> r = get_retained_inputs(), out;
    for (size_t t : targets) {
      if (!gy[0].defined())
        out.emplace_back();
      else if (t == 0)
        out.push_back(conv_data_grad_var(gy[0], r[1], g_));
      else if (t == 1)
        out.push_back(conv_weight_grad_var(r[0], gy[0], g_));
      else
        out.push_back(bias_grad(gy[0]));
    }
    return out;
  }

 private:
  ConvGeometry g_;
};

// gx = the adjoint in x applied to gy (a deconvolution): inputs (gy, W).
class ConvolutionDataGrad : public FunctionNode {
 public:
  explicit ConvolutionDataGrad(ConvGeometry g) : g_(std::move(g)) {}
  std::string label() const override { return "ConvolutionDataGrad"; }
  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_inputs({0, 1});
    return {kumo::convolution_backward_data(in[0], in[1], g_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& ggx) override {
    std::vector<Variable> r = get_retained_inputs(), out;
    for (size_t t : targets) {
      if (!ggx[0].defined())
        out.emplace_back();
      else if (t == 0)
        out.push_back(conv_forward_var(ggx[0], r[1], Variable(), g_));
      else
        out.push_back(conv_weight_grad_var(ggx[0], r[0], g_));
    }
    return out;
  }

 private:
  ConvGeometry g_;
};

// gW = the adjoint in W applied to gy: inputs (x, gy).
class ConvolutionWeightGrad : public FunctionNode {
 public:
  explicit ConvolutionWeightGrad(ConvGeometry g) : g_(std::move(g)) {}
  std::string label() const override { return "ConvolutionWeightGrad"; }
  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_inputs({0, 1});
    return {kumo::convolution_backward_weights(in[0], in[1], g_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& ggw) override {
    std::vector<Variable> r = get_retained_inputs(), out;
    for (size_t t : targets) {
      if (!ggw[0].defined())
        out.emplace_back();
      else if (t == 0)
        out.push_back(conv_data_grad_var(r[1], ggw[0], g_));
      else
        out.push_back(conv_forward_var(r[0], ggw[0], Variable(), g_));
    }
    return out;
  }

 private:
  ConvGeometry g_;
};

Variable conv_forward_var(const Variable& x, const Variable& W, const Variable& b, const ConvGeometry& g) {
  std::vector<Variable> in{x, W};
  if (b.defined()) in.push_back(b);
  return autograd::apply(std::make_shared<Convolution>(g), in)[0];
}
Variable conv_data_grad_var(const Variable& gy, const Variable& W, const ConvGeometry& g) {
  return autograd::apply(std::make_shared<ConvolutionDataGrad>(g), {gy, W})[0];
}
Variable conv_weight_grad_var(const Variable& x, const Variable& gy, const ConvGeometry& g) {
  return autograd::apply(std::make_shared<ConvolutionWeightGrad>(g), {x, gy})[0];
}

Variable conv_impl(const char* who, int want_nd, const Variable& x, const Variable& W, const Variable& b,
                   const std::vector<int64_t>& stride, const std::vector<int64_t>& pad, bool cover_all,
                   const std::vector<int64_t>& dilate, int64_t groups) {
  check_ranks(who, x, W, want_nd);
  if (b.defined()) require_floating(b, who, "b");
  const ConvGeometry g = conv_geometry(x.shape(), W.shape(), stride, pad, dilate, groups, cover_all, who);
  check_bias(who, b, g.out_channels);
  return conv_forward_var(x, W, b, g);
}

// A deconvolution of x (N, C, *in) by W (C, Cout / G, *k) is the adjoint in
// x of the convolution from (N, Cout, *outsize) to x's shape with the same W.
Variable deconv_impl(const char* who, int want_nd, const Variable& x, const Variable& W, const Variable& b,
                     const std::vector<int64_t>& stride0, const std::vector<int64_t>& pad0,
                     const std::vector<int64_t>& outsize0, const std::vector<int64_t>& dilate0, int64_t groups) {
  const size_t nd = check_ranks(who, x, W, want_nd);
  if (b.defined()) require_floating(b, who, "b");
  const auto stride = conv_per_axis(who, "stride", stride0, nd, 1, 1);
  const auto pad = conv_per_axis(who, "pad", pad0, nd, 0, 0);
  const auto dilate = conv_per_axis(who, "dilate", dilate0, nd, 1, 1);
  if (groups < 1) throw ValueError(std::string(who) + ": groups must be positive, got " + std::to_string(groups));
  const int64_t N = x.shape()[0], C = x.shape()[1];
  if (W.shape()[0] != C)
    throw ValueError(std::string(who) + ": W of shape " + W.shape().to_string() + " expects " +
                     std::to_string(W.shape()[0]) + " input channels, x has " + std::to_string(C));
  if (C % groups != 0)
    throw ValueError(std::string(who) + ": the number of input channels (" + std::to_string(C) +
                     ") must be divisible by groups (" + std::to_string(groups) + ")");
  const int64_t Cout = W.shape()[1] * groups;
  const auto ksize = spatial(W.shape(), 2, nd);
  const auto in = spatial(x.shape(), 2, nd);
  std::vector<int64_t> out;
  if (outsize0.empty()) {
    for (size_t a = 0; a < nd; ++a) out.push_back(deconv_outsize(in[a], ksize[a], stride[a], pad[a], false, dilate[a]));
  } else {
    out = conv_per_axis(who, "outsize", outsize0, nd, 0, 0);
    for (size_t a = 0; a < nd; ++a) {
      const int64_t lo = conv_outsize(out[a], ksize[a], stride[a], pad[a], false, dilate[a]);
      const int64_t hi = conv_outsize(out[a], ksize[a], stride[a], pad[a], true, dilate[a]);
      if (in[a] < lo || in[a] > hi)
        throw ValueError(std::string(who) + ": outsize " + conv_tuple_str(out) + " does not fit the input extent " +
                         std::to_string(in[a]) + " along spatial axis " + std::to_string(a) + " (it needs " +
                         std::to_string(lo) + " to " + std::to_string(hi) + ")");
    }
  }
  for (size_t a = 0; a < nd; ++a)
    if (out[a] <= 0)
      throw ValueError(std::string(who) + ": the output size along spatial axis " + std::to_string(a) +
                       " should be positive, got " + std::to_string(out[a]));
  Shape ys{N, Cout};
  for (int64_t o : out) ys.push_back(o);
  ConvGeometry g = conv_geometry(ys, W.shape(), stride, pad, dilate, groups, false, who);
  // An outsize between the plain and the cover_all extent: end padding
  // that makes the convolution's output x's extent.
  for (size_t a = 0; a < nd; ++a) {
    const int64_t span = (ksize[a] - 1) * dilate[a] + 1;
    g.pad_hi[a] = std::max(g.pad_lo[a], (in[a] - 1) * stride[a] + span - out[a] - pad[a]);
  }
  check_bias(who, b, Cout);
  Variable y = conv_data_grad_var(x, W, g);
  if (!b.defined()) return y;
  Shape bs{1, Cout};
  for (size_t a = 0; a < nd; ++a) bs.push_back(1);
  return y + reshape(b, bs);
}

}  // namespace

Variable im2col_patches(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, const std::vector<int64_t>& dilate,
                        const std::vector<int64_t>& outsize, double pad_value) {
  return apply(std::make_shared<Im2col>(ksize, stride, pad, dilate, outsize, pad_value), {x})[0];
}

Variable col2im(const Variable& col, const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                const std::vector<int64_t>& outsize, const std::vector<int64_t>& dilate) {
  return apply(std::make_shared<Col2im>(stride, pad, outsize, dilate), {col})[0];
}

Variable im2col(const Variable& x, const std::vector<int64_t>& ksize0, const std::vector<int64_t>& stride0,
                const std::vector<int64_t>& pad0, bool cover_all, const std::vector<int64_t>& dilate0) {
  const char* who = "im2col";
  if (x.ndim() < 3) throw ValueError("im2col: x must be (N, C, *spatial), got shape " + x.shape().to_string());
  const size_t nd = static_cast<size_t>(x.ndim() - 2);
  const auto ksize = conv_per_axis(who, "ksize", ksize0, nd, 1, 1);
  if (ksize0.empty()) throw ValueError("im2col: ksize is required");
  const auto stride = conv_per_axis(who, "stride", stride0, nd, 1, 1);
  const auto pad = conv_per_axis(who, "pad", pad0, nd, 0, 0);
  const auto dilate = conv_per_axis(who, "dilate", dilate0, nd, 1, 1);
  std::vector<int64_t> out;
  Shape ys{x.shape()[0], x.shape()[1] * prod(ksize)};
  for (size_t a = 0; a < nd; ++a) {
    out.push_back(conv_outsize(x.shape()[static_cast<int>(a + 2)], ksize[a], stride[a], pad[a], cover_all, dilate[a]));
    if (out.back() <= 0)
      throw ValueError("im2col: the output size along spatial axis " + std::to_string(a) + " should be positive, got " +
                       std::to_string(out.back()));
    ys.push_back(out.back());
  }
  return reshape(im2col_patches(x, ksize, stride, pad, dilate, out), ys);
}

Variable convolution_nd(const Variable& x, const Variable& W, const Variable& b, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, bool cover_all, const std::vector<int64_t>& dilate,
                        int64_t groups) {
  return conv_impl("convolution_nd", 0, x, W, b, stride, pad, cover_all, dilate, groups);
}
Variable convolution_1d(const Variable& x, const Variable& W, const Variable& b, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, bool cover_all, const std::vector<int64_t>& dilate,
                        int64_t groups) {
  return conv_impl("convolution_1d", 1, x, W, b, stride, pad, cover_all, dilate, groups);
}
Variable convolution_2d(const Variable& x, const Variable& W, const Variable& b, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, bool cover_all, const std::vector<int64_t>& dilate,
                        int64_t groups) {
  return conv_impl("convolution_2d", 2, x, W, b, stride, pad, cover_all, dilate, groups);
}
Variable convolution_3d(const Variable& x, const Variable& W, const Variable& b, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, bool cover_all, const std::vector<int64_t>& dilate,
                        int64_t groups) {
  return conv_impl("convolution_3d", 3, x, W, b, stride, pad, cover_all, dilate, groups);
}

Variable deconvolution_nd(const Variable& x, const Variable& W, const Variable& b, const std::vector<int64_t>& stride,
                          const std::vector<int64_t>& pad, const std::vector<int64_t>& outsize,
                          const std::vector<int64_t>& dilate, int64_t groups) {
  return deconv_impl("deconvolution_nd", 0, x, W, b, stride, pad, outsize, dilate, groups);
}
Variable deconvolution_1d(const Variable& x, const Variable& W, const Variable& b, const std::vector<int64_t>& stride,
                          const std::vector<int64_t>& pad, const std::vector<int64_t>& outsize,
                          const std::vector<int64_t>& dilate, int64_t groups) {
  return deconv_impl("deconvolution_1d", 1, x, W, b, stride, pad, outsize, dilate, groups);
}
Variable deconvolution_2d(const Variable& x, const Variable& W, const Variable& b, const std::vector<int64_t>& stride,
                          const std::vector<int64_t>& pad, const std::vector<int64_t>& outsize,
                          const std::vector<int64_t>& dilate, int64_t groups) {
  return deconv_impl("deconvolution_2d", 2, x, W, b, stride, pad, outsize, dilate, groups);
}
Variable deconvolution_3d(const Variable& x, const Variable& W, const Variable& b, const std::vector<int64_t>& stride,
                          const std::vector<int64_t>& pad, const std::vector<int64_t>& outsize,
                          const std::vector<int64_t>& dilate, int64_t groups) {
  return deconv_impl("deconvolution_3d", 3, x, W, b, stride, pad, outsize, dilate, groups);
}

Variable depthwise_convolution_2d(const Variable& x, const Variable& W, const Variable& b,
                                  const std::vector<int64_t>& stride, const std::vector<int64_t>& pad) {
  const char* who = "depthwise_convolution_2d";
  check_ranks(who, x, W, 2);
  const int64_t M = W.shape()[0], C = W.shape()[1];
  if (x.shape()[1] != C)
    throw ValueError(std::string(who) + ": W of shape " + W.shape().to_string() + " expects " + std::to_string(C) +
                     " channels, x has " + std::to_string(x.shape()[1]));
  // A grouped convolution with one group per channel: filter c * M + m is W[m, c].
  Variable Wg = reshape(transpose(W, {1, 0, 2, 3}), Shape{C * M, 1, W.shape()[2], W.shape()[3]});
  return conv_impl(who, 2, x, Wg, b, stride, pad, false, {}, C);
}

}  // namespace autograd
}  // namespace kumo
