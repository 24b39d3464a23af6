"""Extension, make_extension and the priorities (Chainer's
``chainer.training.extension``)."""

# Extensions run in decreasing priority after each update: writers (that
# add to the observation) before editors before readers (that log it).
PRIORITY_WRITER = 300
PRIORITY_EDITOR = 200
PRIORITY_READER = 100


class Extension:
    """Base class of trainer extensions: ``__call__(trainer)`` does the
    work; ``trigger``, ``priority`` and ``default_name`` are the defaults
    Trainer.extend uses; ``initialize``, ``finalize``, ``on_error`` and
    ``serialize`` are optional hooks."""

    trigger = (1, "iteration")
    priority = PRIORITY_READER
    name = None

    @property
    def default_name(self):
        """The class name (used when extend is given no name)."""
        return type(self).__name__

    def __call__(self, trainer):
        raise NotImplementedError("Extension implementation must override __call__.")

    def initialize(self, trainer):
        """Called once when the trainer starts (also after a resume)."""

    def finalize(self):
        """Called once when the training loop ends, normally or not."""

    def on_error(self, trainer, exc, tb):
        """Called when the training loop raised ``exc``."""

    def serialize(self, serializer):
        """Saves / loads the extension's state with a snapshot."""


def make_extension(trigger=None, default_name=None, priority=None, finalizer=None, initializer=None,
                   on_error=None):
    """Decorator giving a function (or class) the attributes of an extension."""
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(ext):
        ext.trigger = trigger
        ext.default_name = default_name or ext.__name__
        ext.priority = priority
        ext.finalize = finalizer
        ext.on_error = on_error
        ext.initialize = initializer
        return ext

    return decorator
