"""RuntimeWarnings that NumPy's statistics raise (all-NaN slices, empty
slices, no degrees of freedom) come from kumo's C++ routines through
Python's warnings machinery."""
import warnings

import numpy
import pytest

import kumo

NAN = numpy.nan

CASES = {
    "nanmedian": lambda m: m.nanmedian(m.asarray([NAN, NAN])),
    "nanmedian_axis": lambda m: m.nanmedian(m.asarray([[NAN, NAN], [1.0, 2.0]]), axis=1),
    "nanpercentile": lambda m: m.nanpercentile(m.asarray([NAN, NAN]), [25, 50]),
    "nanquantile": lambda m: m.nanquantile(m.asarray([[NAN], [2.0]]), 0.5, axis=1),
    "nanmean": lambda m: m.nanmean(m.asarray([[NAN, 1.0], [NAN, 2.0]]), axis=0),
    "nanvar": lambda m: m.nanvar(m.asarray([NAN])),
    "nanvar_ddof": lambda m: m.nanvar(m.asarray([1.0, NAN]), ddof=1),
    "nanstd": lambda m: m.nanstd(m.asarray([NAN, NAN])),
    "nanmin": lambda m: m.nanmin(m.asarray([NAN, NAN])),
    "nanmax_axis": lambda m: m.nanmax(m.asarray([[NAN, 1.0], [NAN, 2.0]]), axis=0),
    "mean_empty": lambda m: m.mean(m.asarray([])),
    "mean_empty_axis": lambda m: m.mean(m.ones((0, 3)), axis=0),
    "mean_where_none": lambda m: m.mean(m.asarray([1.0, 2.0]), where=m.asarray([False, False])),
    "var_empty": lambda m: m.var(m.asarray([])),
    "var_ddof": lambda m: m.var(m.asarray([1.0]), ddof=1),
    "std_ddof": lambda m: m.std(m.asarray([1.0, 2.0]), ddof=2),
    "median_empty": lambda m: m.median(m.asarray([])),
    "cov_one_observation": lambda m: m.cov(m.asarray([1.0])),
}

QUIET = {
    "nanmedian": lambda m: m.nanmedian(m.asarray([[NAN, 3.0], [1.0, 2.0]]), axis=1),
    "nanmean": lambda m: m.nanmean(m.asarray([NAN, 1.0])),
    "nanmax": lambda m: m.nanmax(m.asarray([NAN, 1.0])),
    "mean": lambda m: m.mean(m.asarray([1.0])),
    "var": lambda m: m.var(m.asarray([1.0, 2.0]), ddof=1),
}


def _messages(fn, module):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(module)
    # NumPy's floating-point error warnings ("invalid value encountered")
    # have no kumo counterpart: kumo has no floating-point error state.
    return [(w.category, str(w.message)) for w in caught if "encountered in" not in str(w.message)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_warns_as_numpy(name):
    expected = _messages(CASES[name], numpy)
    assert expected, "the case should warn in NumPy"
    assert _messages(CASES[name], kumo) == expected


@pytest.mark.parametrize("name", sorted(QUIET))
def test_no_warning_when_numpy_has_none(name):
    assert _messages(QUIET[name], kumo) == _messages(QUIET[name], numpy) == []


def test_error_filter_raises():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning, match="Mean of empty slice"):
            kumo.nanmean(kumo.asarray([NAN]))


def test_result_still_nan_after_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert numpy.isnan(float(kumo.nanmedian(kumo.asarray([NAN]))))
