"""Classifier (Chainer's ``chainer.links.Classifier``): a predictor with a
loss function and an accuracy function, reporting both."""
from kumo.autograd import functions as F
from kumo.autograd import reporter
from kumo.autograd.links.link import Chain


class Classifier(Chain):
    """``Classifier(predictor, lossfun=F.softmax_cross_entropy,
    accfun=F.accuracy, label_key=-1)``: calling it with the predictor's
    arguments plus the labels (the positional argument at ``label_key``, or
    the keyword named by it) returns the loss, keeps ``y``, ``loss`` and
    ``accuracy`` and reports 'loss' and 'accuracy' (unless
    ``compute_accuracy`` is False)."""

    compute_accuracy = True

    def __init__(self, predictor, lossfun=F.softmax_cross_entropy, accfun=F.accuracy, label_key=-1):
        if not isinstance(label_key, (int, str)):
            raise TypeError("label_key must be int or str, but is %s" % type(label_key))
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y = None
        self.loss = None
        self.accuracy = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def forward(self, *args, **kwargs):
        if isinstance(self.label_key, int):
            if not -len(args) <= self.label_key < len(args):
                raise ValueError("Label key %d is out of bounds" % self.label_key)
            t = args[self.label_key]
            if self.label_key == -1:
                args = args[:-1]
            else:
                args = args[:self.label_key] + args[self.label_key + 1:]
        else:
            if self.label_key not in kwargs:
                raise ValueError('Label key "%s" is not found' % self.label_key)
            t = kwargs.pop(self.label_key)
        self.y = None
        self.loss = None
        self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({"loss": self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({"accuracy": self.accuracy}, self)
        return self.loss
