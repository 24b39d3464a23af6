"""Differential testing of kumo.sparse against scipy.sparse (docs/differential.md,
"kumo.sparse against scipy.sparse"). Reuses the NumPy harness's runner,
layouts, values and comparison of dense results.
"""
