// Differentiable array functions: broadcast_to and its adjoint sum_to, sum,
// reshape, transpose, and the rest of Chainer's chainer.functions.array.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "autograd/variable.h"
#include "routines/indexing.h"
#include "routines/reduction.h"
#include "routines/scalar.h"

namespace kumo {
namespace autograd {

Variable broadcast_to(const Variable& x, const Shape& shape);
// Each of xs broadcast to their common shape (Chainer's F.broadcast);
// ValueError naming the shapes when they do not broadcast, or for none.
std::vector<Variable> broadcast(const std::vector<Variable>& xs);
// Sums x down to `shape` (the shape x was broadcast from): the gradient of
// a broadcast.
Variable sum_to(const Variable& x, const Shape& shape);
Variable sum(const Variable& x, const Axes& axes = {}, bool keepdims = false);
Variable mean(const Variable& x, const Axes& axes = {}, bool keepdims = false);
Variable reshape(const Variable& x, const Shape& shape);
Variable transpose(const Variable& x, const std::vector<int64_t>& axes = {});
// x on `device` (a copy; the same variable when it is already there); the
// gradient goes back to x's device.
Variable copy(const Variable& x, Device& device);

// Differentiable array functions (Chainer's chainer.functions.array):
// axis moves, stacking, separate, tile, repeat, flips, constant padding,
// scatter_add, diagonal, depth2space/space2depth, resize_images and
// pad_sequence. Most are compositions of transpose, reshape, broadcast_to,
// concat and get_item, so their backward is differentiable for free.
// x with axes axis1 and axis2 interchanged.
Variable swapaxes(const Variable& x, int64_t axis1, int64_t axis2);
// x with the axes `source` moved to positions `destination` (others keep their order).
Variable moveaxis(const Variable& x, const std::vector<int64_t>& source, const std::vector<int64_t>& destination);
Variable moveaxis(const Variable& x, int64_t source, int64_t destination);
// x with `axis` rolled back until it lies before position `start` (numpy.rollaxis).
Variable rollaxis(const Variable& x, int64_t axis, int64_t start = 0);
// x as a 1-d array in C order.
Variable flatten(const Variable& x);
// Joins along axis 1 (axis 0 for 1-d inputs); 0-d inputs count as 1-d.
Variable hstack(const std::vector<Variable>& xs);
// Joins along axis 0 after making each input at least 2-d ((N,) -> (1, N)).
Variable vstack(const std::vector<Variable>& xs);
// Joins along axis 2 after making each input at least 3-d.
Variable dstack(const std::vector<Variable>& xs);
// The slices x[..., i, ...] along `axis`, one Variable each (the inverse of stack).
std::vector<Variable> separate(const Variable& x, int64_t axis = 0);
// numpy.tile: x repeated reps[i] times along each axis.
Variable tile(const Variable& x, const std::vector<int64_t>& reps);
// numpy.repeat: each element repeated `repeats` times (one count for all, or
// one per element along axis); axis none repeats the flattened x.
Variable repeat(const Variable& x, const std::vector<int64_t>& repeats, std::optional<int64_t> axis = std::nullopt);
// x reversed along axis.
Variable flip(const Variable& x, int64_t axis);
// x reversed along axis 1 (x must be at least 2-d) / axis 0 (at least 1-d).
Variable fliplr(const Variable& x);
Variable flipud(const Variable& x);
// numpy.pad in 'constant' mode (the only mode whose adjoint is a slice):
// (before, after) per axis or one pair for all; constant_values as numpy.pad's.
Variable pad(const Variable& x, const std::vector<std::pair<int64_t, int64_t>>& pad_width,
             const std::string& mode = "constant", const std::vector<std::pair<Scalar, Scalar>>& constant_values = {});
// A copy of a with b added at a[slices] (numpy.add.at, so repeated indices
// accumulate); b broadcasts to the shape of a[slices].
Variable scatter_add(const Variable& a, const std::vector<Index>& slices, const Variable& b);
// numpy.diagonal: the diagonal of the axis1/axis2 planes as the last axis.
Variable diagonal(const Variable& x, int64_t offset = 0, int64_t axis1 = 0, int64_t axis2 = 1);
// (N, C*r*r, H, W) -> (N, C, H*r, W*r), Chainer's channel order.
Variable depth2space(const Variable& X, int64_t r);
// (N, C, H*r, W*r) -> (N, C*r*r, H, W), the inverse of depth2space.
Variable space2depth(const Variable& X, int64_t r);
// (N, C, H, W) resized to (N, C, out_H, out_W) by bilinear or nearest
// interpolation. Bilinear with align_corners maps the corner pixels' centres
// onto each other, without it pixel centres scale by in / out (clamped at 0);
// nearest takes pixel floor(i * in / out) either way (Chainer's rules).
Variable resize_images(const Variable& x, std::pair<int64_t, int64_t> output_shape,
                       const std::string& mode = "bilinear", bool align_corners = true);
// Sequences (L_i, ...) padded with `padding` to (len(xs), length, ...);
// length defaults to the longest.
Variable pad_sequence(const std::vector<Variable>& xs, std::optional<int64_t> length = std::nullopt,
                      Scalar padding = Scalar(0));

}  // namespace autograd
}  // namespace kumo
