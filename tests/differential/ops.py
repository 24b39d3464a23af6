"""The op table: one row per public operation, as data.

A row names the operation (`path`, resolved on numpy and on kumo alike, or
a method/operator/index form through `target`), the argument tokens that
draw its arguments (calls.TOKENS; a list is a choice of literal values),
the input dtypes and value domain (values.py), and how results compare:
`ulp` (0: bit-exact), `scale` (summation-order tolerance: "sum", "sq",
"prod"), `compare` (an order-free check: "argsort", "partition",
"argpartition", "abs"). `known` lists known kumo defects as (description,
predicate) pairs: calls they cover still run and are counted apart.

To cover a new public function, add a row (see docs/differential.md).
"""
from dataclasses import dataclass, field

from .values import ALL, BOOL, COMPLEX, FLOATS, INEXACT, INTS, NUMERIC, REAL, SIGNED, UNSIGNED

NOFLOAT16 = [d for d in ALL if d != "float16"]


@dataclass
class Op:
    name: str
    path: str = None
    args: tuple = ("A",)
    kwargs: dict = field(default_factory=dict)
    target: str = "np"           # np | method | operator | attr | getitem | setitem | isetitem
    shape: str = "any"
    dtypes: list = field(default_factory=lambda: list(ALL))
    dtypes2: list = None
    domain: str = "full"
    domain2: str = None
    ulp: int = 0
    scale: str = None
    compare: str = "value"
    known: list = field(default_factory=list)
    p_kw: float = 0.5
    required: tuple = ()
    sorted: bool = False
    weight: float = 1.0
    complex_ulp: int = None      # ulp bound when an input is complex (complex * and / are not exact)
    no_broadcast: bool = False   # first array never a read-only broadcast view
    writes_first: bool = False   # in place into the first array: one error source at a time
    signed_zeros: bool = True    # False: -0.0 and 0.0 compare equal (orders that NumPy does not define)

    def __post_init__(self):
        if self.path is None:
            self.path = self.name


# -- predicates for known defects (narrow: a dtype, a keyword, an outcome) ----

def first_dtype(*names):
    return lambda c: c.dtypes and c.dtypes[0] in names


def has_kw(name):
    return lambda c: name in c.call.kwargs and c.call.kwargs[name] is not None


def outcome(*classes):
    return lambda c: c.cls in classes


def both(*preds):
    return lambda c: all(p(c) for p in preds)


UFUNC_KW = {"out": "out", "where": "where_out"}
UFUNC_KW_CAST = dict(UFUNC_KW, casting=["same_kind", "unsafe", "safe", "no", "equiv"], dtype="dtype_acc")

ROWS = []


def add(*rows):
    ROWS.extend(rows)


# -- elementwise ufuncs --------------------------------------------------------

EXACT_UNARY = ["negative", "positive", "absolute", "sign", "floor", "ceil", "trunc", "rint", "fix",
               "signbit", "isnan", "isinf", "isfinite", "logical_not", "conjugate", "conj", "square",
               "reciprocal", "isneginf", "isposinf", "isreal", "iscomplex", "real", "imag", "spacing"]
REAL_ONLY = {"fabs", "signbit", "floor", "ceil", "trunc", "fix", "isneginf", "isposinf", "cbrt", "spacing",
             "deg2rad", "rad2deg", "degrees", "radians", "exp2", "log2", "expm1", "log1p", "arctan", "arcsinh",
             "sinc", "i0"}
for f in EXACT_UNARY + ["fabs"]:
    kw = UFUNC_KW if f not in ("fix", "isneginf", "isposinf", "isreal", "iscomplex", "real", "imag") else {}
    # NumPy's signbit loop for integers leaves out= unwritten: signed and floats only
    dts = FLOATS if f == "signbit" else (REAL if f in REAL_ONLY else ALL)
    add(Op(f, kwargs=dict(kw), dtypes=dts, complex_ulp=4))
add(Op("invert", dtypes=BOOL + INTS, kwargs=dict(UFUNC_KW)),
    Op("bitwise_not", dtypes=BOOL + INTS), Op("bitwise_invert", dtypes=BOOL + INTS),
    Op("bitwise_count", dtypes=BOOL + INTS),
    Op("sqrt", dtypes=BOOL + INTS + FLOATS, kwargs=dict(UFUNC_KW)),
    Op("sqrt_complex", "sqrt", dtypes=COMPLEX, ulp=4),
    Op("nan_to_num", kwargs={"nan": [0.0, 1.5], "posinf": [None, 7.0], "copy": [True, False]}),
    Op("angle", kwargs={"deg": [False, True]}, ulp=4))
TRANSCENDENTAL = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin",
                  "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "cbrt",
                  "deg2rad", "rad2deg", "degrees", "radians", "sinc", "i0"]
for f in TRANSCENDENTAL:
    add(Op(f, kwargs=dict(UFUNC_KW) if f not in ("sinc", "i0") else {}, ulp=4,
           dtypes=[d for d in (REAL if f in REAL_ONLY else ALL) if d not in COMPLEX]),
        Op(f + "_complex", f, ulp=8, dtypes=COMPLEX, domain="small", weight=0.3)
        if f not in REAL_ONLY else None)
ROWS[:] = [r for r in ROWS if r is not None]

EXACT_BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "maximum", "minimum", "fmax", "fmin",
                "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
                "logical_or", "logical_xor", "copysign", "nextafter", "heaviside", "floor_divide",
                "remainder", "mod", "fmod"]
REAL_BINARY = {"copysign", "nextafter", "heaviside", "floor_divide", "remainder", "mod", "fmod", "fmax", "fmin"}
for f in EXACT_BINARY:
    add(Op(f, args=("A", "BS"), kwargs=dict(UFUNC_KW_CAST), p_kw=0.25,
           dtypes=REAL if f in REAL_BINARY else ALL, complex_ulp=4,
           signed_zeros=f not in ("maximum", "minimum", "fmax", "fmin")))
add(Op("multiply_complex", "multiply", args=("A", "BS"), dtypes=COMPLEX, ulp=2, domain="small"),
    Op("divide_complex", "divide", args=("A", "BS"), dtypes=COMPLEX, ulp=4, domain="small"))
for f in ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "gcd", "lcm",
          "bitwise_left_shift", "bitwise_right_shift"]:
    add(Op(f, args=("A", "BS"), kwargs=dict(UFUNC_KW), p_kw=0.25,
           dtypes=(BOOL if "shift" not in f and f not in ("gcd", "lcm") else []) + INTS,
           domain="small" if "shift" in f else "full"))
for f, ulp in [("power", 16), ("float_power", 4), ("arctan2", 4), ("hypot", 2), ("logaddexp", 4),
               ("logaddexp2", 4), ("ldexp", 0)]:
    add(Op(f, args=("A", "BS"), kwargs=dict(UFUNC_KW), p_kw=0.25, ulp=ulp,
           dtypes=REAL if f != "power" else ALL, dtypes2=INTS if f == "ldexp" else None,
           domain="full" if f != "power" else "small"))
add(Op("power_int", "power", args=("A", "BS"), dtypes=INTS, domain="small"),
    Op("divmod", args=("A", "BS"), dtypes=[d for d in REAL if d != "bool"]),
    Op("modf", dtypes=FLOATS), Op("frexp", dtypes=FLOATS),
    Op("clip", args=("A", "lohi", "lohi"), kwargs={"out": "out"}, p_kw=0.2, dtypes=REAL, signed_zeros=False),
    Op("isclose", args=("A", "B"), kwargs={"equal_nan": [True, False], "rtol": [1e-5, 0.1]}, dtypes=NUMERIC),
    Op("allclose", args=("A", "B"), kwargs={"equal_nan": [True, False]}, dtypes=NUMERIC),
    Op("array_equal", args=("A", "B"), kwargs={"equal_nan": [True, False]}, dtypes=NUMERIC),
    Op("where3", "where", args=("A", "B", "B"), dtypes=ALL),
    Op("where1", "where", dtypes=ALL))

# -- operators and augmented assignment (also through views) -------------------

for op in ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and_", "or_", "xor", "lshift",
           "rshift", "lt", "le", "eq", "ne", "gt", "ge"]:
    ints_only = op in ("and_", "or_", "xor", "lshift", "rshift")
    add(Op("op." + op, op, args=("A", "BS"), target="operator", complex_ulp=16 if op == "pow" else 4,
           ulp=4 if op == "pow" else 0,
           dtypes=(BOOL + INTS if op in ("and_", "or_", "xor") else INTS) if ints_only else
           (REAL if op in ("floordiv", "mod") else ALL),
           domain="small" if op in ("pow", "lshift", "rshift") else "full"))
    iop = "i" + op.rstrip("_")
    if op not in ("lt", "le", "eq", "ne", "gt", "ge"):
        add(Op("op." + iop, iop, args=("A", "BS"), target="operator", complex_ulp=16 if op == "pow" else 4,
               ulp=4 if op == "pow" else 0,
               writes_first=True,
               dtypes=(BOOL + INTS if op in ("and_", "or_", "xor") else INTS) if ints_only else
               (REAL if op in ("floordiv", "mod") else ALL),
               domain="small" if op in ("pow", "lshift", "rshift") else "full"))
for op in ["neg", "pos", "abs", "invert"]:
    add(Op("op." + op, op, target="operator", dtypes=BOOL + INTS if op == "invert" else ALL, complex_ulp=2))
add(Op("op.matmul", "matmul", args=("A", "Bmat"), target="operator", shape="nd1", dtypes=NUMERIC, domain="small",
       scale="sq"))

# -- indexing ------------------------------------------------------------------

add(Op("getitem", args=("A", "index"), target="getitem", weight=8),
    Op("setitem", args=("A", "index", "assigned"), target="setitem", domain="small", weight=6),
    Op("isetitem.iadd", "iadd", args=("A", "index", "assigned"), target="isetitem", domain="small", writes_first=True,
       dtypes=NUMERIC, weight=2),
    Op("isetitem.imul", "imul", args=("A", "index", "assigned"), target="isetitem", domain="small", complex_ulp=4,
       dtypes=NUMERIC),
    Op("take", args=("A", "int_idx"), kwargs={"axis": "axis", "mode": ["raise", "wrap", "clip"]}),
    Op("put", args=("A", "flat_idx", "vals"), kwargs={"mode": ["raise", "wrap", "clip"]}, domain="small"),
    Op("take_along_axis", args=("A", "along_idx"), kwargs={"axis": "axis"}, required=("axis",), shape="nd1"),
    Op("put_along_axis", args=("A", "along_idx", "vals"), kwargs={"axis": "axis_int"}, required=("axis",),
       shape="nd1", domain="small"),
    Op("ix_", args=("I1d", "I1d")),
    Op("compress", args=(lambda g: g.spec_of(g.rng.random(3) < 0.5), "A"), kwargs={"axis": "axis"}))

# -- reductions ----------------------------------------------------------------

RED_KW = {"axis": "axes", "keepdims": [True, False], "dtype": "dtype_acc", "out": "out",
          "where": "where_red", "initial": "initial"}


def red(name, drop=(), **kw):
    kwargs = {k: v for k, v in RED_KW.items() if k not in drop}
    kwargs.update(kw.pop("kwargs", {}))
    kw.setdefault("domain", "special")
    kw.setdefault("signed_zeros", name not in ("max", "min", "amax", "amin", "nanmax", "nanmin", "ptp",
                                               "median", "nanmedian"))
    return Op(name, kwargs=kwargs, p_kw=0.35, **kw)


add(red("sum", scale="sum"), red("prod", scale="prod"),
    red("max", drop=("dtype",), dtypes=REAL), red("min", drop=("dtype",), dtypes=REAL),
    red("amax", drop=("dtype",), dtypes=REAL), red("amin", drop=("dtype",), dtypes=REAL),
    red("any", drop=("dtype", "initial")), red("all", drop=("dtype", "initial")),
    red("mean", drop=("initial",), scale="sum"),
    red("std", drop=("initial",), scale="sqrt", kwargs={"ddof": [0, 1, 2]}),
    red("var", drop=("initial",), scale="sq", kwargs={"ddof": [0, 1, 2]}),
    red("nansum", drop=("where", "initial"), scale="sum"), red("nanprod", drop=("where", "initial"), scale="prod"),
    red("nanmax", drop=("dtype", "where", "initial"), dtypes=REAL),
    red("nanmin", drop=("dtype", "where", "initial"), dtypes=REAL),
    red("nanmean", drop=("initial", "where"), dtypes=INEXACT, scale="sum"),
    red("nanvar", drop=("initial", "where"), dtypes=INEXACT, scale="sq"),
    red("ptp", drop=("dtype", "where", "initial"), dtypes=[d for d in REAL if d != "bool"]),
    red("count_nonzero", drop=("dtype", "where", "initial", "out")),
    red("median", drop=("dtype", "where", "initial"), dtypes=REAL, ulp=1),
    red("nanmedian", drop=("dtype", "where", "initial", "out"), dtypes=FLOATS, ulp=1),
    red("average", drop=("dtype", "where", "initial", "out"), dtypes=NUMERIC, scale="sum"),
    Op("argmax", kwargs={"axis": "axis", "keepdims": [True, False], "out": "out"}, dtypes=REAL, domain="special"),
    Op("argmin", kwargs={"axis": "axis", "keepdims": [True, False], "out": "out"}, dtypes=REAL, domain="special"),
    Op("nanargmax", kwargs={"axis": "axis"}, dtypes=FLOATS, domain="special"),
    Op("cumsum", kwargs={"axis": "axis", "dtype": "dtype_acc", "out": "out"}, domain="special", scale="sum"),
    Op("cumprod", kwargs={"axis": "axis", "dtype": "dtype_acc"}, domain="special", scale="prod"),
    Op("nancumsum", kwargs={"axis": "axis"}, domain="special", scale="sum"),
    Op("cumulative_sum", kwargs={"axis": "axis_int", "include_initial": [True, False]}, shape="1d",
       domain="special", scale="sum"),
    Op("diff", kwargs={"n": [0, 1, 2], "axis": "axis_int"}, shape="nd1", dtypes=[d for d in ALL if d != "bool"]),
    Op("ediff1d", dtypes=[d for d in NUMERIC]))
for f in ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or", "bitwise_xor", "subtract"]:
    dts = INTS + BOOL if f == "bitwise_xor" else (REAL if f in ("maximum", "minimum") else ALL)
    add(Op(f + ".reduce", args=("A",), kwargs={"axis": "axes", "dtype": "dtype_acc", "keepdims": [True, False],
                                                "initial": "initial", "out": "out", "where": "where_red"},
           p_kw=0.3, dtypes=dts, domain="special", scale="sum" if f in ("add", "subtract") else
           ("prod" if f == "multiply" else None)),
        Op(f + ".accumulate", args=("A",), kwargs={"axis": "axis_int", "dtype": "dtype_acc", "out": "out"},
           p_kw=0.3, shape="nd1", dtypes=dts, domain="special",
           scale="sum" if f in ("add", "subtract") else ("prod" if f == "multiply" else None)))
add(Op("add.reduceat", args=("A", lambda g: g.spec_of(g.rng.integers(0, max(g.A.shape[0], 1), size=3))),
       kwargs={"axis": [0]}, shape="nd1", domain="small"),
    Op("add.outer", args=("A", "Bany")), Op("multiply.outer", args=("A", "Bany"), dtypes=NUMERIC),
    # NumPy's ufunc.at writes through read-only broadcast views: no broadcast layout.
    Op("add.at", args=("A", "flat1d_idx", "vals"), shape="1d", domain="small", dtypes=NUMERIC, no_broadcast=True),
    Op("maximum.at", args=("A", "flat1d_idx", "vals"), shape="1d", domain="small", dtypes=REAL,
       no_broadcast=True))

# -- manipulation --------------------------------------------------------------

add(Op("reshape", args=("A", "newshape"), kwargs={"order": ["C", "F", "A"]}),
    Op("ndarray.reshape", "reshape", args=("A", "newshape"), target="method"),
    Op("transpose", kwargs={"axes": "perm"}), Op("ndarray.T", "T", target="attr"),
    Op("moveaxis", args=("A", "axis_int", "axis_int"), shape="nd1"),
    Op("swapaxes", args=("A", "axis_int", "axis_int"), shape="nd1"),
    Op("concatenate", args=("arrays",), kwargs={"axis": [0, 1, -1, None, 2], "dtype": "dtype_acc",
                                                 "casting": ["same_kind", "unsafe"]}, p_kw=0.4, weight=2),
    Op("stack", args=("arrays_same",), kwargs={"axis": [0, 1, -1, 2]}),
    Op("vstack", args=("arrays_same",)), Op("hstack", args=("arrays_same",)),
    Op("dstack", args=("arrays_same",)), Op("column_stack", args=("arrays_same",)),
    Op("split", args=("A", "sections"), kwargs={"axis": [0]}, shape="nd1"),
    Op("array_split", args=("A", "sections"), kwargs={"axis": [0]}, shape="nd1"),
    Op("flip", kwargs={"axis": "axes"}), Op("fliplr", shape="nd2"), Op("flipud", shape="nd1"),
    Op("roll", args=("A", "shift"), kwargs={"axis": "axes"}),
    Op("rot90", kwargs={"k": [0, 1, 2, 3, -1, 5], "axes": [(0, 1), (1, 0), (-1, -2)]}, shape="nd2"),
    Op("repeat", args=("A", "repeats"), kwargs={"axis": "axis"}),
    Op("tile", args=("A", "reps")),
    Op("pad", args=("A", "pad_width"), kwargs={"mode": ["constant", "edge", "reflect", "wrap", "symmetric"]},
       shape="nd1"),
    Op("insert", args=("A", "obj", "vals"), kwargs={"axis": "axis"}, domain="small"),
    Op("delete", args=("A", "obj"), kwargs={"axis": "axis"}),
    Op("append", args=("A", "B"), kwargs={"axis": "axis"}),
    Op("squeeze", kwargs={"axis": "axes"}), Op("expand_dims", args=("A", "axis_int")),
    Op("ravel", kwargs={"order": ["C", "F", "A", "K"]}),
    Op("ndarray.flatten", "flatten", target="method", kwargs={"order": ["C", "F"]}),
    Op("ndarray.copy", "copy", target="method", kwargs={"order": ["C", "F", "K"]}),
    Op("ndarray.astype", "astype", args=("A", "dtype_any"), target="method", domain="small"),
    Op("ndarray.tolist", "tolist", target="method", domain="small"),
    Op("ndarray.fill", "fill", args=("A", "S"), target="method", domain="small"),
    Op("broadcast_to", args=("A", lambda g: (2,) + g.A.shape)),
    Op("atleast_2d"), Op("atleast_3d"),
    Op("trim_zeros", shape="1d", domain="small"),
    Op("resize", args=("A", lambda g: int(g.rng.integers(0, 9)))),
    Op("diagonal", kwargs={"offset": "diag_off", "axis1": [0, 1], "axis2": [1, -1]}, shape="nd2"),
    Op("trace", kwargs={"offset": "diag_off"}, shape="nd2", scale="sum", domain="special"),
    Op("tril", kwargs={"k": "diag_off"}, shape="nd2"), Op("triu", kwargs={"k": "diag_off"}, shape="nd2"),
    Op("fill_diagonal", args=("A", "fill_val"), kwargs={"wrap": [True, False]}, shape="2d", domain="small"),
    Op("diag", kwargs={"k": "diag_off"}, shape="1d"))

# -- sorting, searching, sets --------------------------------------------------

add(Op("sort", kwargs={"axis": "axis"}, dtypes=REAL, domain="special", weight=2, signed_zeros=False),
    Op("sort_complex_stable", "sort", kwargs={"axis": "axis", "kind": ["stable"]}, dtypes=COMPLEX, domain="small"),
    Op("argsort", kwargs={"axis": "axis", "kind": ["stable", None]}, dtypes=REAL, domain="special",
       compare="argsort"),
    Op("partition", args=("A", "kth"), kwargs={"axis": "axis_int"}, dtypes=REAL, domain="small",
       compare="partition", shape="nd1"),
    Op("argpartition", args=("A", "kth"), kwargs={"axis": "axis_int"}, dtypes=REAL, domain="small",
       compare="argpartition", shape="nd1"),
    Op("searchsorted", args=("A", "V"), kwargs={"side": ["left", "right"]}, shape="1d", sorted=True,
       dtypes=REAL, domain="small"),
    Op("nonzero"), Op("flatnonzero"), Op("argwhere"), Op("count_nonzero_all", "count_nonzero"),
    Op("unique", signed_zeros=False, kwargs={"return_index": [True, False], "return_inverse": [True, False],
                         "return_counts": [True, False]}, dtypes=REAL, domain="special", weight=2),
    Op("unique_values", signed_zeros=False, dtypes=REAL, domain="special", compare="sorted"),
    Op("unique_counts", signed_zeros=False, dtypes=REAL, domain="special"),
    Op("unique_inverse", signed_zeros=False, dtypes=REAL, domain="special", compare="unique_nan"),
    Op("unique_all", signed_zeros=False, dtypes=REAL, domain="special", compare="unique_nan"),
    Op("intersect1d", signed_zeros=False, args=("A", "Bany"), dtypes=REAL, domain="special"),
    Op("union1d", signed_zeros=False, args=("A", "Bany"), dtypes=REAL, domain="special"),
    Op("setdiff1d", signed_zeros=False, args=("A", "Bany"), dtypes=REAL, domain="special"),
    Op("setxor1d", signed_zeros=False, args=("A", "Bany"), dtypes=REAL, domain="special"),
    Op("isin", args=("A", "Bany"), kwargs={"invert": [True, False]}, dtypes=REAL, domain="special"),
    Op("lexsort", args=(lambda g: g.array((2, int(g.rng.integers(0, 6))), g.dtype(), "small"),),
       dtypes=REAL, compare="value"))

# -- statistics ----------------------------------------------------------------

add(Op("percentile", args=("A", "q"), kwargs={"axis": "axis", "keepdims": [True, False],
                                               "method": ["linear", "lower", "higher", "nearest", "midpoint"]},
       dtypes=[d for d in REAL if d != "bool"], domain="small", ulp=4),
    Op("quantile", args=("A", "q01"), kwargs={"axis": "axis", "method": ["linear", "lower", "nearest"]},
       dtypes=[d for d in REAL if d != "bool"], domain="small", ulp=4),
    Op("histogram", kwargs={"bins": "bins"}, dtypes=[d for d in REAL if d not in ("bool", "float16")],
       domain="small", ulp=2),
    Op("bincount", args=("bcount",), kwargs={"minlength": [0, 3, 9]}, dtypes=INTS + BOOL),
    Op("cov", kwargs={"rowvar": [True, False], "ddof": [None, 0, 1], "bias": [True, False]}, shape="2d",
       dtypes=[d for d in NUMERIC if d != "float16"], domain="small", scale="sq"),
    Op("corrcoef", shape="2d", dtypes=["float64", "float32", "int64"], domain="small", ulp=8, scale="sum"),
    Op("round", kwargs={"decimals": [-1, 0, 1, 2, 3]}, ulp=1),
    Op("around", kwargs={"decimals": [-1, 0, 1, 2]}, ulp=1),
    Op("ndarray.round", "round", target="method", kwargs={"decimals": [0, 1, -1]}, ulp=1))

# -- products and linear algebra -------------------------------------------------

add(Op("outer", args=("A", "Bany"), dtypes=NUMERIC, domain="small"),
    # sums of products: the order (BLAS) may differ, and with it the sign of a zero
    Op("dot", args=("A", "Bmat"), dtypes=NUMERIC, domain="small", scale="sq"),
    Op("matmul", args=("A", "Bmat"), shape="nd1", dtypes=NUMERIC, domain="small", scale="sq"),
    Op("vdot", args=("A", "Bsame"), dtypes=NUMERIC, domain="small", scale="sq"),
    Op("inner", args=("A", lambda g: g.array(g.A.shape[-1:], g.dtype(2))), dtypes=NUMERIC, domain="small",
       scale="sq"),
    Op("tensordot", args=("A", "Btd"), dtypes=NUMERIC, domain="small", scale="sq"),
    Op("kron", args=("A", "Bany"), dtypes=NUMERIC, domain="small"),
    Op("linalg.norm", kwargs={"ord": "norm_ord", "axis": [None]}, p_kw=0.6, shape="nd1",
       dtypes=["float64", "float32", "complex128", "int64"], domain="small", ulp=8, scale="sum"),
    Op("linalg.det", shape="sqstack", dtypes=["float64", "float32", "complex128"], domain="small",
       ulp=64, scale="sq"),
    Op("linalg.inv", shape="spd", dtypes=["float64", "complex128"], ulp=64, scale="sum"),
    Op("linalg.solve", args=("A", "rhs"), shape="spd", dtypes=["float64", "float32"], ulp=256, scale="sum"),
    Op("linalg.cholesky", shape="spd", dtypes=["float64", "complex128"], ulp=16, scale="sum"),
    Op("linalg.eigvalsh", shape="sym", dtypes=["float64"], ulp=64, scale="sum"),
    Op("linalg.svd", kwargs={"compute_uv": [False]}, required=("compute_uv",), shape="2d",
       dtypes=["float64", "float32"], domain="small", ulp=64, scale="sum"),
    Op("linalg.qr", shape="spd", dtypes=["float64"], domain="small", ulp=64, scale="sum", compare="abs"),
    Op("linalg.matrix_rank", shape="2d", dtypes=["float64"], domain="small"))
ROWS[:] = [r for r in ROWS if r is not None]
add(Op("einsum", args=("subscripts", "first", "second"), dtypes=NUMERIC, domain="small", scale="sq"))

# -- FFT ------------------------------------------------------------------------

FFT_KW = {"n": "fft_n", "axis": "axis_int", "norm": [None, "ortho", "forward", "backward"]}
for f in ["fft", "ifft", "rfft", "irfft", "hfft"]:
    add(Op("fft." + f, kwargs=dict(FFT_KW), shape="fft", domain="small", ulp=16, scale="sum",
           dtypes=["float64", "float32", "complex128", "complex64", "int64"] if f != "rfft" else
           ["float64", "float32", "int64"]))
add(Op("fft.fftn", kwargs={"axes": [None, (0,), (-1,), (0, -1)], "norm": [None, "ortho"]}, shape="fft",
       domain="small", ulp=16, scale="sum", dtypes=["float64", "complex128"]),
    Op("fft.fftshift", shape="fft"), Op("fft.ifftshift", shape="fft"))

# -- ndarray methods --------------------------------------------------------------

add(Op("ndarray.sum", "sum", target="method", kwargs={"axis": "axis", "keepdims": [True, False]},
       domain="special", scale="sum"),
    Op("ndarray.any", "any", target="method", kwargs={"axis": "axis", "out": "out"}),
    Op("ndarray.all", "all", target="method", kwargs={"axis": "axis", "out": "out"}),
    Op("ndarray.cumsum", "cumsum", target="method", kwargs={"axis": "axis"}, domain="special", scale="sum"),
    Op("ndarray.conj", "conj", target="method"),
    Op("ndarray.nonzero", "nonzero", target="method"),
    Op("ndarray.item", "item", target="method", shape="any"),
    Op("ndarray.clip", "clip", args=("A", "lohi", "lohi"), target="method", dtypes=REAL, signed_zeros=False),
    Op("ndarray.std", "std", target="method", kwargs={"dtype": "dtype_acc", "ddof": [0, 1]}, domain="small",
       scale="sqrt", dtypes=NUMERIC))

BY_NAME = {r.name: r for r in ROWS}
assert len(BY_NAME) == len(ROWS), "row names must be unique"


def select(pattern=None):
    """The rows whose name matches `pattern` (fnmatch, comma-separated)."""
    import fnmatch
    if not pattern:
        return list(ROWS)
    pats = pattern.split(",")
    return [r for r in ROWS if any(fnmatch.fnmatchcase(r.name, p) for p in pats)]


def _fits(v, dtype):
    import numpy
    dt = numpy.dtype(dtype)
    if dt.kind not in "iu":
        return True
    info = numpy.iinfo(dt)
    return info.min <= v <= info.max


def _missing_warnings(*names):
    def pred(c):
        return c.cls == "wrong_warning" and set(c.k.warns) < set(c.n.warns) \
            and set(c.n.warns) - set(c.k.warns) <= set(names)
    return pred


def np_raised(cls, *texts):
    """NumPy raised `cls` (a name) with one of `texts` in its message."""
    return lambda c: c.n is not None and c.n.exc is not None and type(c.n.exc).__name__ == cls \
        and any(t in str(c.n.exc) for t in texts)


def k_raised(cls, *texts):
    return lambda c: c.k is not None and c.k.exc is not None and type(c.k.exc).__name__ == cls \
        and any(t in str(c.k.exc) for t in texts)


def is_op(*names):
    return lambda c: c.call.row.name in names


def any_of(*preds):
    return lambda c: any(p(c) for p in preds)


REDUCTIONS = ("sum", "prod", "max", "min", "amax", "amin", "any", "all", "mean", "std", "var", "nansum",
              "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "ptp", "median", "argmax", "argmin",
              "cumsum", "cumprod", "ndarray.any", "ndarray.all") + tuple(
              f + m for f in ("add", "multiply", "maximum", "minimum", "logical_and", "logical_or",
                              "bitwise_xor", "subtract") for m in (".reduce", ".accumulate"))

# Defects of the whole library (or of a family of rows) rather than of one row;
# each predicate is as narrow as the defect (an outcome class plus NumPy's or
# kumo's error message).
GLOBAL_KNOWN = [
    ("comparisons and logical ufuncs with a Python int outside the array's dtype: kumo raises (OverflowError, "
     "no loop) or picks another loop where NumPy compares the values",
     both(is_op("less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "logical_and",
                "logical_or", "logical_xor", "op.lt", "op.le", "op.gt", "op.ge", "op.eq", "op.ne"),
          outcome("raised_not_numpy", "wrong_exception", "wrong_value"),
          lambda c: any(type(a) is int and not _fits(a, c.dtypes[0]) for a in c.call.args))),
    ("floating-point/complex warnings differ in corner cases (~0.5% of calls): casts inside a call "
     "(ComplexWarning for complex dtype=/out= with casting='unsafe', 'overflow encountered in cast'), "
     "NumPy's Python-level implementations (i0, var/mean of complex), loops whose CPU flags differ from NumPy's",
     outcome("wrong_warning")),
    ("ufunc out= of a dtype the casting rule forbids is accepted (NumPy: UFuncTypeError 'Cannot cast ufunc ... output')",
     both(outcome("returned_not_raised", "wrong_exception"), np_raised("UFuncTypeError", "output from dtype"))),
    ("casting= is not enforced on ufunc inputs ('no', 'equiv', 'safe')",
     both(outcome("returned_not_raised", "wrong_exception"),
          any_of(np_raised("UFuncTypeError", "input 0 from", "input 1 from"), np_raised("TypeError", "cannot cast Python")))),
    ("NumPy 2.4's float32 signbit writes wrong values into a strided bool out= (its result differs from its own "
     "signbit with a contiguous out, which kumo's matches)",
     both(is_op("signbit"), has_kw("out"), outcome("wrong_value"), lambda c: "float32" in map(str, c.dtypes))),
    ("NumPy's divergence, not kumo's defect: a complex value out of uint32's range cast to uint32 (undefined in "
     "C) wraps through int64 in NumPy's complex cast but is 0 in its float64 cast (4294967304.25 gives 8 and 0); "
     "kumo gives the float64 cast's result for both",
     both(outcome("wrong_value"), lambda c: any(d.startswith("complex") for d in c.dtypes),
          lambda c: str(getattr(c.n.result, "dtype", "")) == "uint32")),
    ("NumPy's float16/float32 logaddexp/logaddexp2 lose the bits the sum cancels near a zero result (up to 1400 "
     "ulp at log2(2**-0.5 + 2**-1.75)); kumo's, computed in double, are correctly rounded there",
     both(is_op("logaddexp", "logaddexp2"), outcome("wrong_value"),
          lambda c: any(d in ("float16", "float32") for d in map(str, c.dtypes)))),
    ("error precedence: with a read-only destination, or an out-of-bounds index/axis, kumo first reports another error",
     both(outcome("wrong_exception"), any_of(
         np_raised("ValueError", "read-only"),
         both(any_of(np_raised("IndexError", "out of bounds"), np_raised("AxisError", "out of bounds"),
                     np_raised("IndexError", "boolean index did not match")),
              any_of(k_raised("TypeError", "complex", "Cannot cast"), k_raised("UFuncTypeError", "Cannot cast"),
                     k_raised("OverflowError", "out of bounds")))))),
]


def _equal_but_zero_signs(n, k):
    """The two results are equal when -0.0 and 0.0 count as one value (NaNs equal)."""
    import numpy
    n, k = numpy.asarray(n), numpy.asarray(k)
    return n.shape == k.shape and n.dtype == k.dtype and bool(numpy.array_equal(n, k, equal_nan=True))


def kw_lt(name, v):
    return lambda c: isinstance(c.call.kwargs.get(name), int) and c.call.kwargs[name] < v


# Known defects of single rows: row name -> [(description, predicate)].
ROW_KNOWN = {
    ("add.at", "maximum.at"): [
        ("ufunc.at does not check that the values broadcast to the indexed shape",
         both(outcome("returned_not_raised"), np_raised("ValueError", "broadcastable")))],
    ("round", "around", "ndarray.round"): [
        ("round with negative decimals on integers: unsigned values wrap (round(uint8 3, -1) -> 250), extremes differ",
         both(first_dtype(*INTS), kw_lt("decimals", 0), outcome("wrong_value")))],
    "append": [("append with an out-of-range axis raises ValueError (dimensions), not AxisError",
                both(outcome("wrong_exception"), np_raised("AxisError", "out of bounds")))],
    "nextafter": [("nextafter of integer inputs into an integer out= (casting='unsafe') gives another value",
                   both(has_kw("out"), outcome("wrong_value")))],
    ("op.pow", "power", "float_power"): [("complex power: beyond the ulp bound for some inputs",
                                          both(lambda c: any(d.startswith("complex") for d in c.dtypes) or
                                               any(type(a) is complex for a in c.call.args),
                                               outcome("wrong_value")))],
    "median": [("NumPy's divergence, not kumo's defect: NumPy 2.4's median over several axes of an array with an "
                "empty axis fails inside its own reshape ('cannot reshape array of size 0 into shape (0,newaxis)'); "
                "kumo returns the empty result",
                both(outcome("returned_not_raised"), np_raised("ValueError", "cannot reshape array of size 0")))],
    "signbit": [("signbit with where= and out= on strided views writes wrong values (not reduced further yet)",
                 both(has_kw("where"), outcome("wrong_value")))],
    ("isnan", "isinf", "isfinite"): [
        ("NumPy 2.4's own bug, not kumo's: isnan/isinf(x, out=o) into a strided bool o can differ from "
         "isnan/isinf(x) (kumo's result is that of the call without out=)", both(has_kw("out"), outcome("wrong_value")))],
    ("multiply", "multiply.outer", "op.mul", "op.imul"): [
        ("NumPy's divergence, not kumo's defect: NumPy's SIMD complex multiply fuses a*d + b*c (FMA), so a "
         "product that underflows to zero keeps its sign (-0.0); kumo rounds each product, giving +0.0 as "
         "IEEE's unfused formula does. Only the sign of a zero differs",
         both(outcome("wrong_value"), lambda c: any(d.startswith("complex") for d in c.dtypes),
              lambda c: _equal_but_zero_signs(c.n.result, c.k.result)))],
    "put_along_axis": [("NumPy's divergence, not kumo's defect: with repeated indices, which write is kept follows "
                        "NumPy's iteration order (the memory order of reversed views); NumPy documents only that one "
                        "of the values is kept, kumo keeps the last in C order", outcome("wrong_mutation"))],
    "subtract.reduce": [("subtract.reduce on bool over several axes: kumo reports the axes, NumPy the bool subtract",
                         both(outcome("wrong_exception"), np_raised("TypeError", "boolean subtract")))],
}
for _names, _known in ROW_KNOWN.items():
    for _name in (_names if isinstance(_names, tuple) else (_names,)):
        BY_NAME[_name].known.extend(_known)
