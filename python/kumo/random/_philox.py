"""A per-element counter-based generator for kernels that consume a variable
number of random draws per output (rejection samplers).

cuRAND's bulk generators fill arrays with a fixed number of values per
element, which suits inversion and Box-Muller but not rejection. For those,
each call draws one 64-bit key from the cuRAND stream (so the seed still
decides everything) and element i runs Philox4x32-10 (Salmon et al., SC'11)
on the counter (i, draw number) under that key. The same source compiles for
the host and for NVRTC, so a seed gives the same samples on both backends.
The source is defined once in C++ (random/generator.cpp), where the C++
Generator's integers() uses it too.
"""
from kumo import _core

PHILOX_PREAMBLE = _core.random.philox_preamble
