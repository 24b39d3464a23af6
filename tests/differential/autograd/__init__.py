"""kumo.autograd.functions against NumPy formulas and finite differences
(docs/differential.md, "The autograd harness").

A row of `table.py` names a function, draws its inputs and keywords, and may
give a NumPy reference of the forward; `check.py` runs one call: the forward
on kumo views of every layout of ../layouts.py, the backward with a
non-contiguous upstream gradient, central differences in float64, and the
double backward. `runner.py` runs campaigns in worker processes through
../runner.py (crash isolation, seeding).
"""
