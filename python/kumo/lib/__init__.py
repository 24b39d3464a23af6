"""numpy.lib's public submodules that kumo provides."""
from kumo.lib import stride_tricks  # noqa: F401

__all__ = ["stride_tricks"]
