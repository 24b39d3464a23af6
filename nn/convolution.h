// Convolution over N spatial dimensions as array routines: the forward, and
// its two adjoints (the gradient in the input, which is also a
// deconvolution's forward, and the gradient in the weights). The autograd
// functions convolution_nd / deconvolution_nd are built from these three.
//
//   // x (N, C, H, W), W (Cout, C, 3, 3): y (N, Cout, H, W)
//   kumo::ConvGeometry g = kumo::conv_geometry(x.shape(), W.shape(), {1, 1}, {1, 1});
//   kumo::Array y = kumo::convolution_forward(x, W, b, g);
//
// Each routine asks the device's DnnBackend (nn/dnn_backend.h: oneDNN
// on the host, cuDNN on CUDA) first and otherwise computes im2col + batched
// GEMM (+ col2im) with kumo's own kernels. Inputs of mixed floating dtypes
// are promoted (NumPy's rules); the result has the promoted dtype.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/array.h"
#include "nn/dnn_backend.h"

namespace kumo {

// One entry per spatial axis from Chainer's int-or-tuple parameters (stride,
// pad, dilate, ksize, outsize): none gives `dflt` on every axis, one entry is
// repeated. ValueError naming `who` and `what` for a wrong count or an entry
// below `lo`.
std::vector<int64_t> conv_per_axis(const char* who, const char* what, const std::vector<int64_t>& v, size_t nd,
                                   int64_t dflt, int64_t lo);
// "(1, 2)" / "(3,)": a tuple as Python prints it, for error messages.
std::string conv_tuple_str(const std::vector<int64_t>& v);

// The geometry of convolving x of shape (N, C, *in) with W of shape (Cout,
// C / groups, *ksize), checked: stride, pad, dilate have one entry per
// spatial axis, or one for all, or none (1, 0, 1); cover_all adds Chainer's
// extra end padding so the last partial window is kept. ValueError for
// shapes that do not fit, non-positive output extents or bad parameters.
ConvGeometry conv_geometry(const Shape& x_shape, const Shape& w_shape, const std::vector<int64_t>& stride = {},
                           const std::vector<int64_t>& pad = {}, const std::vector<int64_t>& dilate = {},
                           int64_t groups = 1, bool cover_all = false, const char* who = "convolution");

// y (N, Cout, *g.out_size()) = x convolved with W (cross-correlation) plus b
// (Cout,) when b is defined.
Array convolution_forward(const Array& x, const Array& w, const Array& b, const ConvGeometry& g);
// gx (N, C, *g.in_size): the adjoint of convolution_forward in x applied to
// gy (N, Cout, *g.out_size()).
Array convolution_backward_data(const Array& gy, const Array& w, const ConvGeometry& g);
// gW (Cout, C / groups, *g.ksize): the adjoint in W applied to gy, given x.
Array convolution_backward_weights(const Array& x, const Array& gy, const ConvGeometry& g);

}  // namespace kumo
