// The C++ side of issue 12's ElementwiseKernel additions: loop_prep and
// after_loop around the element loop, and reduce_dims.
#include <gtest/gtest.h>

#include "core/array.h"
#include "kernels/codegen.h"
#include "kernels/elementwise.h"
#include "routines/creation.h"

using namespace kumo;

namespace {

Array iota_f64(const Shape& shape) {
  Array a = Array::empty(shape, Dtype::kFloat64, host_device());
  double* p = reinterpret_cast<double*>(a.data());
  for (int64_t i = 0; i < a.size(); ++i) p[i] = static_cast<double>(i);
  return a;
}

}  // namespace

TEST(ElementwiseKernelSpec, LoopPrepVariablesReachOperationAndAfterLoop) {
  // Every chunk counts its elements in a loop_prep variable and adds the count once in after_loop.
  auto spec = kernels::ElementwiseSpec::create(
      "count_chunks", "T x", "raw int64 cnt, T y", "y = x + offset; ++seen;",
      "#ifndef __CUDACC_RTC__\nstatic inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v)"
      " { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }\n#endif\n",
      {}, "const double offset = 0.5; long long seen = 0;",
      "atomicAdd(reinterpret_cast<unsigned long long*>(&cnt[0]), (unsigned long long)seen);");
  Array x = iota_f64(Shape{200000});
  Array cnt = zeros(Shape{1}, Dtype::kInt64, Order::kC, host_device());
  Array y = Array::empty(Shape{200000}, Dtype::kFloat64, host_device());
  kernels::call_elementwise(*spec, {x}, {cnt, y});
  EXPECT_EQ(reinterpret_cast<const int64_t*>(cnt.data())[0], 200000);
  EXPECT_EQ(reinterpret_cast<const double*>(y.data())[12345], 12345.5);
  // Both targets put loop_prep before the loop and after_loop after it.
  kernels::ElementwiseSignature sig;
  sig.bindings = {{"T", Dtype::kFloat64}};
  sig.param_dtypes = sig.array_dtypes = {Dtype::kFloat64, Dtype::kInt64, Dtype::kFloat64};
  for (auto target : {kernels::Target::kHost, kernels::Target::kCuda}) {
    std::string src = kernels::generate_elementwise(*spec, sig, target);
    EXPECT_LT(src.find("long long seen = 0"), src.find("auto kumo_element"));
    EXPECT_GT(src.find("atomicAdd(reinterpret_cast"), src.find("auto kumo_element"));
  }
}

TEST(ElementwiseKernelSpec, ReduceDimsFalseKeepsResults) {
  auto spec = kernels::ElementwiseSpec::create("twice_nd", "T x", "T y", "y = x * 2");
  spec->reduce_dims = false;
  Array x = iota_f64(Shape{3, 4, 5});
  Array y = kernels::call_elementwise(*spec, {x}, {Array()})[0];
  for (int64_t i = 0; i < 60; ++i) EXPECT_EQ(reinterpret_cast<const double*>(y.data())[i], 2.0 * i);
}
