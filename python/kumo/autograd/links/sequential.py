"""Sequential (Chainer's ``chainer.Sequential``): a ChainList whose forward
feeds its layers one after another. Layers may be links or any callables
(functions such as F.relu); only the links are children with parameters."""
from kumo.autograd.links.link import Sequential  # noqa: F401  (defined beside Link, whose repeat makes one)
