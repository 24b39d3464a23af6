// A tour of the C++ API: create arrays, run an elementwise kernel and a
// reduction kernel from specs, print the results.
//
//   cmake -S . -B build -G Ninja && cmake --build build && ./build/example_basic
#include <cstdio>
#include <vector>

#include "core/array.h"
#include "core/device.h"
#include "kernels/elementwise.h"
#include "kernels/reduction.h"

using namespace kumo;

static std::vector<float> to_host(const Array& a) {
  std::vector<float> v(static_cast<size_t>(a.size()));
  a.copy_to_host_buffer(v.data());
  return v;
}

int main() {
  Device& dev = current_device();
  std::printf("device: %s\n", dev.name().c_str());

  // x = [0, 1, ..., 7] as float32, y = 2 * x + 1 with a user elementwise kernel.
  Array x = Array::empty(Shape{2, 4}, Dtype::kFloat32, dev);
  std::vector<float> init = {0, 1, 2, 3, 4, 5, 6, 7};
  dev.copy_from_host(x.data(), init.data(), init.size() * sizeof(float));

  auto axpb = kernels::ElementwiseSpec::create("axpb", "T x, T a, T b", "T y", "y = a * x + b");
  Array a = Array::empty(Shape{}, Dtype::kFloat32, dev);
  Array b = Array::empty(Shape{}, Dtype::kFloat32, dev);
  float two = 2.0f, one = 1.0f;
  dev.copy_from_host(a.data(), &two, sizeof two);
  dev.copy_from_host(b.data(), &one, sizeof one);
  Array y = kernels::call_elementwise(*axpb, {x, a, b}, {Array()})[0];

  // Row sums of squares with a reduction kernel (map, reduce, post-map, identity).
  auto sumsq = kernels::ReductionSpec::create("sumsq", "T x", "T y", "x * x", "a + b", "y = a", "0", "T");
  Array s = kernels::call_reduction(*sumsq, {y}, {Array()}, {1}, false, false)[0];

  std::printf("y = 2 * x + 1 =");
  for (float v : to_host(y)) std::printf(" %g", v);
  std::printf("\nrow sums of y*y =");
  for (float v : to_host(s)) std::printf(" %g", v);
  std::printf("\n");
  return 0;
}
