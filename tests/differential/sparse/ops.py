"""The op table of kumo.sparse against scipy.sparse: one row per operation, as data.

A row names the operation (`path`: a function of scipy.sparse / kumo.sparse,
"linalg.norm", a method or attribute of the first argument, an `operator`
function, getitem/setitem, "ctor" for the constructed object itself, or
"fn" with a function of (lib, *args)), its argument tokens (calls.TOKENS;
a list is a choice of literals, a callable draws a value from the
generator state), the first operand's formats, flavours (`kinds`), shape
kind, dtypes and value domain, and the comparison: `ulp`, `complex_ulp`,
`scale` (as the NumPy table), `nnz` (compare nnz too, where SciPy defines
it), `inplace` (compare the first operand after the call), `compare`
("value", or "random": shape, dtype, format, nnz only).

Known kumo defects are (description, predicate) pairs on a row (`known`)
or table-wide (GLOBAL_KNOWN); SCIPY_DIVERGES lists the calls where SciPy
itself misbehaves or kumo documents a deliberate difference (docs/sparse.md):
those are counted apart and never fail.
"""
import math
from dataclasses import dataclass, field

import numpy

from ..values import BOOL, COMPLEX, INTS

SPARSE_DTYPES = BOOL + INTS + ["float32", "float64"] + COMPLEX
NUMERIC = INTS + ["float32", "float64"] + COMPLEX
INEXACT = ["float32", "float64"] + COMPLEX
REALNUM = INTS + ["float32", "float64"]
ALL_FORMATS = ["csr", "csc", "coo", "dia", "bsr"]
KINDS = ["array", "matrix"]


@dataclass
class Op:
    name: str
    path: object = None
    args: tuple = ("S",)
    kwargs: dict = field(default_factory=dict)
    target: str = "method"        # sp | method | attr | operator | getitem | setitem | ctor | fn
    shape: str = "any"            # any (2-d, or 1-d for coo/csr arrays) | 2d | square | 1d | spd
    formats: list = field(default_factory=lambda: list(ALL_FORMATS))
    kinds: list = field(default_factory=lambda: list(KINDS))
    dtypes: list = field(default_factory=lambda: list(SPARSE_DTYPES))
    dtypes2: list = None
    domain: str = "small"
    domain2: str = None
    ulp: int = 0
    complex_ulp: int = None
    scale: str = None
    signed_zeros: bool = False    # an implicit zero has no sign: -0.0 and 0.0 compare equal
    compare: str = "value"
    nnz: bool = False
    inplace: bool = False
    post: tuple = ()              # attributes of the first operand compared after the call
    known: list = field(default_factory=list)
    p_kw: float = 0.5
    required: tuple = ()
    weight: float = 1.0
    fix: object = None            # fix(g, call): adjust a drawn call (arguments that depend on others)
    src: str = None               # target "fn": the reproducer's text, "{lib}.f({0}, x={1}{kw})"

    def __post_init__(self):
        if self.path is None:
            self.path = self.name


# -- predicates -------------------------------------------------------------------

def outcome(*classes):
    return lambda c: c.cls in classes


def both(*preds):
    return lambda c: all(p(c) for p in preds)


def first_fmt(*fmts):
    return lambda c: c.first is not None and c.first.fmt in fmts


def first_dtype(*names):
    return lambda c: c.dtypes and c.dtypes[0] in names


def detail(text):
    return lambda c: text in (c.detail or "")


def scipy_exc(name, text=""):
    return lambda c: c.n is not None and c.n.exc is not None and type(c.n.exc).__name__ == name \
        and text in str(c.n.exc)


ROWS = []


def add(*rows):
    ROWS.extend(rows)


AXIS = {"axis": "axis"}

# -- constructors and conversions -------------------------------------------------

add(Op("ctor", target="ctor", weight=6, nnz=True),
    Op("ctor_float16", target="ctor", dtypes=["float16"], weight=0.3),
    Op("tocsr", kwargs={"copy": [True, False]}, nnz=False, weight=2),
    Op("tocsc", kwargs={"copy": [True, False]}, weight=2),
    Op("tocoo", kwargs={"copy": [True, False]}, weight=2),
    Op("todia", kwargs={"copy": [True, False]}),
    Op("tobsr", kwargs={"blocksize": [(1, 1), (2, 2), (1, 2), (2, 1), (3, 3)], "copy": [True, False]}, weight=1.5),
    Op("toarray", kwargs={"order": "order"}, weight=2),
    Op("todense", kwargs={"order": "order"}),
    Op("asformat", args=("S", "fmt")),
    Op("astype", args=("S", "dtype"), kwargs={"copy": [True, False]}),
    Op("copy"),
    Op("format", target="attr", weight=0.3),
    Op("shape", target="attr", weight=0.3),
    Op("ndim", target="attr", weight=0.3),
    Op("dtype_attr", path="dtype", target="attr", weight=0.3),
    Op("nnz", target="attr", weight=0.5),
    Op("has_sorted_indices", target="attr", formats=["csr", "csc", "bsr"], weight=0.5),
    Op("has_canonical_format", target="attr", formats=["csr", "csc", "coo", "bsr"], weight=0.5),
    Op("issparse", target="sp", args=("SD",)),
    Op("isspmatrix", target="sp", args=("SD",)),
    )

# -- arithmetic ---------------------------------------------------------------------

add(Op("add", target="operator", args=("S", "SDs"), weight=3, complex_ulp=1),
    Op("radd", path="add", target="operator", args=("D", "S")),
    Op("sub", target="operator", args=("S", "SDs"), weight=2, dtypes=NUMERIC),
    Op("rsub", path="sub", target="operator", args=("D", "S"), dtypes=NUMERIC),
    Op("mul", target="operator", args=("S", "SDs"), weight=3, complex_ulp=2, scale="sum"),
    Op("rmul", path="mul", target="operator", args=("scalar", "S"), complex_ulp=2),
    Op("rmul_dense", path="mul", target="operator", args=("D", "S"), complex_ulp=2, scale="sum"),
    Op("truediv", target="operator", args=("S", "scalar"), domain2="nonzero", ulp=1, complex_ulp=3),
    Op("truediv_any", path="truediv", target="operator", args=("S", "SDs"), ulp=1, complex_ulp=3, weight=0.5),
    Op("matmul_dense", path="matmul", target="operator", args=("S", "X"), weight=3, ulp=1, complex_ulp=2,
       scale="sum"),
    Op("rmatmul_dense", path="matmul", target="operator", args=("XL", "S"), weight=2, ulp=1, complex_ulp=2,
       scale="sum"),
    Op("matmul_sparse", path="matmul", target="operator", args=("S", "SX"), weight=3, ulp=1, complex_ulp=2,
       scale="sum"),
    Op("matmul_scalar", path="matmul", target="operator", args=("S", "scalar"), weight=0.3),
    Op("dot", args=("S", lambda g: _pick_product(g)), ulp=1, complex_ulp=2, scale="sum"),
    Op("neg", target="operator", weight=0.7),
    Op("pos", target="operator", weight=0.3),
    Op("abs", target="operator", weight=0.7, complex_ulp=1),
    Op("pow", target="operator", args=("S", "pow"), kinds=["array"], dtypes=NUMERIC, ulp=2, complex_ulp=4),
    Op("matrix_pow", path="pow", target="operator", args=("S", [0, 1, 2, 3, -1, 1.5]), kinds=["matrix"],
       shape="square", dtypes=NUMERIC, ulp=1, complex_ulp=2, scale="sum"),
    Op("multiply", args=("S", "SDs"), weight=3, complex_ulp=2),
    Op("power", args=("S", "pow"), kwargs={"dtype": "dtype"}, p_kw=0.2, dtypes=NUMERIC, ulp=2, complex_ulp=4),
    Op("maximum", args=("S", "SDs"), weight=1.5, dtypes=REALNUM + BOOL),
    Op("minimum", args=("S", "SDs"), weight=1.5, dtypes=REALNUM + BOOL),
    )


def _pick_product(g):
    from . import calls
    r = g.rng.random()
    return calls.tok_X(g) if r < 0.45 else calls.tok_SX(g) if r < 0.85 else calls.tok_scalar(g)


for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    add(Op(_op, target="operator", args=("S", "SDs"), dtypes=REALNUM + BOOL if _op not in ("eq", "ne") else SPARSE_DTYPES,
           domain="special" if _op in ("ne", "lt") else "small"))

# -- reductions and other methods ----------------------------------------------------

add(Op("sum", kwargs=dict(AXIS, dtype=[None, "float64", "int64", "complex128", "int32"]), weight=2, scale="sum",
       ulp=1, complex_ulp=2),
    Op("sum_special", path="sum", kwargs=AXIS, dtypes=INEXACT, domain="special", scale="sum", ulp=1),
    Op("mean", kwargs=dict(AXIS, dtype=[None, "float64", "float32"]), weight=1.5, scale="sum", ulp=2, complex_ulp=3),
    Op("max", kwargs=dict(AXIS, explicit=[True, False]), dtypes=REALNUM + BOOL, weight=1.5),
    Op("min", kwargs=dict(AXIS, explicit=[True, False]), dtypes=REALNUM + BOOL, weight=1.5),
    Op("max_special", path="max", kwargs=AXIS, dtypes=["float32", "float64"], domain="special"),
    Op("nanmax", kwargs=AXIS, dtypes=["float32", "float64"], domain="special"),
    Op("nanmin", kwargs=AXIS, dtypes=["float32", "float64"], domain="special"),
    Op("argmax", kwargs=dict(AXIS, explicit=[True, False]), dtypes=REALNUM + BOOL, weight=1.5),
    Op("argmin", kwargs=dict(AXIS, explicit=[True, False]), dtypes=REALNUM + BOOL, weight=1.5),
    Op("argmax_special", path="argmax", kwargs=AXIS, dtypes=["float64"], domain="special"),
    Op("count_nonzero", kwargs={"axis": "axis"}, p_kw=0.3),
    Op("getnnz", kwargs={"axis": "axis"}, kinds=["matrix"], p_kw=0.6),
    Op("nonzero", compare="pairs"),
    Op("transpose"),
    Op("T", target="attr", weight=0.5),
    Op("conj"),
    Op("conjugate", dtypes=COMPLEX + ["float64", "int32"]),
    Op("diagonal", kwargs={"k": "k"}, p_kw=0.6),
    Op("trace", kwargs={"offset": "k"}, p_kw=0.6, scale="sum"),
    Op("setdiag", args=("S", "diagvals"), kwargs={"k": "k"}, inplace=True, weight=1.5),
    Op("eliminate_zeros", inplace=True, post=("nnz",), formats=["csr", "csc", "coo", "bsr"]),
    Op("sum_duplicates", inplace=True, post=("nnz", "has_canonical_format"), formats=["csr", "csc", "coo", "bsr"]),
    Op("sort_indices", inplace=True, post=("has_sorted_indices",), formats=["csr", "csc", "bsr"]),
    Op("sorted_indices", formats=["csr", "csc", "bsr"]),
    Op("prune", inplace=True, formats=["csr", "csc", "bsr"]),
    Op("reshape", args=("S", lambda g: _reshape_target(g)), weight=1),
    Op("resize", args=("S", lambda g: _reshape_target(g)), inplace=True, formats=["csr", "csc", "coo"], weight=0.7),
    Op("getrow", args=("S", lambda g: int(g.rng.integers(-g.shape[0] - 1, g.shape[0] + 1))), kinds=["matrix"],
       formats=["csr", "csc", "coo"]),
    Op("getcol", args=("S", lambda g: int(g.rng.integers(-g.shape[-1] - 1, g.shape[-1] + 1))), kinds=["matrix"],
       formats=["csr", "csc", "coo"]),
    Op("getH", kinds=["matrix"], dtypes=COMPLEX + ["float64"]),
    Op("round", path="__round__", args=("S", [0, 1]), dtypes=["float32", "float64"]),
    )

for _u in ("sin", "tan", "arcsin", "arcsinh", "arctan", "arctanh", "tanh", "sinh", "sqrt", "expm1", "log1p"):
    add(Op(_u, dtypes=["float32", "float64", "int32", "bool", "complex128"], domain="unit", ulp=4, complex_ulp=8,
           weight=0.3))
for _u in ("deg2rad", "rad2deg", "sign", "floor", "ceil", "trunc", "rint"):
    add(Op(_u, dtypes=["float32", "float64", "int16", "int64", "uint8", "bool"], domain="special", ulp=1, weight=0.3))


def _reshape_target(g):
    size = int(numpy.prod(g.shape))
    opts = [g.shape, g.shape[::-1], (size,), (1, size), (size, 1), (-1,)]
    divs = [d for d in range(2, size) if size % d == 0]
    if divs:
        d = g.pick(divs)
        opts += [(d, size // d), (-1, d)]
    if g.rng.random() < 0.1:
        opts.append((size + 1, 1))
    return g.pick(opts)


# -- indexing ---------------------------------------------------------------------------

add(Op("getitem", target="getitem", args=("S", "key"), formats=["csr", "csc", "coo"], weight=8),
    Op("getitem_other", path="getitem", target="getitem", args=("S", "key"), formats=["dia", "bsr"], weight=0.5),
    Op("setitem", target="setitem", args=("S", "key", "setvalue"), formats=["csr", "csc"], inplace=True, weight=6,
       dtypes2=["float64", "int64", "bool", "int32", "complex128"]),
    )

# -- construction functions ---------------------------------------------------------------

add(Op("kron", target="sp", args=("S", "Sany"), kwargs={"format": "fmt"}, shape="2d", complex_ulp=2),
    Op("kronsum", target="sp", args=(lambda g: _square_S(g), "Ssq"), kwargs={"format": "fmt"}, shape="square"),
    Op("hstack", target="sp", args=("blocks_row",), kwargs={"format": "fmt", "dtype": "dtype"}, shape="2d",
       p_kw=0.3, weight=1.5),
    Op("vstack", target="sp", args=("blocks_col",), kwargs={"format": "fmt", "dtype": "dtype"}, shape="2d",
       p_kw=0.3, weight=1.5),
    Op("bmat", target="sp", args=("grid",), kwargs={"format": "fmt", "dtype": "dtype"}, shape="2d", p_kw=0.3),
    Op("block_array", target="sp", args=("grid",), kwargs={"format": "fmt", "dtype": "dtype"}, shape="2d", p_kw=0.3),
    Op("block_diag", target="sp", args=("mats",), kwargs={"format": "fmt", "dtype": "dtype"}, shape="2d", p_kw=0.3),
    Op("tril", target="sp", args=("S",), kwargs={"k": "k", "format": "fmt"}),
    Op("triu", target="sp", args=("S",), kwargs={"k": "k", "format": "fmt"}),
    Op("find", target="sp", args=("S",), shape="2d", compare="pairs"),
    Op("eye", target="sp", args=(lambda g: int(g.rng.integers(0, 6)),),
       kwargs={"n": lambda g: int(g.rng.integers(0, 6)), "k": "k", "dtype": "dtype", "format": "fmt"}),
    Op("eye_array", target="sp", args=(lambda g: int(g.rng.integers(0, 6)),),
       kwargs={"n": lambda g: int(g.rng.integers(0, 6)), "k": "k", "dtype": "dtype", "format": "fmt"}),
    Op("identity", target="sp", args=(lambda g: int(g.rng.integers(0, 6)),),
       kwargs={"dtype": "dtype", "format": "fmt"}),
    Op("diags", target="sp", args=("diagonals",), kwargs={"shape": lambda g: g.diag_shape, "format": "fmt",
       "dtype": "dtype"}, required=("shape",), dtypes=NUMERIC,
       fix=lambda g, c: c.args.__setitem__(slice(0, 1), list(c.args[0]))),
    Op("diags_array", target="fn", path=lambda L, d, o, **kw: L.sp.diags_array(d, offsets=o, **kw),
       args=("diagonals",), kwargs={"shape": lambda g: g.diag_shape, "format": "fmt", "dtype": "dtype"},
       required=("shape",), dtypes=NUMERIC, fix=lambda g, c: c.args.__setitem__(slice(0, 1), list(c.args[0])),
       src="{lib}.diags_array({0}, offsets={1}{kw})"),
    Op("random", target="sp", args=(lambda g: int(g.rng.integers(0, 7)), lambda g: int(g.rng.integers(0, 7))),
       kwargs={"density": [0.0, 0.1, 0.5, 1.0], "format": ["csr", "coo", "csc", "dia", "bsr"],
               "dtype": ["float64", "float32", "int64", "complex128", "bool", "uint8"],
               "rng": lambda g: int(g.rng.integers(100))}, required=("rng",), compare="random"),
    Op("random_array", target="fn", path=lambda L, m, n, **kw: L.sp.random_array((m, n), **kw),
       args=(lambda g: int(g.rng.integers(0, 7)), lambda g: int(g.rng.integers(0, 7))),
       kwargs={"density": [0.0, 0.1, 0.5, 1.0], "format": ["csr", "coo", "csc", "dia", "bsr"],
               "dtype": ["float64", "float32", "int64", "complex128", "bool"],
               "rng": lambda g: int(g.rng.integers(100))}, required=("rng",), compare="random",
       src="{lib}.random_array(({0}, {1}){kw})"),
    )


def _square_S(g):
    from . import calls
    return calls.tok_S(g)


# -- sparse.linalg -------------------------------------------------------------------------

add(Op("norm", target="sp", path="linalg.norm", args=("S",),
       kwargs={"ord": [None, "fro", 1, -1, math.inf, -math.inf]}, shape="2d", dtypes=NUMERIC, ulp=2, scale="sum",
       weight=1.5),
    Op("norm_axis", target="sp", path="linalg.norm", args=("S",),
       kwargs={"ord": [None, 1, 2, 3, 0, -1, math.inf, -math.inf], "axis": [0, 1, -1, (0, 1)]},
       required=("axis",), shape="2d", dtypes=NUMERIC, ulp=4, scale="sqrt"),
    Op("onenormest", target="sp", path="linalg.onenormest", args=("S",), kwargs={"t": [2, 3, 5]},
       required=("t",), shape="square", dtypes=INEXACT, ulp=2, scale="sum",
       fix=lambda g, c: c.kwargs.update(t=max(c.kwargs["t"], g.shape[0]))),
    Op("spsolve", target="sp", path="linalg.spsolve", args=("S", "X"), shape="spd", dtypes=INEXACT,
       formats=["csr", "csc"], ulp=64, scale="sum", complex_ulp=64),
    Op("spsolve_sparse_rhs", target="sp", path="linalg.spsolve", args=("S", "SX"), shape="spd", dtypes=INEXACT,
       formats=["csr", "csc"], ulp=64, scale="sum", complex_ulp=64),
    Op("spsolve_triangular", target="sp", path="linalg.spsolve_triangular",
       args=("S", "X"), kwargs={"lower": lambda g: g.lower, "unit_diagonal": [False, True]}, required=("lower",),
       shape="spd", dtypes=["float64", "complex128"],
       formats=["csr", "csc"], ulp=64, scale="sum"),
    Op("splu_solve", target="fn", path=lambda L, A, b: L.sp.linalg.splu(A).solve(b), args=("S", "X"), shape="spd",
       dtypes=["float64", "complex128", "float32"], formats=["csc"], ulp=64, scale="sum",
       src="{lib}.linalg.splu({0}).solve({1})"),
    Op("matrix_power", target="sp", path="linalg.matrix_power", args=("S", [0, 1, 2, 3]), shape="square",
       dtypes=NUMERIC, ulp=1, complex_ulp=2, scale="sum"),
    )


# -- known defects and SciPy's own behaviour ---------------------------------------------------

def rows(*names):
    return lambda c: c.call.row.name in names


def kumo_exc(*names, text=""):
    return lambda c: c.k is not None and c.k.exc is not None and type(c.k.exc).__name__ in names \
        and text in str(c.k.exc)


def kw(name, value):
    return lambda c: c.call.kwargs.get(name, object()) == value


def kumo_zero(c):
    r = c.k.result
    return r is not None and not hasattr(r, "nnz") and float(abs(complex(r))) == 0.0


def is_1d(c):
    return c.first is not None and len(c.first.shape) == 1


BINARY = ("add", "radd", "sub", "rsub", "mul", "rmul", "rmul_dense", "multiply", "truediv_any", "maximum",
          "minimum", "eq", "ne", "lt", "le", "gt", "ge", "dot", "matmul_sparse")

# kumo defects (each in FINDINGS.md with a reproducer; delete an entry once fixed).
GLOBAL_KNOWN = [
    ("splu(A).solve(b) casts b to the factor's dtype where SciPy raises TypeError (no safe cast): "
     "python/kumo/sparse/linalg/_dsolve.py SuperLU.solve", both(rows("splu_solve"), outcome("returned_not_raised"))),
    ("result format of binary operations with mixed formats differs (DIA/BSR with others: SciPy keeps BSR, "
     "CSC <= / < / != x gives CSR in SciPy; 1-d sparse @ 2-d sparse is CSR in SciPy, COO in kumo)",
     both(outcome("wrong_type"), rows(*BINARY), lambda c: "builtins" not in (c.detail or ""))),
    ("ComplexWarning: vstack/hstack/bmat/block_array/block_diag/mean with a real dtype= of complex blocks are "
     "silent (SciPy warns); sum(dtype=real) of complex warns (SciPy does not)",
     both(outcome("wrong_warning"), detail("ComplexWarning"))),
    ("index dtype of nonzero()/find() results: int64 where SciPy narrows to int32",
     both(outcome("wrong_dtype"), rows("nonzero", "find"))),
    ("sparse / dense and sparse / sparse: dtype (complex from a real divisor), RuntimeWarning where SciPy "
     "has none, multiply's dtype with a float one-element operand", both(rows("truediv_any", "multiply"),
                                                                          outcome("wrong_dtype", "wrong_warning"))),
    ("power(0) / ** 0 with a NumPy or bool zero raises another exception class than SciPy's NotImplementedError",
     both(rows("power", "pow"), outcome("wrong_exception"))),
]

# Found by the first campaigns and not yet analysed (FINDINGS.md, "open"): registered so that the fixed
# seed tests everything else strictly; each still to be reduced to a defect (or a SciPy divergence).
GLOBAL_KNOWN += [
    ("open: spsolve with a sparse b: SparseEfficiencyWarning differs for some b formats/shapes",
     both(rows("spsolve_sparse_rhs"), outcome("wrong_warning"))),
    ("open: BSR sum_duplicates/sort_indices of unsorted blocks with duplicates from strided block data: "
     "values differ", both(rows("sum_duplicates", "sort_indices"), first_fmt("bsr"), outcome("wrong_value"))),
    ("open: getitem result kinds (SciPy: COO for some keys, dense for two index arrays on a *_matrix / "
     "of empty selections) and reshape errors SciPy raises", both(rows("getitem"),
                                                                  outcome("wrong_type", "returned_not_raised"))),
    ("open: 1-d products (v @ A, A @ v, dense @ 2-d (1, n)): result shapes, dtypes and SciPy's errors",
     both(rows("matmul_sparse", "matmul_dense", "rmatmul_dense", "dot"),
          outcome("wrong_shape", "wrong_dtype", "returned_not_raised"))),
    ("open: splu(A).solve(b) raises ValueError where SciPy raises TypeError (no safe cast of b)",
     both(rows("splu_solve"), outcome("wrong_exception"))),
    ("open: getnnz/count_nonzero(axis) index dtype (int64 vs SciPy's int32)",
     both(rows("getnnz", "count_nonzero"), outcome("wrong_dtype"))),
    ("open: resize of 2-d to other sizes, power/** with negative integer exponents on empty or integer data, "
     "multiply/rmul_dense with broadcast dense operands: kumo raises where SciPy returns",
     both(rows("resize", "power", "pow", "multiply", "rmul_dense", "mean"),
          outcome("raised_not_numpy", "returned_not_raised"))),
    ("open: norm(axis=) errors SciPy raises on empty axes", both(rows("norm_axis"), outcome("returned_not_raised"))),
    ("open: wrong values in +, *, multiply, @ with mixed dtypes/formats and in elementwise functions of "
     "non-canonical input: to be reduced", both(outcome("wrong_value"),
                                                 rows("add", "radd", "multiply", "mul", "matmul_sparse",
                                                      "matmul_dense", "sinh", "tan", "pow", "abs", "sum",
                                                      "truediv", "getitem"))),
]

# Where SciPy 1.17 itself misbehaves, or kumo documents a deliberate difference (docs/sparse.md).
SCIPY_DIVERGES = [
    ("SciPy: mean of an empty 1-d array raises ZeroDivisionError (kumo: NaN, docs/sparse.md)",
     both(rows("mean"), scipy_exc("ZeroDivisionError"))),
    ("SciPy: getnnz/count_nonzero along an axis of DIA/BSR is NotImplementedError (kumo counts, docs/sparse.md)",
     both(rows("getnnz", "count_nonzero"), scipy_exc("NotImplementedError"))),
    ("SciPy: resize of a 1-d array to 2-d (kumo keeps the number of dimensions, docs/sparse.md)",
     both(rows("resize"), is_1d)),
    ("SciPy: a 1-d COO array with duplicates is canonicalised in place by products, which changes its values "
     "(docs/sparse.md)", both(outcome("wrong_mutation"), lambda c: any(
        getattr(a, "fmt", None) == "coo" and len(getattr(a, "shape", ())) == 1 for a in c.call.args))),
    ("SciPy: norm/sum of a DIA array counts data entries outside the matrix (kumo follows the definition)",
     both(outcome("wrong_value"), first_fmt("dia"))),
    ("SciPy: argmax/argmin(explicit=True) over the whole matrix returns the position among the stored entries, "
     "not the flat index", both(outcome("wrong_value"), rows("argmax", "argmin", "argmax_special"),
                                kw("explicit", True))),
    ("SciPy: C++ exception (RuntimeError vector::_M_default_append) in DIA products", scipy_exc("RuntimeError",
                                                                                               "_M_default_append")),
    # The same product of a DIA matrix without diagonals fails either way from one run to the next.
    ("SciPy: DIA products of a matrix without diagonals fail inside (ValueError 'cannot reshape array of size 0')",
     both(lambda c: c.first is not None and c.first.fmt == "dia",
          scipy_exc("ValueError", "cannot reshape array of size 0"))),
    ("SciPy: spsolve with a sparse b of no columns fails inside (ValueError 'need at least one array')",
     scipy_exc("ValueError", "need at least one array")),
    ("SciPy: BSR setdiag fails with AttributeError '_swap' (kumo sets the diagonal through CSR)", scipy_exc("AttributeError", "_swap")),
    ("SciPy: sparse arrays have no unary + (TypeError); kumo's returns a copy", both(rows("pos"),
                                                                                     scipy_exc("TypeError"))),
    ("SciPy: indexing that makes a 3-d COO array (kumo: IndexError, docs/sparse.md)",
     both(rows("getitem"), kumo_exc("IndexError", text=">2D"))),
    ("SciPy: DIA accepts float16, also as the result of elementwise functions of bool/int8 DIA (kumo rejects "
     "float16 in every format, docs/sparse.md)",
     both(kumo_exc("ValueError", text="float16"), lambda c: c.call.row.name == "ctor_float16" or (
         c.n is not None and c.n.exc is None and getattr(c.n.result, "format", None) == "dia"
         and getattr(c.n.result, "dtype", None) == numpy.float16))),
]


def select(pattern=None):
    import fnmatch
    if not pattern:
        return ROWS
    pats = [p.strip() for p in pattern.split(",") if p.strip()]
    rows = [r for r in ROWS if any(fnmatch.fnmatch(r.name, p) for p in pats)]
    if not rows:
        raise ValueError(f"no sparse row matches {pattern!r}")
    return rows
