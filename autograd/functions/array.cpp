#include "autograd/functions/array.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <string>

#include "autograd/functions/argument_checks.h"
#include "autograd/function_node.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/indexing.h"
#include "core/errors.h"
#include "routines/creation.h"
#include "routines/interop.h"
#include "routines/manipulation.h"
#include "routines/padding.h"

namespace kumo {
namespace autograd {
namespace {

class BroadcastTo : public FunctionNode {
 public:
  explicit BroadcastTo(Shape shape) : shape_(shape) {}
  std::string label() const override { return "BroadcastTo"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::broadcast_to(x[0], shape_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {sum_to(gy[0], input_shape(0))};
  }

 private:
  Shape shape_;
};

// The axes sum_to reduces: the leading ones x has beyond `shape`, and those
// where `shape` has extent 1 and x more.
std::vector<int64_t> sum_to_axes(const Shape& from, const Shape& to) {
  if (to.size() > from.size())
    throw ValueError("sum_to: cannot sum shape " + from.to_string() + " to the larger rank " + to.to_string());
  const int lead = from.size() - to.size();
  std::vector<int64_t> axes;
  for (int i = 0; i < lead; ++i) axes.push_back(i);
  for (int i = 0; i < to.size(); ++i) {
    if (to[i] == from[lead + i]) continue;
    if (to[i] != 1) throw ValueError("sum_to: shape " + from.to_string() + " is not a broadcast of " + to.to_string());
    axes.push_back(lead + i);
  }
  return axes;
}

class SumTo : public FunctionNode {
 public:
  explicit SumTo(Shape shape) : shape_(shape) {}
  std::string label() const override { return "SumTo"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    Array s = kumo::sum(x[0], Axes(sum_to_axes(x[0].shape(), shape_)), ReduceOptions().keepdims(true));
    return {s.reshape(shape_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {broadcast_to(gy[0], input_shape(0))};
  }

 private:
  Shape shape_;
};

class Sum : public FunctionNode {
 public:
  Sum(Axes axes, bool keepdims) : axes_(std::move(axes)), keepdims_(keepdims) {}
  std::string label() const override { return "Sum"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    return {kumo::sum(x[0], axes_, ReduceOptions().keepdims(keepdims_))};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    const Shape& in = input_shape(0);
    Variable g = gy[0];
    if (!keepdims_) {
      // Put the reduced axes back as extent 1, then broadcast.
      Shape kept = in;
      if (axes_.is_all()) {
        for (int i = 0; i < kept.size(); ++i) kept[i] = 1;
      } else {
        for (int64_t a : axes_.list()) kept[static_cast<int>(normalize_axis(a, in.size()))] = 1;
      }
      g = reshape(g, kept);
    }
    return {broadcast_to(g, in)};
  }

 private:
  Axes axes_;
  bool keepdims_;
};

class Reshape : public FunctionNode {
 public:
  explicit Reshape(Shape shape) : shape_(shape) {}
  std::string label() const override { return "Reshape"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {x[0].reshape(shape_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {reshape(gy[0], input_shape(0))};
  }

 private:
  Shape shape_;
};

class Transpose : public FunctionNode {
 public:
  explicit Transpose(std::vector<int64_t> axes) : axes_(std::move(axes)) {}
  std::string label() const override { return "Transpose"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    if (axes_.empty()) {
      axes_.resize(x[0].ndim());
      std::iota(axes_.rbegin(), axes_.rend(), 0);
    }
    return {x[0].transpose(axes_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    std::vector<int64_t> inverse(axes_.size());
    for (size_t i = 0; i < axes_.size(); ++i)
      inverse[static_cast<size_t>(normalize_axis(axes_[i], static_cast<int>(axes_.size())))] = static_cast<int64_t>(i);
    return {transpose(gy[0], inverse)};
  }

 private:
  std::vector<int64_t> axes_;
};

class Copy : public FunctionNode {
 public:
  explicit Copy(Device& device) : device_(&device) {}
  std::string label() const override { return "Copy"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    return {&x[0].device() == device_ ? x[0].copy() : x[0].to_device(*device_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {copy(gy[0], input_device(0))};
  }

 private:
  Device* device_;
};

Variable one(const std::shared_ptr<FunctionNode>& f, const Variable& x) { return apply(f, {x})[0]; }

}  // namespace

Variable broadcast_to(const Variable& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  return one(std::make_shared<BroadcastTo>(shape), x);
}

std::vector<Variable> broadcast(const std::vector<Variable>& xs) {
  if (xs.empty()) throw ValueError("broadcast: at least one argument is needed");
  std::vector<Shape> shapes;
  shapes.reserve(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!xs[i].defined()) throw TypeError("broadcast: argument " + std::to_string(i) + " is None");
    shapes.push_back(xs[i].shape());
  }
  const Shape shape = broadcast_shapes(shapes);
  std::vector<Variable> out;
  out.reserve(xs.size());
  for (const Variable& x : xs) out.push_back(broadcast_to(x, shape));
  return out;
}

Variable sum_to(const Variable& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  return one(std::make_shared<SumTo>(shape), x);
}

Variable sum(const Variable& x, const Axes& axes, bool keepdims) {
  return one(std::make_shared<Sum>(axes, keepdims), x);
}

Variable mean(const Variable& x, const Axes& axes, bool keepdims) {
  int64_t count = 1;
  if (axes.is_all()) {
    count = x.size();
  } else {
    for (int64_t a : axes.list()) count *= x.shape()[normalize_axis(a, x.ndim())];
  }
  Variable s = sum(x, axes, keepdims);
  // Integer input: the mean is floating, as NumPy's.
  if (!is_inexact(s.dtype())) s = cast(s, Dtype::kFloat64);
  return s / static_cast<double>(count);
}

Variable reshape(const Variable& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  return one(std::make_shared<Reshape>(shape), x);
}

Variable copy(const Variable& x, Device& device) { return one(std::make_shared<Copy>(device), x); }

Variable transpose(const Variable& x, const std::vector<int64_t>& axes) {
  return one(std::make_shared<Transpose>(axes), x);
}

namespace {

IndexItem all() { return IndexItem::slice(std::nullopt, std::nullopt, 1); }

// The index that applies `item` to `axis` and leaves the axes before it whole.
std::vector<Index> along(int axis, const Index& item) {
  std::vector<Index> index(static_cast<size_t>(axis), Index(all()));
  index.push_back(item);
  return index;
}

// The slices x[..., i, ...] along an axis; backward stacks the gradients
// (zeros for outputs no gradient reached), so it costs one array, not one per
// slice.
class Separate : public FunctionNode {
 public:
  explicit Separate(int axis) : axis_(axis) {}
  std::string label() const override { return "Separate"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    std::vector<Array> out;
    for (int64_t i = 0; i < x[0].shape()[axis_]; ++i) out.push_back(getitem(x[0], along(axis_, Index(i))));
    return out;
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    std::vector<Variable> parts;
    for (size_t i = 0; i < gy.size(); ++i) {
      if (gy[i].defined()) {
        parts.push_back(gy[i]);
      } else {
        parts.push_back(Variable(zeros(output_shape(i), output_dtype(i), Order::kC, input_device(0)), false));
      }
    }
    return {stack(parts, axis_)};
  }

 private:
  int axis_;
};

// numpy.pad in constant mode; the gradient is the middle of gy.
class Pad : public FunctionNode {
 public:
  Pad(std::vector<std::pair<int64_t, int64_t>> width, PadOptions options)
      : width_(std::move(width)), options_(std::move(options)) {}
  std::string label() const override { return "Pad"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    return {kumo::pad(x[0], width_, PadMode::kConstant, options_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    const Shape& in = input_shape(0);
    std::vector<Index> index;
    for (int i = 0; i < in.size(); ++i) {
      const auto& w = width_.size() == 1 ? width_[0] : width_[static_cast<size_t>(i)];
      index.emplace_back(IndexItem::slice(w.first, w.first + in[i], 1));
    }
    return {get_item(gy[0], index)};
  }

 private:
  std::vector<std::pair<int64_t, int64_t>> width_;
  PadOptions options_;
};

// a + (b added at slices): ga = gy, gb = gy[slices] summed to b's shape.
class ScatterAdd : public FunctionNode {
 public:
  explicit ScatterAdd(std::vector<Index> slices) : slices_(std::move(slices)) {}
  std::string label() const override { return "ScatterAdd"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    Array out = x[0].copy(Order::kC);
    kumo::scatter_add(out, slices_, x[1]);
    return {out};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> gx;
    for (size_t i : targets) {
      if (i == 0) {
        gx.push_back(gy[0]);
      } else {
        Variable g = sum_to(get_item(gy[0], slices_), input_shape(1));
        gx.push_back(g.dtype() == input_dtype(1) ? g : cast(g, input_dtype(1)));
      }
    }
    return gx;
  }

 private:
  std::vector<Index> slices_;
};

Variable at_least(const Variable& x, int nd) {
  // numpy.atleast_1d/2d/3d: (), (N,) and (M, N) grow as NumPy grows them.
  Shape s = x.shape();
  if (s.size() >= nd) return x;
  if (nd == 1) return reshape(x, Shape{1});
  if (nd == 2) return reshape(x, s.size() == 0 ? Shape{1, 1} : Shape{1, s[0]});
  if (s.size() == 0) return reshape(x, Shape{1, 1, 1});
  if (s.size() == 1) return reshape(x, Shape{1, s[0], 1});
  return reshape(x, Shape{s[0], s[1], 1});
}

// NumPy's error when a result would hold more elements than int64 counts
// (the core's size arithmetic would wrap around instead).
void require_countable(const std::vector<int64_t>& extents) {
  int64_t total = 1;
  for (int64_t e : extents) {
    if (e != 0 && total > std::numeric_limits<int64_t>::max() / e)
      throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
    total *= e;
  }
}

void require_nonempty(const std::vector<Variable>& xs, const char* who) {
  if (xs.empty()) throw ValueError(std::string(who) + ": need at least one array to concatenate");
}

// Source coordinates of out_size output pixels over in_size input pixels.
std::vector<double> source_coords(int64_t out_size, int64_t in_size, bool align_corners) {
  std::vector<double> v(static_cast<size_t>(out_size));
  for (int64_t i = 0; i < out_size; ++i) {
    double s;
    if (align_corners) {
      s = out_size > 1 ? static_cast<double>(i) * static_cast<double>(in_size - 1) / static_cast<double>(out_size - 1)
                       : 0.0;
    } else {
      s = (static_cast<double>(i) + 0.5) * static_cast<double>(in_size) / static_cast<double>(out_size) - 0.5;
    }
    v[static_cast<size_t>(i)] = std::min(std::max(s, 0.0), static_cast<double>(in_size - 1));
  }
  return v;
}

// x interpolated along `axis` (2 or 3) from in_size to out_size points.
Variable resize_axis(const Variable& x, int axis, int64_t out_size, bool bilinear, bool align_corners) {
  const int64_t in_size = x.shape()[axis];
  std::vector<double> src = source_coords(out_size, in_size, align_corners);
  std::vector<int64_t> lo(src.size()), hi(src.size());
  std::vector<double> w(src.size());
  for (size_t i = 0; i < src.size(); ++i) {
    if (bilinear) {
      lo[i] = static_cast<int64_t>(std::floor(src[i]));
      hi[i] = std::min(lo[i] + 1, in_size - 1);
      w[i] = src[i] - static_cast<double>(lo[i]);
    } else {
      // Nearest, as Chainer: the pixel floor(i * in / out), whatever align_corners says.
      double s = std::floor(static_cast<double>(i) * static_cast<double>(in_size) / static_cast<double>(out_size));
      lo[i] = std::min(static_cast<int64_t>(s), in_size - 1);
    }
  }
  Device& dev = x.device();
  Variable a = get_item(x, along(axis, Index(asarray(lo, dev))));
  if (!bilinear) return a;
  Variable b = get_item(x, along(axis, Index(asarray(hi, dev))));
  Shape wshape = axis == 2 ? Shape{out_size, 1} : Shape{out_size};
  Variable wv(asarray(w, wshape, dev).astype(x.dtype()), false);
  return a + (b - a) * wv;
}

}  // namespace

Variable swapaxes(const Variable& x, int64_t axis1, int64_t axis2) {
  const int a = normalize_axis(axis1, x.ndim()), b = normalize_axis(axis2, x.ndim());
  std::vector<int64_t> perm(static_cast<size_t>(x.ndim()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<size_t>(a)], perm[static_cast<size_t>(b)]);
  return transpose(x, perm);
}

Variable moveaxis(const Variable& x, const std::vector<int64_t>& source, const std::vector<int64_t>& destination) {
  const int nd = x.ndim();
  if (source.size() != destination.size())
    throw ValueError("`source` and `destination` arguments must have the same number of elements");
  std::vector<int64_t> src, dst;
  for (int64_t s : source) src.push_back(normalize_axis(s, nd));
  for (int64_t d : destination) dst.push_back(normalize_axis(d, nd));
  auto unique = [](std::vector<int64_t> v) {
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) == v.end();
  };
  if (!unique(src)) throw ValueError("repeated axis in `source` argument");
  if (!unique(dst)) throw ValueError("repeated axis in `destination` argument");
  std::vector<int64_t> order;
  for (int i = 0; i < nd; ++i)
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  std::vector<std::pair<int64_t, int64_t>> moves;
  for (size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
  std::sort(moves.begin(), moves.end());
  for (const auto& m : moves) order.insert(order.begin() + m.first, m.second);
  return transpose(x, order);
}

Variable moveaxis(const Variable& x, int64_t source, int64_t destination) {
  return moveaxis(x, std::vector<int64_t>{source}, std::vector<int64_t>{destination});
}

Variable rollaxis(const Variable& x, int64_t axis, int64_t start) {
  const int nd = x.ndim();
  const int a = normalize_axis(axis, nd);
  if (start < 0) start += nd;
  if (start < 0 || start > nd)
    throw AxisError("rollaxis: start (" + std::to_string(start) + ") must be in [" + std::to_string(-nd) + ", " +
                    std::to_string(nd) + "]");
  if (a < start) --start;
  if (a == start) return x;
  std::vector<int64_t> order;
  for (int i = 0; i < nd; ++i)
    if (i != a) order.push_back(i);
  order.insert(order.begin() + start, a);
  return transpose(x, order);
}

Variable flatten(const Variable& x) { return reshape(x, Shape{x.size()}); }

Variable hstack(const std::vector<Variable>& xs) {
  require_nonempty(xs, "hstack");
  std::vector<Variable> ys;
  for (const Variable& x : xs) ys.push_back(at_least(x, 1));
  return concat(ys, ys[0].ndim() == 1 ? 0 : 1);
}

Variable vstack(const std::vector<Variable>& xs) {
  require_nonempty(xs, "vstack");
  std::vector<Variable> ys;
  for (const Variable& x : xs) ys.push_back(at_least(x, 2));
  return concat(ys, 0);
}

Variable dstack(const std::vector<Variable>& xs) {
  require_nonempty(xs, "dstack");
  std::vector<Variable> ys;
  for (const Variable& x : xs) ys.push_back(at_least(x, 3));
  return concat(ys, 2);
}

std::vector<Variable> separate(const Variable& x, int64_t axis) {
  if (x.ndim() == 0) throw ValueError("separate: x must be at least 1-d");
  const int a = normalize_axis(axis, x.ndim());
  if (x.shape()[a] == 0) return {};
  return apply(std::make_shared<Separate>(a), {x});
}

Variable tile(const Variable& x, const std::vector<int64_t>& reps) {
  for (int64_t r : reps)
    if (r < 0) throw ValueError("tile: reps must be non-negative, got " + std::to_string(r));
  const size_t nd = std::max(reps.size(), static_cast<size_t>(x.ndim()));
  std::vector<int64_t> r(nd - reps.size(), 1), d(nd - static_cast<size_t>(x.ndim()), 1);
  r.insert(r.end(), reps.begin(), reps.end());
  d.insert(d.end(), x.shape().begin(), x.shape().end());
  // x as (1, d0, 1, d1, ...) broadcast to (r0, d0, r1, d1, ...), then merged.
  std::vector<int64_t> extents = r;
  extents.insert(extents.end(), d.begin(), d.end());
  require_countable(extents);
  Shape interleaved, expanded, out;
  for (size_t i = 0; i < nd; ++i) {
    interleaved.push_back(1);
    interleaved.push_back(d[i]);
    expanded.push_back(r[i]);
    expanded.push_back(d[i]);
    out.push_back(r[i] * d[i]);
  }
  return reshape(broadcast_to(reshape(x, interleaved), expanded), out);
}

Variable repeat(const Variable& x, const std::vector<int64_t>& repeats, std::optional<int64_t> axis) {
  for (int64_t r : repeats)
    if (r < 0) throw ValueError("repeat: repeats may not contain negative values");
  if (repeats.empty()) throw ValueError("repeat: repeats must not be empty");
  Variable v = axis ? x : flatten(x);
  if (v.ndim() == 0) v = reshape(v, Shape{1});
  const int a = axis ? normalize_axis(*axis, v.ndim()) : 0;
  const int64_t n = v.shape()[a];
  if (repeats.size() == 1) {
    // Each element once more along a new axis after `a`, then merged into a.
    std::vector<int64_t> extents(v.shape().begin(), v.shape().end());
    extents.push_back(repeats[0]);
    require_countable(extents);
    Shape s = v.shape(), b = v.shape(), out = v.shape();
    s.insert(a + 1, 1);
    b.insert(a + 1, repeats[0]);
    out[a] = n * repeats[0];
    return reshape(broadcast_to(reshape(v, s), b), out);
  }
  if (static_cast<int64_t>(repeats.size()) != n)
    throw ValueError("repeat: operands could not be broadcast together with shape (" + std::to_string(n) + ",) (" +
                     std::to_string(repeats.size()) + ",)");
  std::vector<int64_t> idx;
  for (int64_t i = 0; i < n; ++i) idx.insert(idx.end(), static_cast<size_t>(repeats[static_cast<size_t>(i)]), i);
  return get_item(v, along(a, Index(asarray(idx, Shape{static_cast<int64_t>(idx.size())}, v.device()))));
}

Variable flip(const Variable& x, int64_t axis) {
  const int a = normalize_axis(axis, x.ndim());
  return get_item(x, along(a, Index(IndexItem::slice(std::nullopt, std::nullopt, -1))));
}

Variable fliplr(const Variable& x) {
  if (x.ndim() < 2) throw ValueError("fliplr: input must be >= 2-d.");
  return flip(x, 1);
}

Variable flipud(const Variable& x) {
  if (x.ndim() < 1) throw ValueError("flipud: input must be >= 1-d.");
  return flip(x, 0);
}

Variable pad(const Variable& x, const std::vector<std::pair<int64_t, int64_t>>& pad_width, const std::string& mode,
             const std::vector<std::pair<Scalar, Scalar>>& constant_values) {
  if (mode != "constant") {
    pad_mode_from_string(mode);  // NumPy's error for unknown names
    throw ValueError("pad: only mode='constant' is differentiable, got '" + mode + "'");
  }
  if (pad_width.size() != 1 && static_cast<int>(pad_width.size()) != x.ndim())
    throw ValueError("pad: pad_width needs one (before, after) pair or one per axis (" + std::to_string(x.ndim()) +
                     "), got " + std::to_string(pad_width.size()));
  for (const auto& w : pad_width)
    if (w.first < 0 || w.second < 0) throw ValueError("index can't contain negative values");
  PadOptions options;
  options.constant_values = constant_values;
  return apply(std::make_shared<Pad>(pad_width, options), {x})[0];
}

Variable scatter_add(const Variable& a, const std::vector<Index>& slices, const Variable& b) {
  return apply(std::make_shared<ScatterAdd>(slices), {a, b})[0];
}

Variable diagonal(const Variable& x, int64_t offset, int64_t axis1, int64_t axis2) {
  if (x.ndim() < 2) throw ValueError("diag requires an array of at least two dimensions");
  const int a1 = normalize_axis(axis1, x.ndim()), a2 = normalize_axis(axis2, x.ndim());
  if (a1 == a2) throw ValueError("axis1 and axis2 cannot be the same");
  // The two axes last, then one gather of (row, row + offset) pairs.
  Variable m = moveaxis(x, std::vector<int64_t>{a1, a2}, std::vector<int64_t>{-2, -1});
  const int64_t rows = x.shape()[a1], cols = x.shape()[a2];
  const int64_t r0 = offset < 0 ? -offset : 0, c0 = offset > 0 ? offset : 0;
  const int64_t n = std::max<int64_t>(0, std::min(rows - r0, cols - c0));
  std::vector<int64_t> ri(static_cast<size_t>(n)), ci(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    ri[static_cast<size_t>(i)] = r0 + i;
    ci[static_cast<size_t>(i)] = c0 + i;
  }
  return get_item(m, {Index(IndexItem::ellipsis()), Index(asarray(ri, Shape{n}, x.device())),
                      Index(asarray(ci, Shape{n}, x.device()))});
}

Variable depth2space(const Variable& X, int64_t r) {
  require_floating(X, "depth2space", "X");
  if (X.ndim() != 4) throw ValueError("depth2space: X must be 4-d (N, C, H, W), got shape " + X.shape().to_string());
  if (r <= 0 || X.shape()[1] % (r * r) != 0)
    throw ValueError("depth2space: the channels (" + std::to_string(X.shape()[1]) +
                     ") must be divisible by r*r (r = " + std::to_string(r) + ")");
  const int64_t n = X.shape()[0], c = X.shape()[1] / (r * r), h = X.shape()[2], w = X.shape()[3];
  Variable y = transpose(X, {0, 2, 3, 1});
  y = reshape(y, Shape{n, h, w, r, r, c});
  y = transpose(y, {0, 1, 3, 2, 4, 5});
  y = reshape(y, Shape{n, h * r, w * r, c});
  return transpose(y, {0, 3, 1, 2});
}

Variable space2depth(const Variable& X, int64_t r) {
  require_floating(X, "space2depth", "X");
  if (X.ndim() != 4) throw ValueError("space2depth: X must be 4-d (N, C, H, W), got shape " + X.shape().to_string());
  if (r <= 0 || X.shape()[2] % r != 0 || X.shape()[3] % r != 0)
    throw ValueError("space2depth: height and width (" + std::to_string(X.shape()[2]) + ", " +
                     std::to_string(X.shape()[3]) + ") must be divisible by r = " + std::to_string(r));
  const int64_t n = X.shape()[0], c = X.shape()[1], h = X.shape()[2] / r, w = X.shape()[3] / r;
  Variable y = transpose(X, {0, 2, 3, 1});
  y = reshape(y, Shape{n, h, r, w, r, c});
  y = transpose(y, {0, 1, 3, 2, 4, 5});
  y = reshape(y, Shape{n, h, w, r * r * c});
  return transpose(y, {0, 3, 1, 2});
}

Variable resize_images(const Variable& x, std::pair<int64_t, int64_t> output_shape, const std::string& mode,
                       bool align_corners) {
  require_floating(x, "resize_images", "x");
  if (x.ndim() != 4) throw ValueError("resize_images: x must be 4-d (N, C, H, W), got shape " + x.shape().to_string());
  if (mode != "bilinear" && mode != "nearest")
    throw ValueError("resize_images: mode must be 'bilinear' or 'nearest', got '" + mode + "'");
  if (output_shape.first <= 0 || output_shape.second <= 0)
    throw ValueError("resize_images: output_shape must be positive");
  if (x.shape()[2] == 0 || x.shape()[3] == 0) throw ValueError("resize_images: the input image is empty");
  const bool bilinear = mode == "bilinear";
  Variable y = resize_axis(x, 2, output_shape.first, bilinear, align_corners);
  return resize_axis(y, 3, output_shape.second, bilinear, align_corners);
}

Variable pad_sequence(const std::vector<Variable>& xs, std::optional<int64_t> length, Scalar padding) {
  if (xs.empty()) throw ValueError("pad_sequence: xs must not be empty");
  int64_t longest = 0;
  for (const Variable& x : xs) {
    if (x.ndim() == 0) throw ValueError("pad_sequence: each sequence must be at least 1-d");
    if (x.ndim() != xs[0].ndim() ||
        !std::equal(x.shape().begin() + 1, x.shape().end(), xs[0].shape().begin() + 1, xs[0].shape().end()))
      throw ValueError("pad_sequence: all sequences must have the same shape after the first axis");
    longest = std::max(longest, x.shape()[0]);
  }
  const int64_t len = length.value_or(longest);
  if (len < longest)
    throw ValueError("pad_sequence: length (" + std::to_string(len) + ") is shorter than the longest sequence (" +
                     std::to_string(longest) + ")");
  std::vector<Variable> padded;
  for (const Variable& x : xs) {
    std::vector<std::pair<int64_t, int64_t>> w(static_cast<size_t>(x.ndim()), {0, 0});
    w[0].second = len - x.shape()[0];
    padded.push_back(pad(x, w, "constant", {{padding, padding}}));
  }
  return stack(padded, 0);
}

}  // namespace autograd
}  // namespace kumo
