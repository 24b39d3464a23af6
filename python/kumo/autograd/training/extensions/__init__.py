"""kumo.autograd.training.extensions: Chainer's ``chainer.training.extensions``."""
from kumo.autograd.training.extensions import snapshot_writers  # noqa: F401
from kumo.autograd.training.extensions._dump_graph import DumpGraph, unchain_variables
from kumo.autograd.training.extensions._evaluator import Evaluator
from kumo.autograd.training.extensions._log_report import LogReport, PrintReport
from kumo.autograd.training.extensions._observation import (FailOnNonNumber, MicroAverage, observe_lr,
                                                            observe_value)
from kumo.autograd.training.extensions._plot_report import PlotReport
from kumo.autograd.training.extensions._progress_bar import ProgressBar
from kumo.autograd.training.extensions._shifts import (ExponentialShift, InverseShift, LinearShift, MultistepShift,
                                                       PolynomialShift, StepShift, WarmupShift)
from kumo.autograd.training.extensions._snapshot import snapshot, snapshot_object
from kumo.autograd.training.extensions._statistics import ParameterStatistics, VariableStatisticsPlot

__all__ = ["Evaluator", "LogReport", "PrintReport", "ProgressBar", "snapshot", "snapshot_object", "observe_value",
           "observe_lr", "FailOnNonNumber", "MicroAverage", "ExponentialShift", "InverseShift", "LinearShift",
           "MultistepShift", "PolynomialShift", "StepShift", "WarmupShift", "PlotReport", "ParameterStatistics",
           "VariableStatisticsPlot", "DumpGraph", "dump_graph", "unchain_variables", "snapshot_writers"]

dump_graph = DumpGraph  # Chainer's old name
