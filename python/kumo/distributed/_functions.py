"""Differentiable collectives: functions of the autograd graph whose forward
and backward communicate, so losses may depend on other processes' data."""

from kumo.autograd import FunctionNode


class AllreduceSum(FunctionNode):
    """y = the sum of x over the processes. Every process's x reaches every
    process's y, so the gradient of x is the sum of the processes' gradients
    of y: the backward is the same allreduce."""

    def __init__(self, comm):
        super().__init__()
        self.comm = comm

    def forward(self, inputs):
        x, = inputs
        return self.comm.allreduce(x, "sum"),

    def backward(self, target_input_indexes, grad_outputs):
        gy, = grad_outputs
        return AllreduceSum(self.comm).apply((gy,))[0],


def allreduce_sum(x, comm):
    """The differentiable sum of `x` (a Variable or array) over the processes of `comm`."""
    return AllreduceSum(comm).apply((x,))[0]
