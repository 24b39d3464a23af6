"""create_multi_node_evaluator: an Evaluator whose result is the mean of
every process's result (each process evaluates its own shard)."""

import numpy

from kumo import _core
from kumo import _creation
from kumo import _interop



def _scalar(value):
    if isinstance(value, _core.ndarray):
        return float(_interop.asnumpy(value))
    if hasattr(value, "array"):  # a Variable
        return float(_interop.asnumpy(value.array))
    return float(value)


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Makes `actual_evaluator` (an Evaluator, used as a trainer extension or
    called directly) report, on every process, the mean over the processes of
    the values each process computed on its own data. With shards of equal
    size cut into batches of equal size, that is the single-process
    evaluation of the whole data."""
    local_evaluate = actual_evaluator.evaluate

    def evaluate():
        local = local_evaluate()
        names = sorted(local)
        everyone = communicator.allgather_obj(names)
        if any(other != names for other in everyone):
            raise ValueError("kumo.distributed: the processes' evaluators reported different values: {}".format(
                everyone))
        values = _creation.asarray(numpy.array([_scalar(local[k]) for k in names], dtype=numpy.float64))
        means = _interop.asnumpy(communicator.allreduce(values, "mean"))
        return {k: float(v) for k, v in zip(names, means)}

    actual_evaluator.evaluate = evaluate
    return actual_evaluator
