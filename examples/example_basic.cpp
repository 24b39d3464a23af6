// A tour of the C++ API: NumPy's semantics from C++ with value-type arrays,
// operators, weak C++ scalars, views, user kernels and NumPy-style printing.
//
//   cmake -S . -B build -G Ninja && cmake --build build && ./build/example_basic
#include <iostream>
#include <vector>

#include "kumo/kumo.h"
#include "kernels/elementwise.h"

int main() {
  using kumo::Array;
  std::cout << "device: " << kumo::current_device().name() << "\n";

  // Arrays from C++ data; operators follow NumPy 2 (a C++ 2.0 is a weak
  // scalar, so float32 stays float32).
  Array x = kumo::asarray(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}, {2, 4});
  Array y = x * 2.0f + 1;
  std::cout << "y = 2x + 1 =\n" << y << "\n";

  // Ufuncs are free functions; views index like Python's a[1, ::2].
  Array r = kumo::sqrt(y(1, kumo::slice(kumo::none, kumo::none, 2)));
  std::cout << "sqrt(y[1, ::2]) = " << r << "\n";

  // Writes go through views.
  kumo::fill(y(kumo::all(), 0), -1);
  std::cout << "after y[:, 0] = -1: " << y << "\n";

  // A user kernel from CUDA-style source runs on the host as on a GPU.
  auto axpb = kumo::kernels::ElementwiseSpec::create("axpb", "T x, T a, T b", "T z", "z = a * x + b");
  Array z = kumo::kernels::call_elementwise(*axpb, {x, kumo::scalar_array(3.0f), kumo::scalar_array(0.5f)},
                                            {Array()})[0];
  std::cout << "3x + 0.5 = " << z << "\n";

  // NumPy's errors arrive as C++ exceptions of the same names.
  try {
    Array i = kumo::asarray(std::vector<int64_t>{1, 2});
    kumo::power(i, -1);
  } catch (const kumo::ValueError& e) {
    std::cout << "ValueError: " << e.what() << "\n";
  }

  std::vector<float> back = (x > 3).to_vector<float>();
  return back.size() == 8 && back[4] == 1.0f ? 0 : 1;
}
