// Uses an installed Kumo from another project (see CMakeLists.txt): NumPy's
// semantics from C++ through <kumo/kumo.h> alone. Checks its results, prints
// them as NumPy would, and reports whether the CUDA backend plugin loads.
// Exits non-zero on a wrong result.
#include <kumo/kumo.h>

#include <cmath>
#include <iostream>
#include <vector>

int main() {
  using kumo::Array;
  int failures = 0;

  // y = 2 * x + 1: a float32 array times a C++ number stays float32 (NEP 50).
  Array x = kumo::asarray(std::vector<float>{0, 1, 2, 3, 4, 5}, {2, 3});
  Array y = 2 * x + 1;
  std::cout << "2 * x + 1 =\n" << y << "\n";
  if (y.dtype() != kumo::Dtype::kFloat32 || y.to_vector<float>() != std::vector<float>{1, 3, 5, 7, 9, 11})
    ++failures;

  // A @ A and a linear solve on the host BLAS/LAPACK.
  Array a = kumo::asarray({1.0, 2.0, 3.0, 4.0}, {2, 2});
  Array aa = kumo::matmul(a, a);
  std::cout << "A @ A =\n" << aa << "\n";
  if (aa.to_vector<double>() != std::vector<double>{7, 10, 15, 22}) ++failures;
  Array sol = kumo::linalg::solve(a, kumo::asarray({5.0, 11.0}));
  std::cout << "solve(A, [5, 11]) = " << sol << "\n";
  std::vector<double> s = sol.to_vector<double>();
  if (std::fabs(s[0] - 1) > 1e-12 || std::fabs(s[1] - 2) > 1e-12) ++failures;

  // NumPy's errors as C++ exceptions.
  try {
    kumo::linalg::inv(kumo::asarray({1.0, 2.0, 2.0, 4.0}, {2, 2}));
    ++failures;
  } catch (const kumo::LinAlgError& e) {
    std::cout << "LinAlgError: " << e.what() << "\n";
  }

  // The CUDA plugin sits next to libkumo; without a GPU it loads and reports no device.
  if (kumo::cuda_plugin() != nullptr) {
    std::cout << "CUDA plugin: loaded; "
              << (kumo::cuda_is_available() ? "a CUDA device is available"
                                            : "no usable device: " + kumo::cuda_unavailable_reason())
              << "\n";
  } else {
    std::cout << "CUDA plugin: not loaded: " << kumo::cuda_plugin_load_error() << "\n";
  }

  if (failures != 0) std::cout << "WRONG RESULT\n";
  return failures == 0 ? 0 : 1;
}
