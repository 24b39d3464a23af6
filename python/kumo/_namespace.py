"""The top-level package as an object: kumo itself, for the few places whose
subject is the public namespace rather than a function in it --
get_array_module's answer and Chainer's ``xp`` (the array module), NumPy's
dispatch to the kumo function of the same name, the names fuse's tracer swaps
while it traces, kumo.array_api's fallback to every other kumo name.

Every other module imports the modules it uses; this is the one place that
imports kumo from inside the package, and only when asked, by which time
kumo/__init__.py has finished (it imports this module's callers while it
runs).
"""


def package():
    """The kumo module."""
    import kumo  # the one import of the top-level package from inside it (see above)
    return kumo
