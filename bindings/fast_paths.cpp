// Python's operators and ufunc calls straight into the C++ routines.
//
// A pybind11 method call costs more than a small array operation itself:
// the dispatcher builds argument vectors, tries overloads and parses
// keywords before the C++ routine runs. The common cases (`a + b`,
// `a * 2.0`, `a < b`, `kumo.add(a, b)` with arrays and Python scalars) are
// therefore served by CPython type slots (number slots, rich comparison,
// tp_call of the ufunc type) that go straight to Ufunc::call_into.
// Anything else (a foreign operand, keywords, an error) is handed to the
// bound method, which has the complete semantics and raises the right
// exception; the fast path never decides anything differently from it.
#include <pybind11/pybind11.h>

#include <optional>

#include "bindings/convert.h"
#include "core/fp_errors.h"
#include "core/errors.h"
#include "kernels/ufunc.h"
#include "linalg/products.h"
#include "routines/elementwise.h"
#include "routines/ufunc_table.h"

namespace kumo {
namespace py_bind {

namespace {

using kernels::Ufunc;
using kernels::UfuncOperand;

PyTypeObject* g_ndarray = nullptr;

// An operand the fast path handles (a kumo array or a Python scalar). An
// array operand refers to the Array inside `o`, which the caller's reference
// keeps alive for the call.
bool fast_operand(PyObject* o, UfuncOperand* op) {
  if (const Array* a = ndarray_value(o)) {
    *op = UfuncOperand(*a);
    return true;
  }
  if (is_python_scalar(o)) {
    op->is_scalar = true;
    op->scalar = to_scalar_value(o);
    return true;
  }
  return false;
}

// Calls the bound method `name` of `self` with `other` (the complete path).
PyObject* call_method(PyObject* self, const char* name, PyObject* other) {
  // (Not PyObject_CallMethod with "O": a tuple argument would be taken as
  // the whole argument list.)
  PyObject* method_name = PyUnicode_InternFromString(name);
  if (!method_name) return nullptr;
  PyObject* result = PyObject_CallMethodObjArgs(self, method_name, other, nullptr);
  Py_DECREF(method_name);
  return result;
}

// One binary operator: its ufunc and the dunder names of the bound methods.
struct BinaryOp {
  const char* ufunc;
  const char* method;   // "__add__"
  const char* rmethod;  // "__radd__"
  const char* imethod;  // "__iadd__"
  const Ufunc* u = nullptr;
};

enum OpIndex { kAdd, kSub, kMul, kTrueDiv, kFloorDiv, kMod, kAnd, kOr, kXor, kLshift, kRshift, kPow, kNumOps };
BinaryOp g_ops[kNumOps] = {
    {"add", "__add__", "__radd__", "__iadd__"},
    {"subtract", "__sub__", "__rsub__", "__isub__"},
    {"multiply", "__mul__", "__rmul__", "__imul__"},
    {"divide", "__truediv__", "__rtruediv__", "__itruediv__"},
    {"floor_divide", "__floordiv__", "__rfloordiv__", "__ifloordiv__"},
    {"remainder", "__mod__", "__rmod__", "__imod__"},
    {"bitwise_and", "__and__", "__rand__", "__iand__"},
    {"bitwise_or", "__or__", "__ror__", "__ior__"},
    {"bitwise_xor", "__xor__", "__rxor__", "__ixor__"},
    {"left_shift", "__lshift__", "__rlshift__", "__ilshift__"},
    {"right_shift", "__rshift__", "__rrshift__", "__irshift__"},
    {"power", "__pow__", "__rpow__", "__ipow__"},
};

// The result as a new Python object.
PyObject* to_python(Array&& result) { return new_ndarray(std::move(result)).release().ptr(); }

// Runs the C++ call and returns its result as a new object, or null (with
// no Python error set) when it threw: the caller then hands the operation
// to the bound method, which raises the exception with its full context.
template <class Fn>
PyObject* try_fast(Fn&& fn) {
  try {
    return fn();
  } catch (const py::error_already_set&) {
  } catch (const std::exception&) {
  }
  return nullptr;
}

// A ufunc call whose floating-point errors (core/fp_errors.h) are reported
// by finish_fast_call once the call succeeded, as call_ufunc_into does.
void call_checked(const Ufunc& u, const UfuncOperand* ops, int n, Array* outs) {
  take_fp_flags();
  u.call_into(ops, n, outs, std::nullopt, Casting::kSameKind);
}

// Reports the floating-point errors of a finished fast call: `result`, or
// null with the Python error set when the report raises (errstate 'raise', a
// warning filter set to 'error'). Never falls back to the complete path,
// which would run the operation (an in-place one too) a second time.
PyObject* finish_fast_call(const Ufunc& u, const UfuncOperand* ops, int n, const Array* outs, PyObject* result,
                           AliasedNan before = AliasedNan::kNone) {
  if (!result) return nullptr;
  try {
    report_ufunc_fp_errors(u, ops, n, outs, Array(), before);
    return result;
  } catch (py::error_already_set& e) {
    Py_DECREF(result);
    e.restore();
  } catch (const FloatingPointError& e) {
    Py_DECREF(result);
    PyErr_SetString(PyExc_FloatingPointError, e.what());
  } catch (const std::exception& e) {
    Py_DECREF(result);
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// One output of a single-output ufunc call.
PyObject* call_one(const Ufunc& u, const UfuncOperand* ops, int n, Array out = Array()) {
  PyObject* r = try_fast([&] {
    call_checked(u, ops, n, &out);
    return to_python(Array(out));
  });
  return finish_fast_call(u, ops, n, &out, r);
}

PyObject* binary(const BinaryOp& op, PyObject* a, PyObject* b) {
  // Python calls the slot for `a + b` with the operands in order, whichever
  // of them is the kumo array; the slow path is that one's (r)method.
  const bool a_is_array = ndarray_value(a) != nullptr;
  UfuncOperand ops[2];
  if (fast_operand(a, &ops[0]) && fast_operand(b, &ops[1]))
    if (PyObject* r = call_one(*op.u, ops, 2); r || PyErr_Occurred()) return r;
  return a_is_array ? call_method(a, op.method, b) : call_method(b, op.rmethod, a);
}

PyObject* inplace(const BinaryOp& op, PyObject* a, PyObject* b) {
  UfuncOperand ops[2];
  const Array* target = ndarray_value(a);
  if (target && fast_operand(a, &ops[0]) && fast_operand(b, &ops[1])) {
    Array out = *target;
    AliasedNan before = AliasedNan::kNone;
    PyObject* done = try_fast([&] {
      before = aliased_input_nan(*op.u, ops, 2, &out);
      call_checked(*op.u, ops, 2, &out);
      Py_INCREF(a);
      return a;
    });
    if (done) return finish_fast_call(*op.u, ops, 2, &out, done, before);
  }
  if (PyErr_Occurred()) return nullptr;
  return call_method(a, op.imethod, b);
}

template <int K>
PyObject* binary_slot(PyObject* a, PyObject* b) {
  return binary(g_ops[K], a, b);
}
template <int K>
PyObject* inplace_slot(PyObject* a, PyObject* b) {
  return inplace(g_ops[K], a, b);
}

PyObject* power_slot(PyObject* a, PyObject* b, PyObject* mod) {
  // Three-argument pow is not defined for arrays (Python then raises TypeError).
  if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
  // NumPy computes `a ** 2` as square(a), with square's loops (bool ** 2 is int8).
  if (Py_TYPE(b) == &PyLong_Type) {
    int overflow = 0;
    if (PyLong_AsLongAndOverflow(b, &overflow) == 2 && !overflow) {
      if (const Array* x = ndarray_value(a)) {
        static const Ufunc& square = builtin_ufunc("square");
        const UfuncOperand ops[1] = {*x};
        if (PyObject* r = call_one(square, ops, 1); r || PyErr_Occurred()) return r;
        return call_method(a, "__pow__", b);
      }
    }
  }
  return binary(g_ops[kPow], a, b);
}
PyObject* inplace_power_slot(PyObject* a, PyObject* b, PyObject* mod) {
  if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return inplace(g_ops[kPow], a, b);
}

struct CompareOp {
  const char* ufunc;
  const char* method;
  const Ufunc* u = nullptr;
};
// Indexed by Py_LT, Py_LE, Py_EQ, Py_NE, Py_GT, Py_GE.
CompareOp g_compare[6] = {{"less", "__lt__"},    {"less_equal", "__le__"}, {"equal", "__eq__"},
                          {"not_equal", "__ne__"}, {"greater", "__gt__"},  {"greater_equal", "__ge__"}};

PyObject* richcompare_slot(PyObject* a, PyObject* b, int opid) {
  // CPython calls this with a kumo array first (operands swapped, and the
  // operator mirrored, when the array is on the right).
  const CompareOp& op = g_compare[opid];
  UfuncOperand ops[2];
  if (fast_operand(a, &ops[0]) && fast_operand(b, &ops[1]))
    if (PyObject* r = call_one(*op.u, ops, 2); r || PyErr_Occurred()) return r;
  return call_method(a, op.method, b);
}

// `a @ b` of two matrices straight to the C++ matmul (GEMM); stacks, 1-d
// operands and anything else take the Python method (its batched paths).
PyObject* matmul_slot(PyObject* a, PyObject* b) {
  const Array* x = ndarray_value(a);
  const Array* y = ndarray_value(b);
  if (x && y && x->ndim() == 2 && y->ndim() == 2)
    if (PyObject* r = try_fast([&] { return to_python(kumo::matmul(*x, *y)); })) return r;
  return x ? call_method(a, "__matmul__", b) : call_method(b, "__rmatmul__", a);
}

// mp_subscript: ndarray.__getitem__ without the method dispatch.
PyObject* subscript_slot(PyObject* self, PyObject* key) {
  if (PyObject* r = try_fast([&] { return array_getitem(self, key).release().ptr(); })) return r;
  return call_method(self, "__getitem__", key);
}

// tp_call of the ufunc type: positional inputs only, no outputs.

PyObject* ufunc_call_slot(PyObject* self, PyObject* args, PyObject* kwargs) {
  const Ufunc* u = instance_value<Ufunc>(self);
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (u && (!kwargs || PyDict_GET_SIZE(kwargs) == 0) && n == u->nin() && n <= 2) {
    UfuncOperand ops[2];
    bool ok = true;
    for (Py_ssize_t i = 0; i < n && ok; ++i) ok = fast_operand(PyTuple_GET_ITEM(args, i), &ops[i]);
    if (ok && u->nout() == 1) {
      if (PyObject* r = call_one(*u, ops, static_cast<int>(n)); r || PyErr_Occurred()) return r;
    } else if (ok) {
      Array outs[kernels::kMaxUfuncOperands];
      PyObject* r = try_fast([&] {
        call_checked(*u, ops, static_cast<int>(n), outs);
        py::tuple t(u->nout());
        for (int i = 0; i < u->nout(); ++i) t[i] = new_ndarray(Array(outs[i]));
        return t.release().ptr();
      });
      if (r) return finish_fast_call(*u, ops, static_cast<int>(n), outs, r);
      if (PyErr_Occurred()) return nullptr;
    }
  }
  // The complete path: the bound method (attribute lookup finds the
  // method, not this slot), as self.__call__(*args, **kwargs).
  py::object bound = py::reinterpret_steal<py::object>(PyObject_GetAttrString(self, "__call__"));
  if (!bound) return nullptr;
  return PyObject_Call(bound.ptr(), args, kwargs);
}

}  // namespace

void bind_fast_paths(py::module_& m) {
  // Called once the Python package has finished setting up ndarray and the
  // ufunc type, so that no later attribute assignment resets the slots.
  m.def("_install_fast_paths", [](py::object ndarray_type, py::object ufunc_type) {
    g_ndarray = reinterpret_cast<PyTypeObject*>(ndarray_type.ptr());
    for (BinaryOp& op : g_ops) op.u = &builtin_ufunc(op.ufunc);
    for (CompareOp& op : g_compare) op.u = &builtin_ufunc(op.ufunc);
    PyNumberMethods* nb = g_ndarray->tp_as_number;
    if (!nb) throw TypeError("ndarray has no number methods to speed up");
    nb->nb_add = binary_slot<kAdd>;
    nb->nb_subtract = binary_slot<kSub>;
    nb->nb_multiply = binary_slot<kMul>;
    nb->nb_true_divide = binary_slot<kTrueDiv>;
    nb->nb_floor_divide = binary_slot<kFloorDiv>;
    nb->nb_remainder = binary_slot<kMod>;
    nb->nb_and = binary_slot<kAnd>;
    nb->nb_or = binary_slot<kOr>;
    nb->nb_xor = binary_slot<kXor>;
    nb->nb_lshift = binary_slot<kLshift>;
    nb->nb_rshift = binary_slot<kRshift>;
    nb->nb_power = power_slot;
    nb->nb_inplace_add = inplace_slot<kAdd>;
    nb->nb_inplace_subtract = inplace_slot<kSub>;
    nb->nb_inplace_multiply = inplace_slot<kMul>;
    nb->nb_inplace_true_divide = inplace_slot<kTrueDiv>;
    nb->nb_inplace_floor_divide = inplace_slot<kFloorDiv>;
    nb->nb_inplace_remainder = inplace_slot<kMod>;
    nb->nb_inplace_and = inplace_slot<kAnd>;
    nb->nb_inplace_or = inplace_slot<kOr>;
    nb->nb_inplace_xor = inplace_slot<kXor>;
    nb->nb_inplace_lshift = inplace_slot<kLshift>;
    nb->nb_inplace_rshift = inplace_slot<kRshift>;
    nb->nb_inplace_power = inplace_power_slot;
    nb->nb_matrix_multiply = matmul_slot;
    g_ndarray->tp_richcompare = richcompare_slot;
    if (g_ndarray->tp_as_mapping) g_ndarray->tp_as_mapping->mp_subscript = subscript_slot;
    PyType_Modified(g_ndarray);

    auto* ut = reinterpret_cast<PyTypeObject*>(ufunc_type.ptr());
    ut->tp_call = ufunc_call_slot;
    // Instances of a heap type are called through vectorcall when the type
    // offers it; clearing the flag makes CPython use tp_call above.
    ut->tp_flags &= ~Py_TPFLAGS_HAVE_VECTORCALL;
    PyType_Modified(ut);
  });
}

}  // namespace py_bind
}  // namespace kumo
