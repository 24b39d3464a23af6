"""Recurrent links (Chainer's ``chainer.links`` LSTM, StatelessLSTM, GRU,
StatelessGRU, StatefulGRU and the NStep* links)."""
import numpy

from kumo import _creation
from kumo.autograd import functions as F, initializers
from kumo.autograd._config import config
from kumo.autograd._variable import Variable
from kumo.autograd.links.connection import Linear
from kumo.autograd.links.link import Chain, ChainList, Link, Parameter


class LSTMBase(Chain):
    """The weights of an LSTM: ``upward`` (Linear(in_size, 4 * out_size))
    and ``lateral`` (Linear(out_size, 4 * out_size), no bias). F.lstm reads
    the gates interleaved (a, i, f, o for each unit); every
    (out_size, ...) block of rows of a weight gets its initializer
    separately, the forget gate's bias ``forget_bias_init`` (1)."""

    def __init__(self, in_size, out_size=None, lateral_init=None, upward_init=None, bias_init=None,
                 forget_bias_init=None):
        if out_size is None:
            out_size, in_size = in_size, None
        super().__init__()
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = 0 if bias_init is None else bias_init
        self.forget_bias_init = 1 if forget_bias_init is None else forget_bias_init
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = Linear(out_size, 4 * out_size, initialW=0, nobias=True)
            if in_size is not None:
                self._initialize_params()

    def _initialize_params(self):
        lateral_init = initializers._get_initializer(self.lateral_init)
        upward_init = initializers._get_initializer(self.upward_init)
        bias_init = initializers._get_initializer(self.bias_init)
        forget_init = initializers._get_initializer(self.forget_bias_init)
        n = self.state_size
        for i in range(0, 4 * n, n):
            lateral_init(self.lateral.W.array[i:i + n, :])
            upward_init(self.upward.W.array[i:i + n, :])
        b = self.upward.b.array
        for gate, init in enumerate((bias_init, bias_init, forget_init, bias_init)):  # a, i, f, o
            init(b[gate::4])

    def _lazy_init(self, x):
        if not self.upward.W.is_initialized:
            self.upward._initialize_params(int(numpy.prod(tuple(x.shape)[1:], dtype=numpy.int64)))
            self._initialize_params()


def _zeros_state(link, rows, size, dtype):
    with link.device:
        return Variable(_creation.zeros((rows, size), dtype=dtype), requires_grad=False)


class StatelessLSTM(LSTMBase):
    """One LSTM step with the state passed in and out:
    ``c_new, h_new = lstm(c, h, x)`` (c and h may be None: zeros)."""

    def forward(self, c, h, x):
        self._lazy_init(x)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in = lstm_in + self.lateral(h)
        if c is None:
            c = _zeros_state(self, x.shape[0], self.state_size, x.dtype)
        return F.lstm(c, lstm_in)


class LSTM(LSTMBase):
    """A stateful LSTM layer: each call consumes one step of x (B, in) and
    returns h; ``c`` and ``h`` persist until ``reset_state``. A batch
    smaller than the state's updates only the leading rows (sequences that
    ended drop out at the end of the batch)."""

    def __init__(self, in_size, out_size=None, lateral_init=None, upward_init=None, bias_init=None,
                 forget_bias_init=None):
        if out_size is None:
            in_size, out_size = None, in_size
        super().__init__(in_size, out_size, lateral_init, upward_init, bias_init, forget_bias_init)
        self.reset_state()

    def set_state(self, c, h):
        if not isinstance(c, Variable) or not isinstance(h, Variable):
            raise TypeError("LSTM.set_state: c and h must be Variables")
        self.c = c
        self.h = h

    def reset_state(self):
        self.c = self.h = None

    def to_device(self, device):
        super().to_device(device)
        if self.c is not None:
            self.c = F.copy(self.c, self.device)
        if self.h is not None:
            self.h = F.copy(self.h, self.device)
        return self

    def forward(self, x):
        self._lazy_init(x)
        batch = x.shape[0]
        lstm_in = self.upward(x)
        h_rest = None
        if self.h is not None:
            h_size = self.h.shape[0]
            if batch == 0:
                h_rest = self.h
            elif h_size < batch:
                raise TypeError("The batch size of x must be equal to or less than the size of the previous state h.")
            elif h_size > batch:
                h_update, h_rest = F.split_axis(self.h, [batch], axis=0)
                lstm_in = lstm_in + self.lateral(h_update)
            else:
                lstm_in = lstm_in + self.lateral(self.h)
        if self.c is None:
            self.c = _zeros_state(self, batch, self.state_size, x.dtype)
        self.c, y = F.lstm(self.c, lstm_in)
        if h_rest is None:
            self.h = y
        elif y.shape[0] == 0:
            self.h = h_rest
        else:
            self.h = F.concat([y, h_rest], axis=0)
        return y


class GRUBase(Chain):
    """The six Linear links of a GRU: W_r, U_r (reset gate), W_z, U_z
    (update gate), W, U (candidate)."""

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=None):
        super().__init__()
        with self.init_scope():
            self.W_r = Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_r = Linear(out_size, out_size, initialW=inner_init, initial_bias=bias_init)
            self.W_z = Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_z = Linear(out_size, out_size, initialW=inner_init, initial_bias=bias_init)
            self.W = Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U = Linear(out_size, out_size, initialW=inner_init, initial_bias=bias_init)


def _interpolate(z, a, b):
    # Chainer's F.linear_interpolate: z * a + (1 - z) * b.
    return z * a + (1 - z) * b


class StatelessGRU(GRUBase):
    """One GRU step: ``h_new = gru(h, x)``."""

    def forward(self, h, x):
        r = F.sigmoid(self.W_r(x) + self.U_r(h))
        z = F.sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = F.tanh(self.W(x) + self.U(r * h))
        return _interpolate(z, h_bar, h)


class StatefulGRU(GRUBase):
    """A GRU keeping its state ``h`` between calls (``reset_state``,
    ``set_state``); without a state the first step is z * h_bar."""

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=0):
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size
        self.reset_state()

    def set_state(self, h):
        if not isinstance(h, Variable):
            raise TypeError("set_state: h must be a Variable")
        self.h = h

    def reset_state(self):
        self.h = None

    def forward(self, x):
        z = self.W_z(x)
        h_bar = self.W(x)
        if self.h is not None:
            r = F.sigmoid(self.W_r(x) + self.U_r(self.h))
            z = z + self.U_z(self.h)
            h_bar = h_bar + self.U(r * self.h)
        z = F.sigmoid(z)
        h_bar = F.tanh(h_bar)
        self.h = _interpolate(z, h_bar, self.h) if self.h is not None else z * h_bar
        return self.h


class GRU(StatefulGRU):
    """The stateful GRU under Chainer's name: one argument per call."""

    def forward(self, *args):
        n = len(args)
        msg = "Invalid argument. The length of GRU.forward must be 1. But %d is given. " % n
        if n == 0 or n >= 3:
            raise ValueError(msg)
        if n == 2:
            raise ValueError(msg + "In Chainer v2, chainer.links.GRU is changed from stateless to stateful. One "
                             "possibility is you assume GRU to be stateless. Use chainer.links.StatelessGRU instead.")
        return super().forward(args[0])


def _transpose_sequence(xs):
    """Sequences (L_i, ...) sorted by length, longest first -> one
    (B_t, ...) batch per time step."""
    if not xs:
        return []
    lengths = [x.shape[0] for x in xs]
    padded = F.pad_sequence(xs)  # (B, T, ...)
    out = []
    for t in range(lengths[0]):
        rows = sum(1 for n in lengths if n > t)
        out.append(padded[:rows, t])
    return out


def _untranspose_sequence(ys, lengths):
    """The inverse of _transpose_sequence for the given sequence lengths."""
    if not ys:
        return [None] * len(lengths)
    padded = F.pad_sequence(ys)  # (T, B, ...)
    return [padded[:n, i] for i, n in enumerate(lengths)]


class NStepRNNBase(ChainList):
    """Weights of a stacked (optionally bidirectional) RNN over variable
    length sequences, one child Link per layer and direction with
    parameters w0.., b0.. in the layout of F.n_step_*; ``ws`` / ``bs`` list
    them. ``forward(hx, xs)`` takes the sequences in any order (hx None for
    zeros) and returns (hy, ys) with ys in the input order."""

    n_weights = 2
    use_bi_direction = False

    def __init__(self, n_layers, in_size, out_size, dropout, *, initialW=None, initial_bias=None, **kwargs):
        if kwargs:
            raise TypeError("unexpected keyword arguments: " + ", ".join(sorted(kwargs)))
        direction = 2 if self.use_bi_direction else 1
        w_init = initializers._get_initializer(initialW)
        b_init = initializers._get_initializer(0 if initial_bias is None else initial_bias)
        weights = []
        for i in range(n_layers):
            for _ in range(direction):
                weight = Link()
                with weight.init_scope():
                    for j in range(self.n_weights):
                        if j < self.n_weights // 2:
                            w_in = in_size if i == 0 else out_size * direction
                        else:
                            w_in = out_size
                        setattr(weight, "w%d" % j, Parameter(w_init, (out_size, w_in)))
                        setattr(weight, "b%d" % j, Parameter(b_init, out_size))
                weights.append(weight)
        super().__init__(*weights)
        self._collect_weights()
        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size
        self.direction = direction

    def _collect_weights(self):
        self.ws = [[getattr(layer, "w%d" % i) for i in range(self.n_weights)] for layer in self]
        self.bs = [[getattr(layer, "b%d" % i) for i in range(self.n_weights)] for layer in self]

    def copy(self, mode="share"):
        ret = super().copy(mode)
        ret._collect_weights()
        return ret

    def __deepcopy__(self, memo):
        ret = super().__deepcopy__(memo)
        ret._collect_weights()
        return ret

    def to_device(self, device):
        super().to_device(device)
        self._collect_weights()
        return self

    def init_hx(self, xs):
        """Zeros of shape (n_layers * direction, len(xs), out_size)."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        with self.device:
            return Variable(_creation.zeros(shape, dtype=xs[0].dtype), requires_grad=False)

    def rnn(self, *args):
        raise NotImplementedError()

    @property
    def n_cells(self):
        # Abstract: each NStep link says how many state arrays it carries.
        raise NotImplementedError("%s must define n_cells" % type(self).__name__)

    def forward(self, hx, xs, **kwargs):
        (hy,), ys = self._call([hx], xs, **kwargs)
        return hy, ys

    def _call(self, hs, xs, **kwargs):
        if kwargs:
            raise TypeError("unexpected keyword arguments: " + ", ".join(sorted(kwargs)))
        if not isinstance(xs, (list, tuple)):
            raise TypeError("xs must be a list or tuple of sequences")
        order = numpy.argsort([-x.shape[0] for x in xs], kind="stable").astype(numpy.int64)
        inverse = numpy.argsort(order).astype(numpy.int64)
        sorted_xs = [xs[i] for i in order]
        hxs = []
        for hx in hs:
            if hx is None:
                hx = self.init_hx(sorted_xs)
            else:
                hx = F.get_item(hx, (slice(None), _creation.asarray(order)))
            hxs.append(hx)
        dropout = self.dropout if config.train else 0.0
        result = self.rnn(self.n_layers, dropout, *hxs, self.ws, self.bs, _transpose_sequence(sorted_xs))
        hys = [F.get_item(h, (slice(None), _creation.asarray(inverse))) for h in result[:-1]]
        ys_sorted = _untranspose_sequence(list(result[-1]), [x.shape[0] for x in sorted_xs])
        ys = [ys_sorted[i] for i in inverse]
        return hys, ys


class NStepRNNTanh(NStepRNNBase):
    """Stacked Elman RNN with tanh (F.n_step_rnn)."""
    n_weights = 2
    use_bi_direction = False

    def rnn(self, *args):
        return F.n_step_rnn(*args, activation="tanh")

    @property
    def n_cells(self):
        return 1


class NStepRNNReLU(NStepRNNBase):
    """Stacked Elman RNN with ReLU."""
    n_weights = 2
    use_bi_direction = False

    def rnn(self, *args):
        return F.n_step_rnn(*args, activation="relu")

    @property
    def n_cells(self):
        return 1


class NStepBiRNNTanh(NStepRNNBase):
    """Bidirectional stacked Elman RNN with tanh."""
    n_weights = 2
    use_bi_direction = True

    def rnn(self, *args):
        return F.n_step_birnn(*args, activation="tanh")

    @property
    def n_cells(self):
        return 1


class NStepBiRNNReLU(NStepRNNBase):
    """Bidirectional stacked Elman RNN with ReLU."""
    n_weights = 2
    use_bi_direction = True

    def rnn(self, *args):
        return F.n_step_birnn(*args, activation="relu")

    @property
    def n_cells(self):
        return 1


class NStepLSTMBase(NStepRNNBase):
    """``forward(hx, cx, xs)`` -> (hy, cy, ys)."""
    n_weights = 8

    def forward(self, hx, cx, xs, **kwargs):
        (hy, cy), ys = self._call([hx, cx], xs, **kwargs)
        return hy, cy, ys


class NStepLSTM(NStepLSTMBase):
    """Stacked LSTM over variable length sequences (F.n_step_lstm)."""
    use_bi_direction = False

    def rnn(self, *args):
        return F.n_step_lstm(*args)

    @property
    def n_cells(self):
        return 2


class NStepBiLSTM(NStepLSTMBase):
    """Bidirectional stacked LSTM (F.n_step_bilstm)."""
    use_bi_direction = True

    def rnn(self, *args):
        return F.n_step_bilstm(*args)

    @property
    def n_cells(self):
        return 2


class NStepGRUBase(NStepRNNBase):
    n_weights = 6


class NStepGRU(NStepGRUBase):
    """Stacked GRU over variable length sequences (F.n_step_gru)."""
    use_bi_direction = False

    def rnn(self, *args):
        return F.n_step_gru(*args)

    @property
    def n_cells(self):
        return 1


class NStepBiGRU(NStepGRUBase):
    """Bidirectional stacked GRU (F.n_step_bigru)."""
    use_bi_direction = True

    def rnn(self, *args):
        return F.n_step_bigru(*args)

    @property
    def n_cells(self):
        return 1
