// kumo::autograd: define-by-run automatic differentiation (Chainer's design)
// on kumo arrays. One include for the engine and the functions.
//
//   using namespace kumo;
//   autograd::Variable x(asarray(std::vector<double>{1, 2, 3}, {3}));
//   autograd::Variable y = autograd::sum(autograd::tanh(x) * x);
//   y.backward();
//   x.grad();  // d(sum(tanh(x) * x))/dx
#pragma once
#include "autograd/backward.h"
#include "autograd/function_hook.h"
#include "autograd/function_node.h"
#include "autograd/functions/activation.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/indexing.h"
#include "autograd/functions/linalg.h"
#include "autograd/functions/loss.h"
#include "autograd/functions/math.h"
#include "autograd/gradient_check.h"
#include "autograd/mode.h"
#include "autograd/variable.h"
#include "autograd/functions/evaluation.h"
#include "autograd/functions/noise.h"
#include "autograd/functions/normalization.h"
#include "autograd/functions/embed.h"
#include "autograd/functions/rnn.h"
#include "autograd/functions/convolution.h"
#include "autograd/functions/pooling.h"
#include "autograd/functions/fused.h"
