"""numpy.einsum on kumo arrays.

Each operand first loses its repeated subscripts (diagonal views) and the
subscripts nothing else needs (summed). The operands are then contracted two
at a time in a greedy order (smallest intermediate first); a pairwise
contraction is a batched GEMM once its subscripts are grouped into batch
(both operands and still needed), contracted (both operands, no longer needed)
and free ones (one operand), with transposes and reshapes that are views
whenever the layout allows.
"""
import operator

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import asarray
from kumo._dtypes import result_type, can_cast
from kumo._reductions import sum as _sum
from kumo.linalg import _products as _p

ndarray = _core.ndarray


def _label_name(label):
    return chr(label) if label >= 0 else "..."


# ---------------------------------------------------------------------------- parsing
def _interleaved_to_subscripts(args):
    """einsum(op0, sublist0, op1, sublist1, ..., [sublistout]) -> (subscripts, operands)."""
    args = list(args)
    operands = args[0::2]
    sublists = args[1::2]
    out_list = None
    if len(args) % 2 == 1:
        out_list = operands.pop()
        if len(args) == 1:
            raise ValueError("No input operands")

    def conv(sub):
        s = []
        for item in sub:
            if item is Ellipsis:
                s.append("...")
                continue
            try:
                i = operator.index(item)
            except TypeError:
                raise TypeError("each subscript must be either an integer or an ellipsis") from None
            if not 0 <= i < 52:
                raise ValueError("subscript is not within the valid range [0, 52)")
            s.append(chr(ord("A") + i) if i < 26 else chr(ord("a") + i - 26))
        return "".join(s)

    subs = ",".join(conv(s) for s in sublists)
    if out_list is not None:
        subs += "->" + conv(out_list)
    return subs, operands


def _parse_term(term, ndim, index, what="operand"):
    """Labels of one operand: ord(letter) for letters, -e..-1 for the dims an
    ellipsis covers (right-aligned, so that they broadcast across operands)."""
    letters = []
    ell_pos = None
    i = 0
    while i < len(term):
        ch = term[i]
        if ch == ".":
            if term[i:i + 3] != "...":
                raise ValueError("einstein sum subscripts string contains a '.' that is not part of an ellipsis "
                                 "('...') in %s %d" % (what, index) if what == "operand" else
                                 "einstein sum subscripts string contains a '.' that is not part of an ellipsis "
                                 "('...') in the output")
            if ell_pos is not None:
                raise ValueError("einstein sum subscripts string contains more than one ellipsis ('...') in %s"
                                 % ("operand %d" % index if what == "operand" else "the output"))
            ell_pos = len(letters)
            i += 3
            continue
        if not ("a" <= ch <= "z" or "A" <= ch <= "Z"):
            raise ValueError("invalid subscript '%s' in einstein sum subscripts string, subscripts must be letters"
                             % ch)
        letters.append(ord(ch))
        i += 1
    if what != "operand":
        return letters, ell_pos
    if ell_pos is None:
        if len(letters) > ndim:
            raise ValueError("einstein sum subscripts string contains too many subscripts for operand %d" % index)
        if len(letters) < ndim:
            raise ValueError("operand has more dimensions than subscripts given in einstein sum, but no '...' "
                             "ellipsis provided to broadcast the extra dimensions.")
        return letters
    e = ndim - len(letters)
    if e < 0:
        raise ValueError("einstein sum subscripts string contains too many subscripts for operand %d" % index)
    return letters[:ell_pos] + list(range(-e, 0)) + letters[ell_pos:]


def _parse(subscripts, operands):
    if not isinstance(subscripts, str):
        raise TypeError("einsum subscripts must be a string")
    s = subscripts.replace(" ", "")
    explicit = "->" in s
    if explicit:
        inp, outp = s.split("->", 1)
        if "-" in outp or ">" in outp:
            raise ValueError("einstein sum subscript string does not contain proper '->' output specified")
    else:
        if "-" in s or ">" in s:
            raise ValueError("einstein sum subscript string does not contain proper '->' output specified")
        inp, outp = s, None
    terms = inp.split(",")
    if len(terms) > len(operands):
        raise ValueError("fewer operands provided to einstein sum function than specified in the subscripts string")
    if len(terms) < len(operands):
        raise ValueError("more operands provided to einstein sum function than specified in the subscripts string")
    labels = [_parse_term(t, op.ndim, i) for i, (t, op) in enumerate(zip(terms, operands))]
    n_ell = max([-min([l for l in ls if l < 0], default=0) for ls in labels], default=0)
    if explicit:
        letters, ell_pos = _parse_term(outp, 0, 0, what="output")
        seen = set()
        in_letters = {l for ls in labels for l in ls if l >= 0}
        for l in letters:
            if l in seen:
                raise ValueError("einstein sum subscripts string includes output subscript '%s' multiple times"
                                 % chr(l))
            seen.add(l)
            if l not in in_letters:
                raise ValueError("einstein sum subscripts string included output subscript '%s' which never appeared "
                                 "in an input" % chr(l))
        if ell_pos is None:
            if n_ell:
                raise ValueError("output has more dimensions than subscripts given in einstein sum, but no '...' "
                                 "ellipsis provided to broadcast the extra dimensions.")
            out_labels = letters
        else:
            out_labels = letters[:ell_pos] + list(range(-n_ell, 0)) + letters[ell_pos:]
    else:
        counts = {}
        for ls in labels:
            for l in ls:
                if l >= 0:
                    counts[l] = counts.get(l, 0) + 1
        out_labels = list(range(-n_ell, 0)) + sorted(l for l, c in counts.items() if c == 1)
    return labels, out_labels


# ---------------------------------------------------------------------------- operand preparation
def _take_diagonals(x, labels, index):
    """Removes repeated labels of one operand (diagonal views)."""
    labels = list(labels)
    while True:
        dup = None
        for i, l in enumerate(labels):
            if l in labels[i + 1:]:
                dup = (i, labels.index(l, i + 1))
                break
        if dup is None:
            return x, labels
        i, j = dup
        if x.shape[i] != x.shape[j]:
            raise ValueError("dimensions in operand %d for collapsing index '%s' don't match (%d != %d)"
                             % (index, _label_name(labels[i]), x.shape[i], x.shape[j]))
        lab = labels[i]
        x = x._diagonal(0, i, j)  # the diagonal becomes the last axis
        labels = [l for k, l in enumerate(labels) if k not in (i, j)] + [lab]


def _broadcast_error(operands):
    shapes = " ".join(_p._shape_str(op.shape) for op in operands)
    return ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: %s"
                      % shapes)


def _label_sizes(ops, orig):
    sizes = {}
    for x, labels in ops:
        for d, l in zip(x.shape, labels):
            s = sizes.get(l)
            if s is None or s == 1:
                sizes[l] = d
            elif d != 1 and d != s:
                raise _broadcast_error(orig)
    return sizes


def _sum_labels(x, labels, drop, cdt):
    axes = tuple(i for i, l in enumerate(labels) if l in drop)
    if not axes:
        return x, labels
    x = _sum(x.astype(cdt, copy=False), axis=axes, dtype=cdt)
    return x, [l for l in labels if l not in drop]


def _transpose_to(x, labels, order):
    perm = [labels.index(l) for l in order]
    return x if perm == list(range(len(perm))) else x.transpose(perm)


# ---------------------------------------------------------------------------- contraction
def _contract(a, la, b, lb, keep, sizes, cdt):
    """Contracts two operands; the result keeps the labels in `keep`."""
    a, la = _sum_labels(a, la, {l for l in la if l not in lb and l not in keep}, cdt)
    b, lb = _sum_labels(b, lb, {l for l in lb if l not in la and l not in keep}, cdt)
    a = a.astype(cdt, copy=False)
    b = b.astype(cdt, copy=False)
    batch = [l for l in la if l in lb and l in keep]
    contr = [l for l in la if l in lb and l not in keep]
    fa = [l for l in la if l not in lb]
    fb = [l for l in lb if l not in la]
    bs = tuple(sizes[l] for l in batch)
    sa = tuple(sizes[l] for l in fa)
    sb = tuple(sizes[l] for l in fb)
    sk = tuple(sizes[l] for l in contr)
    out_labels = batch + fa + fb
    if not contr:
        # no summation: a broadcast elementwise product
        ax = _transpose_to(a, la, batch + fa).reshape(bs + sa + (1,) * len(fb))
        bx = _transpose_to(b, lb, batch + fb).reshape(bs + (1,) * len(fa) + sb)
        return uf.multiply(ax, bx), out_labels
    M, N, K = _p._prod(sa), _p._prod(sb), _p._prod(sk)
    if M == 1 and N == 1 and cdt.char in _p._BLAS_CHARS:
        # batched dot products: one GEMM per element would be all overhead
        ax = _transpose_to(a, la, batch + fa + contr).reshape(bs + (K,))
        bx = _transpose_to(b, lb, batch + fb + contr).reshape(bs + (K,))
        return _sum(uf.multiply(ax, bx), axis=-1, dtype=cdt).reshape(bs + sa + sb), out_labels
    a3 = _transpose_to(a, la, batch + fa + contr).reshape(bs + (M, K))
    b3 = _transpose_to(b, lb, batch + contr + fb).reshape(bs + (K, N))
    r = _core.linalg.matmul(a3, b3)  # one dtype (cdt), batch axes equal
    return r.reshape(bs + sa + sb), out_labels


def _greedy_pair(ops, out_set, sizes):
    best = None
    for i in range(len(ops)):
        for j in range(i + 1, len(ops)):
            others = set()
            for k, (_, lk) in enumerate(ops):
                if k != i and k != j:
                    others.update(lk)
            keep = out_set | others
            li, lj = ops[i][1], ops[j][1]
            res = set(li) | set(lj)
            res_size = _p._prod(sizes[l] for l in res if l in keep)
            flops = _p._prod(sizes[l] for l in res)
            key = (res_size, flops)
            if best is None or key < best[0]:
                best = (key, i, j)
    return best[1], best[2]


def _path_from_option(optimize, subscripts, operands):
    """An explicit NumPy contraction list for 'optimal' or a given path, else None (greedy)."""
    if isinstance(optimize, (list, tuple)) and len(optimize) and optimize[0] == "einsum_path":
        return [tuple(t) for t in optimize[1:]]
    if optimize == "optimal":
        dummies = [numpy.broadcast_to(numpy.empty((), dtype=op.dtype), op.shape) for op in operands]
        return [tuple(t) for t in numpy.einsum_path(subscripts, *dummies, optimize="optimal")[0][1:]]
    if optimize in (False, True, None, "greedy"):
        return None
    if isinstance(optimize, str):
        raise KeyError("Path name %s not found", optimize)
    raise TypeError("Did not understand the path: %s" % str(optimize))


# ---------------------------------------------------------------------------- public API
def einsum(*operands, out=None, optimize=False, dtype=None, order="K", casting="safe"):
    """Einstein summation (numpy.einsum), in the subscripts form
    ``einsum('ij,jk->ik', a, b)`` or the interleaved form
    ``einsum(a, [0, 1], b, [1, 2], [0, 2])``."""
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        subscripts, ops = operands[0], list(operands[1:])
    else:
        subscripts, ops = _interleaved_to_subscripts(operands)
    ops = [asarray(op) for op in ops]
    labels, out_labels = _parse(subscripts, ops)
    if dtype is None:
        res_dt = result_type(*ops)
    else:
        res_dt = numpy.dtype(dtype)
        for i, op in enumerate(ops):
            if not can_cast(op.dtype, res_dt, casting):
                raise TypeError("Iterator operand %d dtype could not be cast from %r to %r according to the rule "
                                "'%s'" % (i, op.dtype, res_dt, casting))
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be an array")
        if not can_cast(res_dt, out.dtype, casting):
            raise TypeError("Iterator requested dtype could not be cast from %r to %r, the operand %d dtype, "
                            "according to the rule '%s'" % (res_dt, out.dtype, len(ops), casting))
        if out.ndim != len(out_labels):
            raise ValueError("out parameter does not have the correct number of dimensions, has %d but should have "
                             "%d" % (out.ndim, len(out_labels)))
    path = _path_from_option(optimize, subscripts, ops) if len(ops) > 2 else None
    cdt = _p._compute_dtype(res_dt)

    work = [_take_diagonals(op, ls, i) for i, (op, ls) in enumerate(zip(ops, labels))]
    sizes = _label_sizes(work, ops)
    if out is not None:
        want = tuple(sizes[l] for l in out_labels)
        if any(o != w and w != 1 for o, w in zip(out.shape, want)):
            raise _broadcast_error(ops + [out])

    out_set = set(out_labels)
    if len(work) == 1:
        x, ls = work[0]
        if set(ls) == out_set and res_dt == x.dtype:
            view = _transpose_to(x, ls, out_labels)
            view = view[...] if view is ops[0] else view  # a new view, as NumPy returns
            if ops[0]._writeable:
                view._writeable = True
            return _finish(view, out, res_dt)

    # Broadcast (size-1) axes carry one value along their label: drop them so
    # that only operands with the full extent take part in that label.
    prepared = []
    for x, ls in work:
        idx = tuple(0 if (d == 1 and sizes[l] != 1) else slice(None) for d, l in zip(x.shape, ls))
        if any(i == 0 for i in idx):
            ls = [l for l, i in zip(ls, idx) if i != 0]
            x = x[idx]
        prepared.append((x, ls))
    # Labels that only one operand has and the output lacks are summed first.
    counts = {}
    for _, ls in prepared:
        for l in ls:
            counts[l] = counts.get(l, 0) + 1
    work = [_sum_labels(x, ls, {l for l in ls if counts[l] == 1 and l not in out_set}, cdt) for x, ls in prepared]

    def keep_for(pending):
        keep = set(out_set)
        for _, ls in pending:
            keep.update(ls)
        return keep

    if path is not None:
        for step in path:
            picked = [work[i] for i in step]
            for i in sorted(step, reverse=True):
                del work[i]
            keep = keep_for(work)
            x, ls = picked[0]
            if len(picked) == 1:
                x, ls = _sum_labels(x, ls, {l for l in ls if l not in keep}, cdt)
            for k, (y, ly) in enumerate(picked[1:]):
                rest_keep = keep | {l for _, lz in picked[k + 2:] for l in lz}
                x, ls = _contract(x, ls, y, ly, rest_keep, sizes, cdt)
            work.append((x, ls))
        if len(work) != 1:
            raise RuntimeError("Invalid einsum_path is specified: %d more operands has to be contracted."
                               % (len(work) - 1))
    while len(work) > 1:
        i, j = _greedy_pair(work, out_set, sizes) if len(work) > 2 else (0, 1)
        (a, la), (b, lb) = work[i], work[j]
        rest = [w for k, w in enumerate(work) if k not in (i, j)]
        x, ls = _contract(a, la, b, lb, keep_for(rest), sizes, cdt)
        work = rest + [(x, ls)]
    x, ls = work[0]
    x, ls = _sum_labels(x, ls, {l for l in ls if l not in out_set}, cdt)
    # labels of the output that every operand only broadcast (size 1) are absent
    for l in out_labels:
        if l not in ls:
            x = x[..., None]
            ls = ls + [l]
    res = _transpose_to(x, ls, out_labels).astype(res_dt, copy=False)
    return _finish(res, out, res_dt)


def _finish(res, out, res_dt):
    if out is None:
        return res
    out[...] = res
    return out


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path's (path, description) for these operands' shapes: the
    plan only depends on shapes, so NumPy computes it on shape-only stand-ins."""
    def stand_in(x):
        if isinstance(x, ndarray):
            return numpy.broadcast_to(numpy.empty((), dtype=x.dtype), x.shape)
        return x
    return numpy.einsum_path(*[stand_in(x) for x in operands], optimize=optimize, einsum_call=einsum_call)
