"""The built-in ufuncs as data.

Each row gives a name, the number of inputs and outputs, the type loops in
NumPy's order (type characters as in ``numpy.dtype.char``), the operation
snippet (over ``in0``, ``in1``, ``out0`` ...; per-loop snippets override the
row's default) and the identity used by ``reduce``. One generator (the
kernel layer) turns every row into kernels for the host and for CUDA. To add
a ufunc, add a row.
"""

BOOL = "?"
INTS = "bBhHiIlL"
SINTS = "bhil"
UINTS = "BHIL"
FLOATS = "efd"
COMPLEX = "FD"
ALL = BOOL + INTS + FLOATS + COMPLEX
NUMERIC = INTS + FLOATS + COMPLEX

# Reduce identity of logaddexp/logaddexp2 (an expression that also compiles
# under NVRTC, where <math.h>'s INFINITY does not exist).
NEG_INF = "-kumo::limits<_type_reduce>::infinity()"

# Prefix of a snippet that makes a loop an error: resolution raises
# TypeError with the rest of the text (NumPy refuses some bool operations).
ERROR = "!error:"


def same(chars, nin, nout=1, out=None):
    """Loops whose inputs share one type; outputs are that type or `out`."""
    return [c * nin + "->" + (out or c) * nout for c in chars]


def _rows():
    r = []

    def row(name, nin, nout, loops, op, identity="", overrides=None, doc=""):
        ops = []
        for t in loops:
            snippet = op
            if overrides:
                for key, val in overrides.items():
                    if t in key.split(",") or t[0] in key.split(",") and len(key) == 1:
                        snippet = val
            ops.append((t, snippet))
        r.append((name, nin, nout, ops, identity, doc))

    b2 = "out0 = in0 {} in1"
    # ---- arithmetic ----
    row("add", 2, 1, same(ALL, 2), b2.format("+"), "0", {"??->?": "out0 = in0 || in1"},
        "Add arguments element-wise.")
    row("subtract", 2, 1, ["??->?"] + same(NUMERIC, 2), b2.format("-"), "",
        {"??->?": ERROR + "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                          "the `^` operator, or the logical_xor function instead."},
        "Subtract arguments, element-wise.")
    row("multiply", 2, 1, same(ALL, 2), b2.format("*"), "1", {"??->?": "out0 = in0 && in1"},
        "Multiply arguments element-wise.")
    # Integer true division gives float64 (NumPy's true-division type resolver).
    div_loops = [c + c + "->d" for c in BOOL + INTS] + same(FLOATS + COMPLEX, 2)
    row("divide", 2, 1, div_loops, "out0 = kumo::true_divide(in0, in1)", "",
        {",".join(c + c + "->d" for c in BOOL + INTS): "out0 = (double)in0 / (double)in1"},
        "Divide arguments element-wise.")
    row("floor_divide", 2, 1, same(INTS + FLOATS, 2), "out0 = kumo::floor_divide(in0, in1)", "", None,
        "Return the largest integer smaller or equal to the division of the inputs.")
    row("remainder", 2, 1, same(INTS + FLOATS, 2), "out0 = kumo::remainder(in0, in1)", "", None,
        "Returns the element-wise remainder of division (sign of the divisor).")
    row("fmod", 2, 1, same(INTS + FLOATS, 2), "out0 = kumo::fmod(in0, in1)", "", None,
        "Returns the element-wise remainder of division (sign of the dividend).")
    row("divmod", 2, 2, same(INTS + FLOATS, 2, 2), "kumo::divmod(in0, in1, out0, out1)", "", None,
        "Return element-wise quotient and remainder simultaneously.")
    row("power", 2, 1, same(INTS + FLOATS + COMPLEX, 2), "out0 = kumo::power(in0, in1)", "", None,
        "First array elements raised to powers from second array, element-wise.")
    row("float_power", 2, 1, same("dD", 2), "out0 = kumo::power(in0, in1)", "", None,
        "First array elements raised to powers from second array, in float64 or complex128.")
    row("negative", 1, 1, ["?->?"] + same(NUMERIC, 1), "out0 = kumo::negative(in0)", "",
        {"?->?": ERROR + "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator "
                         "or the logical_not function instead."},
        "Numerical negative, element-wise.")
    row("positive", 1, 1, ["?->?"] + same(NUMERIC, 1), "out0 = in0", "",
        {"?->?": ERROR + "The numpy boolean positive, the `+` operator, is not supported."},
        "Numerical positive, element-wise.")
    row("absolute", 1, 1, same(BOOL + INTS + FLOATS, 1) + ["F->f", "D->d"], "out0 = kumo::absolute(in0)", "",
        {"?->?": "out0 = in0"}, "Calculate the absolute value element-wise.")
    row("fabs", 1, 1, same(FLOATS, 1), "out0 = fabs(in0)", "", None, "Compute the absolute values element-wise.")
    row("sign", 1, 1, ["?->?"] + same(NUMERIC, 1), "out0 = kumo::sign(in0)", "",
        {"?->?": ERROR + "ufunc 'sign' did not contain a loop with signature matching types "
                         "<class 'numpy.dtypes.BoolDType'> -> None"},
        "Returns an element-wise indication of the sign of a number.")
    row("conjugate", 1, 1, same(NUMERIC, 1), "out0 = kumo::conjugate(in0)", "", None,
        "Return the complex conjugate, element-wise.")
    row("reciprocal", 1, 1, same(NUMERIC, 1), "out0 = kumo::reciprocal(in0)", "", None,
        "Return the reciprocal of the argument, element-wise.")
    row("square", 1, 1, same(NUMERIC, 1), "out0 = kumo::square(in0)", "", None,
        "Return the element-wise square of the input.")
    row("heaviside", 2, 1, same(FLOATS, 2), "out0 = kumo::heaviside(in0, in1)", "", None,
        "Compute the Heaviside step function.")
    row("gcd", 2, 1, ["??->?"] + same(INTS, 2), "out0 = kumo::gcd(in0, in1)", "0",
        {"??->?": ERROR + "ufunc 'gcd' did not contain a loop with signature matching types "
                          "(<class 'numpy.dtypes.BoolDType'>, <class 'numpy.dtypes.BoolDType'>) -> None"},
        "Returns the greatest common divisor of |x1| and |x2|.")
    row("lcm", 2, 1, ["??->?"] + same(INTS, 2), "out0 = kumo::lcm(in0, in1)", "",
        {"??->?": ERROR + "ufunc 'lcm' did not contain a loop with signature matching types "
                          "(<class 'numpy.dtypes.BoolDType'>, <class 'numpy.dtypes.BoolDType'>) -> None"},
        "Returns the lowest common multiple of |x1| and |x2|.")

    # ---- exponents, logarithms, roots ----
    def unary_float(name, fn, complex_ok=True, doc=""):
        chars = FLOATS + (COMPLEX if complex_ok else "")
        row(name, 1, 1, same(chars, 1), "out0 = %s(in0)" % fn, "", None, doc)

    unary_float("sqrt", "sqrt", doc="Return the non-negative square-root of an array, element-wise.")
    unary_float("cbrt", "cbrt", False, "Return the cube-root of an array, element-wise.")
    row("exp", 1, 1, same(FLOATS + COMPLEX, 1), "out0 = exp(in0)", "",
        {"f->f": "out0 = kumo::vexpf(in0)", "e->e": "out0 = (float16)kumo::vexpf((float)in0)"},
        "Calculate the exponential of all elements in the input array.")
    unary_float("exp2", "exp2", doc="Calculate 2**p for all p in the input array.")
    unary_float("expm1", "expm1", doc="Calculate exp(x) - 1 for all elements in the array.")
    unary_float("log", "log", doc="Natural logarithm, element-wise.")
    unary_float("log2", "log2", doc="Base-2 logarithm of x.")
    unary_float("log10", "log10", doc="Return the base 10 logarithm of the input array, element-wise.")
    unary_float("log1p", "log1p", doc="Return the natural logarithm of one plus the input array, element-wise.")
    row("logaddexp", 2, 1, same(FLOATS, 2), "out0 = kumo::logaddexp(in0, in1)", NEG_INF, None,
        "Logarithm of the sum of exponentiations of the inputs.")
    row("logaddexp2", 2, 1, same(FLOATS, 2), "out0 = kumo::logaddexp2(in0, in1)", NEG_INF, None,
        "Logarithm of the sum of exponentiations of the inputs in base-2.")

    # ---- trigonometric and hyperbolic ----
    for name, fn in [("sin", "sin"), ("cos", "cos"), ("tan", "tan"), ("arcsin", "asin"), ("arccos", "acos"),
                     ("arctan", "atan"), ("sinh", "sinh"), ("cosh", "cosh"), ("tanh", "tanh"),
                     ("arcsinh", "asinh"), ("arccosh", "acosh"), ("arctanh", "atanh")]:
        unary_float(name, fn, doc="Element-wise %s." % name)
    row("arctan2", 2, 1, same(FLOATS, 2), "out0 = atan2(in0, in1)", "", None,
        "Element-wise arc tangent of x1/x2 choosing the quadrant correctly.")
    row("hypot", 2, 1, same(FLOATS, 2), "out0 = hypot(in0, in1)", "0", None,
        "Given the legs of a right triangle, return its hypotenuse.")
    for name, fn in [("degrees", "rad2deg"), ("rad2deg", "rad2deg"), ("radians", "deg2rad"),
                     ("deg2rad", "deg2rad")]:
        row(name, 1, 1, same(FLOATS, 1), "out0 = kumo::%s(in0)" % fn, "", None, "Convert angles (%s)." % name)

    # ---- rounding ----
    row("rint", 1, 1, same(FLOATS + COMPLEX, 1), "out0 = rint(in0)", "",
        {"F->F,D->D": "out0 = out0_type(rint(in0.real()), rint(in0.imag()))"},
        "Round elements of the array to the nearest integer.")
    for name in ("floor", "ceil", "trunc"):
        row(name, 1, 1, same(BOOL + INTS + FLOATS, 1), "out0 = %s(in0)" % name, "",
            {"?->?": "out0 = in0", ",".join(c + "->" + c for c in INTS): "out0 = in0"},
            "Return the %s of the input, element-wise." % name)

    # ---- floating point ----
    for name in ("isnan", "isinf", "isfinite"):
        row(name, 1, 1, [c + "->?" for c in ALL], "out0 = %s(in0)" % name, "",
            {",".join(c + "->?" for c in BOOL + INTS): "out0 = %s" % ("true" if name == "isfinite" else "false")},
            "Test element-wise for %s." % name)
    row("signbit", 1, 1, [c + "->?" for c in FLOATS], "out0 = signbit(in0)", "", None,
        "Returns element-wise True where signbit is set (less than zero).")
    row("copysign", 2, 1, same(FLOATS, 2), "out0 = copysign(in0, in1)", "", None,
        "Change the sign of x1 to that of x2, element-wise.")
    row("nextafter", 2, 1, same(FLOATS, 2), "out0 = nextafter(in0, in1)", "", None,
        "Return the next floating-point value after x1 towards x2, element-wise.")
    row("spacing", 1, 1, same(FLOATS, 1), "out0 = kumo::spacing(in0)", "", None,
        "Return the distance between x and the nearest adjacent number.")
    row("ldexp", 2, 1, ["ei->e", "fi->f", "el->e", "fl->f", "di->d", "dl->d"], "out0 = ldexp(in0, (int)in1)", "",
        {"el->e,fl->f,dl->d": "out0 = ldexp(in0, in1 > 2147483647 ? 2147483647 : (in1 < -2147483647 ? -2147483647 : (int)in1))"},
        "Returns x1 * 2**x2, element-wise.")
    row("frexp", 1, 2, ["e->ei", "f->fi", "d->di"], "{ int e_; out0 = frexp(in0, &e_); out1 = e_; }", "", None,
        "Decompose the elements of x into mantissa and twos exponent.")
    row("modf", 1, 2, same(FLOATS, 1, 2), "out0 = modf(in0, &out1)", "", None,
        "Return the fractional and integral parts of an array, element-wise.")

    # ---- extrema ----
    for name, fn, ident, doc in [("maximum", "maximum", "", "Element-wise maximum of array elements (NaN propagates)."),
                                 ("minimum", "minimum", "", "Element-wise minimum of array elements (NaN propagates)."),
                                 ("fmax", "fmax", "", "Element-wise maximum of array elements (NaN ignored)."),
                                 ("fmin", "fmin", "", "Element-wise minimum of array elements (NaN ignored).")]:
        row(name, 2, 1, same(ALL, 2), "out0 = kumo::%s(in0, in1)" % fn, ident,
            {"??->?": "out0 = %s" % ("in0 || in1" if "max" in name else "in0 && in1")}, doc)

    # ---- comparison ----
    # int64 against uint64 compares exactly (NumPy's 'qQ->?' and 'Qq->?' loops)
    # instead of going through float64; a negative int64 is below every uint64.
    for name, sym, neg_lhs, neg_rhs in [("equal", "==", "false", "false"), ("not_equal", "!=", "true", "true"),
                                        ("less", "<", "true", "false"), ("less_equal", "<=", "true", "false"),
                                        ("greater", ">", "false", "true"),
                                        ("greater_equal", ">=", "false", "true")]:
        loops = [c + c + "->?" for c in ALL]
        loops.insert(loops.index("LL->?") + 1, "lL->?")
        loops.insert(loops.index("lL->?") + 1, "Ll->?")
        row(name, 2, 1, loops, "out0 = (in0 %s in1)" % sym, "",
            {"lL->?": "out0 = in0 < 0 ? %s : ((uint64_t)in0 %s in1)" % (neg_lhs, sym),
             "Ll->?": "out0 = in1 < 0 ? %s : (in0 %s (uint64_t)in1)" % (neg_rhs, sym)},
            "Return the truth value of (x1 %s x2) element-wise." % sym)

    # ---- logical ----
    for name, op, ident in [("logical_and", "&&", "true"), ("logical_or", "||", "false"),
                            ("logical_xor", "!=", "false")]:
        row(name, 2, 1, [c + c + "->?" for c in ALL],
            "out0 = (kumo_cast<bool>(in0) %s kumo_cast<bool>(in1))" % op, ident, None,
            "Compute the truth value of x1 %s x2 element-wise." % name.split("_")[1].upper())
    row("logical_not", 1, 1, [c + "->?" for c in ALL], "out0 = !kumo_cast<bool>(in0)", "", None,
        "Compute the truth value of NOT x element-wise.")

    # ---- bitwise ----
    for name, sym, ident in [("bitwise_and", "&", "-1"), ("bitwise_or", "|", "0"), ("bitwise_xor", "^", "0")]:
        row(name, 2, 1, same(BOOL + INTS, 2), "out0 = in0 %s in1" % sym, ident,
            {"??->?": "out0 = (bool)((int)in0 %s (int)in1)" % sym},
            "Compute the bit-wise %s of two arrays element-wise." % name.split("_")[1].upper())
    row("invert", 1, 1, same(BOOL + INTS, 1), "out0 = ~in0", "", {"?->?": "out0 = !in0"},
        "Compute bit-wise inversion, or bit-wise NOT, element-wise.")
    row("left_shift", 2, 1, same(INTS, 2), "out0 = kumo::left_shift(in0, in1)", "", None,
        "Shift the bits of an integer to the left.")
    row("right_shift", 2, 1, same(INTS, 2), "out0 = kumo::right_shift(in0, in1)", "", None,
        "Shift the bits of an integer to the right.")
    return r


ROWS = _rows()

# Per-ufunc source placed before the kernel. exp's float loops use the
# prelude's branch-free vexpf; letting GCC treat its comparisons as
# non-trapping turns them into blends so the loop vectorizes (applied to
# these kernels only: GCC 12 miscompiles some complex selects under it).
PREAMBLES = {
    "exp": "#if !defined(__CUDACC_RTC__) && defined(__GNUC__) && !defined(__clang__)\n"
           "#pragma GCC optimize(\"no-trapping-math\")\n#endif\n",
}

# Names NumPy also exports for the same ufunc.
ALIASES = {
    "true_divide": "divide",
    "mod": "remainder",
    "abs": "absolute",
    "conj": "conjugate",
    "bitwise_not": "invert",
    "bitwise_invert": "invert",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
    "pow": "power",
    "acos": "arccos",
    "asin": "arcsin",
    "atan": "arctan",
    "acosh": "arccosh",
    "asinh": "arcsinh",
    "atanh": "arctanh",
    "atan2": "arctan2",
}
