// The public C++ API of Kumo: one include for arrays, NumPy's routines,
// linear algebra and random numbers.
//
//   #include <kumo/kumo.h>
//   kumo::Array x = kumo::arange(6, kumo::Dtype::kFloat32).reshape({2, 3});
//   std::cout << kumo::sum(x * 2.0, 1) << "\n";
//
// Everything is in namespace kumo; see docs/cpp_api.md for a tour.
#pragma once

#include "core/array.h"
#include "core/cuda_plugin.h"
#include "core/device.h"
#include "core/dlpack.h"
#include "core/dtype.h"
#include "core/errors.h"
#include "core/warnings.h"
#include "core/shape.h"

#include "fft/fft.h"
#include "linalg/linalg.h"
#include "linalg/einsum.h"
#include "linalg/products.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/interop.h"
#include "routines/io.h"
#include "routines/manipulation.h"
#include "routines/math_extra.h"
#include "routines/operators.h"
#include "routines/reduction.h"
#include "routines/scalar.h"
#include "routines/sorting.h"
#include "routines/histogram.h"
#include "routines/quantile.h"
#include "routines/correlate.h"
#include "routines/ufunc_table.h"
#include "routines/printing.h"
#include "routines/assignment.h"
#include "routines/indexing.h"
#include "routines/joining.h"
#include "routines/padding.h"
#include "routines/rearranging.h"
#include "routines/convolution.h"
#include "routines/dnn_backend.h"
#include "routines/im2col.h"

#include "random/generator.h"
#include "sparse/sparse.h"
#include "sparse/indexing.h"
#include "sparse/reductions.h"
#include "sparse/linalg/dense_pencil.h"
#include "sparse/linalg/eigsh.h"
#include "sparse/linalg/expm_multiply.h"
#include "sparse/linalg/iterative_inverse.h"
#include "sparse/linalg/isolve.h"
#include "sparse/linalg/linear_operator.h"
#include "sparse/linalg/norm.h"
#include "sparse/linalg/superlu.h"
#include "autograd/autograd.h"
#include "routines/special.h"
#include "autograd/optimizers/optimizer.h"
#include "kernels/raw_module.h"
