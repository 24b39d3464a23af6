// Uses an installed Kumo from another project (see CMakeLists.txt): runs an
// elementwise kernel and a matrix product on the CPU, checks the results,
// and reports whether the CUDA backend plugin loads. Exits non-zero on a
// wrong result.
#include <kumo/kumo.h>

#include <cstdio>
#include <vector>

#include "core/cuda_plugin.h"
#include "kernels/elementwise.h"
#include "linalg/linalg_backend.h"

int main() {
  kumo::Device& cpu = kumo::host_device();
  int failures = 0;

  // y = 2 * x + 1 for x = 0..5, with a kernel generated and compiled at run time.
  const std::vector<float> xs = {0, 1, 2, 3, 4, 5};
  kumo::Array x = kumo::Array::empty(kumo::Shape{2, 3}, kumo::Dtype::kFloat32, cpu);
  cpu.copy_from_host(x.data(), xs.data(), xs.size() * sizeof(float));
  auto affine = kumo::kernels::ElementwiseSpec::create("affine", "T x", "T y", "y = 2 * x + 1");
  kumo::Array y = kumo::kernels::call_elementwise(*affine, {x}, {kumo::Array()})[0];
  std::vector<float> ys(xs.size());
  y.copy_to_host_buffer(ys.data());
  std::printf("2 * x + 1 =");
  for (size_t i = 0; i < ys.size(); ++i) {
    std::printf(" %g", ys[i]);
    if (ys[i] != 2 * xs[i] + 1) ++failures;
  }
  std::printf("\n");

  // A * A for A = [[1, 2], [3, 4]] with the host BLAS (column-major storage).
  const std::vector<double> a = {1, 3, 2, 4};
  const std::vector<double> expected = {7, 15, 10, 22};
  std::vector<double> c(4);
  const double one = 1, zero = 0;
  kumo::host_linalg_backend().gemm(kumo::Dtype::kFloat64, kumo::Transpose::kNo, kumo::Transpose::kNo, 2, 2, 2,
                                   &one, a.data(), 2, 0, a.data(), 2, 0, &zero, c.data(), 2, 0, 1, 0);
  std::printf("A @ A = [[%g, %g], [%g, %g]]\n", c[0], c[2], c[1], c[3]);
  if (c != expected) ++failures;

  // The CUDA plugin sits next to libkumo; without a GPU it loads and reports no device.
  if (kumo::cuda_plugin() != nullptr) {
    std::printf("CUDA plugin: loaded; %s\n",
                kumo::cuda_is_available() ? "a CUDA device is available"
                                          : ("no usable device: " + kumo::cuda_unavailable_reason()).c_str());
  } else {
    std::printf("CUDA plugin: not loaded: %s\n", kumo::cuda_plugin_load_error().c_str());
  }

  if (failures != 0) std::printf("WRONG RESULT\n");
  return failures == 0 ? 0 : 1;
}
