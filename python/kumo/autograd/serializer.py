"""The serialization protocol of kumo.autograd (Chainer's chainer.serializer).

An object that can be saved implements ``serialize(serializer)``: it calls
``serializer(name, value)`` for each of its values (arrays, Python scalars,
strings, None) and ``serializer[name]`` for each child, then passes that
sub-serializer to the child's ``serialize``. A serializer returns the value
it was given; a deserializer returns (or writes into) the stored value. The
same ``serialize`` method thus both saves and loads (links, optimizers,
iterators, trainers and their extensions all use it).
"""

__all__ = ["AbstractSerializer", "Serializer", "Deserializer"]


class AbstractSerializer:
    """The interface shared by serializers and deserializers."""

    def __getitem__(self, key):
        """The child serializer for the name ``key``."""
        raise NotImplementedError("%s must define __getitem__" % type(self).__name__)

    def __call__(self, key, value):
        """Saves or loads ``value`` under the name ``key``."""
        raise NotImplementedError("%s must define __call__" % type(self).__name__)


class Serializer(AbstractSerializer):
    """Base class of the serializers (writers)."""

    def save(self, obj):
        """Writes ``obj`` through its ``serialize`` method."""
        obj.serialize(self)


class Deserializer(AbstractSerializer):
    """Base class of the deserializers (readers)."""

    def load(self, obj):
        """Reads ``obj``'s values through its ``serialize`` method."""
        obj.serialize(self)
