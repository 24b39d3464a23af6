"""``kumo.autograd.training.extension`` (Chainer's module path for Extension,
make_extension and the priorities)."""
from kumo.autograd.training._extension import (PRIORITY_EDITOR, PRIORITY_READER, PRIORITY_WRITER, Extension,
                                               make_extension)

__all__ = ["Extension", "make_extension", "PRIORITY_WRITER", "PRIORITY_EDITOR", "PRIORITY_READER"]
