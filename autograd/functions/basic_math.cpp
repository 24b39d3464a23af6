#include "autograd/functions/basic_math.h"

#include <cmath>
#include <complex>
#include <memory>

#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/math.h"
#include "routines/elementwise.h"

namespace kumo {
namespace autograd {
namespace {

// The gradient of an operand that broadcasting stretched to the output's
// shape: summed back to the operand's shape.
Variable unbroadcast(const Variable& g, const Shape& shape) { return g.shape() == shape ? g : sum_to(g, shape); }

Variable one(const std::shared_ptr<FunctionNode>& f, const Variable& x) { return apply(f, {x})[0]; }
Variable two(const std::shared_ptr<FunctionNode>& f, const Variable& a, const Variable& b) {
  return apply(f, {a, b})[0];
}

// A scalar shifted by -1 in its own kind (the exponent of a power's
// derivative).
Scalar minus_one(Scalar s) {
  const kernels::ScalarValue& v = s.value();
  switch (s.kind()) {
    case WeakScalar::kBool:
    case WeakScalar::kInt:
      return v.is_uint ? Scalar(static_cast<double>(v.u) - 1.0) : Scalar(v.i - 1);
    case WeakScalar::kFloat:
      return Scalar(v.f - 1.0);
    case WeakScalar::kComplex:
      return Scalar(v.c - 1.0);
  }
  return s;
}

// log of a scalar base (the derivative of base**x).
Scalar log_of(Scalar s) {
  const kernels::ScalarValue& v = s.value();
  if (s.kind() == WeakScalar::kComplex) return Scalar(std::log(v.c));
  return Scalar(std::log(v.is_uint ? static_cast<double>(v.u) : v.f));
}

class Add : public FunctionNode {
 public:
  std::string label() const override { return "Add"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::add(x[0], x[1])}; }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> gx;
    for (size_t i : targets) gx.push_back(unbroadcast(gy[0], input_shape(i)));
    return gx;
  }
};

class AddConstant : public FunctionNode {
 public:
  explicit AddConstant(Scalar c) : c_(c) {}
  std::string label() const override { return "AddConstant"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::add(x[0], c_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {gy[0]};
  }

 private:
  Scalar c_;
};

class Sub : public FunctionNode {
 public:
  std::string label() const override { return "Sub"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::subtract(x[0], x[1])}; }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> gx;
    for (size_t i : targets) gx.push_back(unbroadcast(i == 0 ? gy[0] : neg(gy[0]), input_shape(i)));
    return gx;
  }
};

class SubConstant : public FunctionNode {
 public:
  explicit SubConstant(Scalar c) : c_(c) {}
  std::string label() const override { return "SubConstant"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::subtract(x[0], c_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {gy[0]};
  }

 private:
  Scalar c_;
};

class SubFromConstant : public FunctionNode {
 public:
  explicit SubFromConstant(Scalar c) : c_(c) {}
  std::string label() const override { return "SubFromConstant"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::subtract(c_, x[0])}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {neg(gy[0])};
  }

 private:
  Scalar c_;
};

class Mul : public FunctionNode {
 public:
  std::string label() const override { return "Mul"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0, 1});
    return {kumo::multiply(x[0], x[1])};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> x = get_retained_inputs();
    std::vector<Variable> gx;
    for (size_t i : targets) gx.push_back(unbroadcast(gy[0] * x[1 - i], input_shape(i)));
    return gx;
  }
};

class MulConstant : public FunctionNode {
 public:
  explicit MulConstant(Scalar c) : c_(c) {}
  std::string label() const override { return "MulConstant"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::multiply(x[0], c_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {gy[0] * c_};
  }

 private:
  Scalar c_;
};

class Div : public FunctionNode {
 public:
  std::string label() const override { return "Div"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0, 1});
    return {kumo::divide(x[0], x[1])};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> x = get_retained_inputs();
    std::vector<Variable> gx;
    for (size_t i : targets) {
      Variable g = gy[0] / x[1];
      if (i == 1) g = neg(g * x[0] / x[1]);
      gx.push_back(unbroadcast(g, input_shape(i)));
    }
    return gx;
  }
};

class DivByConstant : public FunctionNode {
 public:
  explicit DivByConstant(Scalar c) : c_(c) {}
  std::string label() const override { return "DivByConstant"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::divide(x[0], c_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {gy[0] / c_};
  }

 private:
  Scalar c_;
};

class ConstantDiv : public FunctionNode {
 public:
  explicit ConstantDiv(Scalar c) : c_(c) {}
  std::string label() const override { return "ConstantDiv"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    return {kumo::divide(c_, x[0])};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable x = get_retained_inputs()[0];
    return {neg(gy[0] * c_ / square(x))};
  }

 private:
  Scalar c_;
};

class Pow : public FunctionNode {
 public:
  std::string label() const override { return "Pow"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0, 1});
    retain_outputs({0});
    return {kumo::power(x[0], x[1])};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> x = get_retained_inputs();
    Variable y = get_retained_outputs()[0];
    std::vector<Variable> gx;
    for (size_t i : targets) {
      Variable g = i == 0 ? gy[0] * x[1] * pow(x[0], x[1] - 1) : gy[0] * y * log(x[0]);
      gx.push_back(unbroadcast(g, input_shape(i)));
    }
    return gx;
  }
};

class PowByConstant : public FunctionNode {
 public:
  explicit PowByConstant(Scalar c) : c_(c) {}
  std::string label() const override { return "PowByConstant"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    return {kumo::power(x[0], c_)};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable x = get_retained_inputs()[0];
    return {gy[0] * c_ * pow(x, minus_one(c_))};
  }

 private:
  Scalar c_;
};

class ConstantPow : public FunctionNode {
 public:
  explicit ConstantPow(Scalar c) : c_(c) {}
  std::string label() const override { return "ConstantPow"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_outputs({0});
    return {kumo::power(c_, x[0])};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable y = get_retained_outputs()[0];
    return {gy[0] * y * log_of(c_)};
  }

 private:
  Scalar c_;
};

class Neg : public FunctionNode {
 public:
  std::string label() const override { return "Neg"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {kumo::negative(x[0])}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {neg(gy[0])};
  }
};

class Cast : public FunctionNode {
 public:
  explicit Cast(Dtype dtype) : dtype_(dtype) {}
  std::string label() const override { return "Cast"; }
  std::vector<Array> forward(const std::vector<Array>& x) override { return {x[0].astype(dtype_)}; }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    return {cast(gy[0], input_dtype(0))};
  }

 private:
  Dtype dtype_;
};

}  // namespace

Variable add(const Variable& a, const Variable& b) { return two(std::make_shared<Add>(), a, b); }
Variable add(const Variable& a, Scalar b) { return one(std::make_shared<AddConstant>(b), a); }
Variable sub(const Variable& a, const Variable& b) { return two(std::make_shared<Sub>(), a, b); }
Variable sub(const Variable& a, Scalar b) { return one(std::make_shared<SubConstant>(b), a); }
Variable sub(Scalar a, const Variable& b) { return one(std::make_shared<SubFromConstant>(a), b); }
Variable mul(const Variable& a, const Variable& b) { return two(std::make_shared<Mul>(), a, b); }
Variable mul(const Variable& a, Scalar b) { return one(std::make_shared<MulConstant>(b), a); }
Variable div(const Variable& a, const Variable& b) { return two(std::make_shared<Div>(), a, b); }
Variable div(const Variable& a, Scalar b) { return one(std::make_shared<DivByConstant>(b), a); }
Variable div(Scalar a, const Variable& b) { return one(std::make_shared<ConstantDiv>(a), b); }
Variable pow(const Variable& a, const Variable& b) { return two(std::make_shared<Pow>(), a, b); }
Variable pow(const Variable& a, Scalar exponent) { return one(std::make_shared<PowByConstant>(exponent), a); }
Variable pow(Scalar base, const Variable& exponent) { return one(std::make_shared<ConstantPow>(base), exponent); }
Variable neg(const Variable& a) { return one(std::make_shared<Neg>(), a); }
Variable cast(const Variable& a, Dtype dtype) {
  if (a.dtype() == dtype) return a;
  return one(std::make_shared<Cast>(dtype), a);
}

}  // namespace autograd
}  // namespace kumo
