"""Differential testing of kumo against NumPy (docs/differential.md).

Not part of the ordinary suite (`pytest tests/python`); run it with
`pytest tests/differential` or a long campaign with `scripts/fuzz.sh`.
"""
