"""Failure cases. `hang`: the last rank sleeps instead of joining an
allreduce; the others must raise CommunicationTimeoutError within
KUMO_DISTRIBUTED_TIMEOUT and the job must end (aborted), not hang.
`die`: the last rank exits at once (as a crash would, without finalizing
MPI) while the others enter an allreduce; the job must end, reported.
`mismatch`: the last rank's model has a parameter of another shape (or
dtype); the optimizer's setup must raise ValueError naming it everywhere."""
import os
import sys
import time

import kumo
import kumo.autograd.links as L
import kumo.distributed as kd
from kumo.autograd import optimizers

case = sys.argv[1]
comm = kd.create_communicator("naive")
last = comm.rank == comm.size - 1
if case == "hang":
    if last:
        time.sleep(float(sys.argv[2]))
    else:
        start = time.time()
        try:
            comm.allreduce(kumo.ones(4))
        except kd.CommunicationTimeoutError as e:
            print("rank %d raised after %.1f s: %s" % (comm.rank, time.time() - start, e), flush=True)
            raise
elif case == "die":
    if last:
        os._exit(3)
    comm.allreduce(kumo.ones(4))
    time.sleep(60)  # never reached by a correct abort: the job ends first
elif case in ("shape", "dtype"):
    model = L.Classifier(L.Linear(3, 5 if not (last and case == "shape") else 6))
    if last and case == "dtype":
        model.predictor.W.array = model.predictor.W.array.astype("float64")
    try:
        kd.create_multi_node_optimizer(optimizers.SGD(), comm).setup(model)
    except ValueError as e:
        print("rank %d: %s" % (comm.rank, e), flush=True)
    else:
        print("rank %d: no error" % comm.rank, flush=True)
