"""ComplexWarning where NumPy gives it: a cast of complex values to a real type inside a call (a complex input
to a real loop through dtype=, a complex result into a real out= with casting='unsafe', a complex out= read
into a real loop), and none where the cast keeps the imaginary part (found by tests/differential)."""
import warnings

import numpy
import pytest

import kumo

CASES = {
    "ufunc_real_dtype_of_complex": lambda m: m.add(m.asarray([1 + 2j]), m.asarray([1 + 0j]), dtype="float64",
                                                  casting="unsafe"),
    "ufunc_complex_into_real_out": lambda m: m.add(m.asarray([1 + 2j]), 1, out=m.zeros(1), casting="unsafe"),
    "ufunc_real_into_complex_out": lambda m: m.add(m.asarray([1.5]), 1, out=m.zeros(1, "complex64")),
    "ufunc_where_complex_out_of_real_loop": lambda m: m.add(m.asarray([1.0, 2.0]), 1, out=m.zeros(2, "complex128"),
                                                           where=m.asarray([True, False])),
    "ufunc_complex_scalar_real_dtype": lambda m: m.multiply(m.asarray([2.0]), 1j, dtype="float64", casting="unsafe"),
    "sum_real_dtype_of_complex": lambda m: m.asarray([1 + 2j, 3j]).sum(dtype="float64"),
    "sum_complex_into_real_out": lambda m: m.sum(m.asarray([1 + 2j, 3j]), out=m.zeros(())),
    "sum_real_into_complex_out": lambda m: m.sum(m.asarray([1.0, 3.0]), out=m.zeros((), "complex128")),
    "prod_complex_into_real_out": lambda m: m.prod(m.asarray([1 + 2j, 3j]), out=m.zeros((), "float32")),
    "cumsum_complex_into_real_out": lambda m: m.cumsum(m.asarray([1 + 2j, 3j]), out=m.zeros(2)),
    "add_accumulate_real_dtype": lambda m: m.add.accumulate(m.asarray([1 + 2j, 3j]), dtype="float64"),
    "median_float_into_complex_out": lambda m: m.median(m.asarray([1.0, 3.0]), out=m.zeros((), "complex128")),
    "median_int_into_complex_out": lambda m: m.median(m.asarray([1, 2]), out=m.zeros((), "complex128")),
    "median_odd_int_into_complex_out": lambda m: m.median(m.asarray([1, 2, 3]), out=m.zeros((), "complex64")),
    "nanvar_complex_dtype_of_real": lambda m: m.nanvar(m.asarray([1.0, 3.0]), dtype="complex128"),
    "real_add": lambda m: m.add(m.asarray([1.0]), 1),
}


def _categories(fn, module):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(module)
    return sorted({w.category.__name__ for w in caught})


@pytest.mark.parametrize("case", sorted(CASES))
def test_complex_warning_as_numpy(case):
    assert _categories(CASES[case], kumo) == _categories(CASES[case], numpy)
