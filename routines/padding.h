// numpy.pad in C++: every mode of NumPy 2.4 except a Python callable
// (kumo.pad calls that in Python on views of the zero-padded result).
//
//   kumo::Array p = kumo::pad(a, {{1, 2}, {0, 3}}, kumo::PadMode::kReflect);
//   kumo::PadOptions o;
//   o.constant_values = {{kumo::Scalar(-1), kumo::Scalar(1)}};
//   kumo::Array c = kumo::pad(a, {{2, 2}}, kumo::PadMode::kConstant, o);   // one pair: every axis
//
// The result has a's dtype, F order for an F-but-not-C-contiguous input
// (else C), and is built on a's device from views of itself: the input is
// copied into the middle, then each axis's two pad areas are written in
// turn (later axes also write the corners), as NumPy does.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/array.h"
#include "routines/scalar.h"

namespace kumo {

enum class PadMode : uint8_t {
  kConstant,
  kEdge,
  kLinearRamp,
  kMaximum,
  kMean,
  kMedian,
  kMinimum,
  kReflect,
  kSymmetric,
  kWrap,
  kEmpty
};
// NumPy's mode names; ValueError "mode '...' is not supported" for others.
PadMode pad_mode_from_string(const std::string& mode);

struct PadOptions {
  // Per axis (one pair applies to every axis): (before, after).
  std::vector<std::pair<Scalar, Scalar>> constant_values;  // kConstant; default 0
  std::vector<std::pair<Scalar, Scalar>> end_values;       // kLinearRamp; default 0
  // kMaximum/kMean/kMedian/kMinimum: values counted from each edge (nullopt:
  // all).
  std::vector<std::pair<std::optional<int64_t>, std::optional<int64_t>>> stat_length;
  bool reflect_odd = false;  // kReflect/kSymmetric: reflect_type='odd'
};

// `pad_width` has one (before, after) pair per axis or one pair for all;
// ValueError for a negative width, for stat_length 0 with kMaximum/kMinimum,
// and for extending an empty axis in a mode other than kConstant/kEmpty.
Array pad(const Array& a, const std::vector<std::pair<int64_t, int64_t>>& pad_width, PadMode mode = PadMode::kConstant,
          const PadOptions& options = {});

}  // namespace kumo
