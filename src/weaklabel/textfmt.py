"""Numbers and parameter values formatted for reading in the reports.

A report prints a regularisation constant as ``1e-4``, not ``0.000100``; a tolerance as
``0.002``, not ``0.0020000``; a grid as ``1e-4, 1e-3, 0.01, 0.1``. :func:`num` formats one
number, :func:`seq` a sequence, :func:`value` any parameter value of ``params.yaml``, and
:func:`param_table` shows chosen parameters of a stage as a two-column table (parameter,
value) that a notebook displays under the static prose naming them.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence

__all__ = ["num", "seq", "value", "param_table", "format_index"]

#: shown for a missing number (None, NaN)
MISSING = "–"
#: outside [SMALL, LARGE) a non-integer number is written in scientific notation
SMALL, LARGE = 1e-3, 1e5


def _check_sig(sig) -> int:
    if isinstance(sig, bool) or not isinstance(sig, numbers.Integral) or sig < 1:
        raise ValueError(f"sig must be a positive integer, got {sig!r}.")
    return int(sig)


def num(x, sig: int = 3) -> str:
    """``x`` for reading: an integer (or a float equal to one below :data:`LARGE`) without a
    decimal point; any other float rounded to ``sig`` significant digits with trailing zeros
    dropped, in scientific notation without padding (``1e-4``, ``2.5e6``) when its magnitude
    is below :data:`SMALL` or at least :data:`LARGE`. None and NaN give :data:`MISSING`,
    infinities ``∞`` / ``−∞``."""
    sig = _check_sig(sig)
    if x is None:
        return MISSING
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(f"x must be a real number or None, got {type(x).__name__}: {x!r}.")
    if isinstance(x, numbers.Integral):
        return str(int(x))
    x = float(x)
    if math.isnan(x):
        return MISSING
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == 0:
        return "0"
    r = float(f"{x:.{sig}g}")  # rounded to sig significant digits
    if abs(r) < SMALL or abs(r) >= LARGE:
        return _sci(r, sig)
    return str(int(r)) if r == int(r) else f"{r:.{sig}g}"


def _sci(x: float, sig: int) -> str:
    mant, exp = f"{float(f'{x:.{sig}g}'):.{sig - 1}e}".split("e")
    return f"{mant.rstrip('0').rstrip('.')}e{int(exp)}"


def _is_float(v) -> bool:
    return (isinstance(v, numbers.Real) and not isinstance(v, (bool, numbers.Integral))
            and math.isfinite(v) and v != 0 and float(v) != int(v))


def seq(values, sig: int = 3, sep: str = ", ") -> str:
    """The items of ``values`` formatted by :func:`value`, joined by ``sep``, in one notation:
    when :func:`num` writes one of its non-integer numbers in scientific notation, all of them
    are (a grid reads ``1e-4, 1e-3, 1e-2, 1e-1``, not ``1e-4, 0.001, 0.01, 0.1``)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(f"values must be a list or tuple, got {type(values).__name__}.")
    sig = _check_sig(sig)
    sci = any(_is_float(v) and "e" in num(v, sig) for v in values)
    return sep.join(_sci(float(v), sig) if sci and _is_float(v) else value(v, sig)
                    for v in values)


def value(v, sig: int = 3, none: str = "none") -> str:
    """A parameter value of ``params.yaml`` for reading: numbers by :func:`num`, lists and
    tuples by :func:`seq`, mappings as ``key: value`` pairs, None as ``none``, booleans as
    ``yes`` / ``no``, anything else as ``str``."""
    if v is None:
        return none
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, numbers.Real):
        return num(v, sig)
    if isinstance(v, (list, tuple)):
        return seq(v, sig) if v else "(empty)"
    if isinstance(v, Mapping):
        return "; ".join(f"{k}: {value(w, sig, none)}" for k, w in v.items()) or "(empty)"
    return str(v)


def param_table(params: Mapping, keys=None, *, sig: int = 3, none: str = "none",
                labels: Mapping | None = None):
    """A DataFrame indexed by ``parameter`` with one column ``value``: the entries ``keys``
    of ``params`` (all of them, in order, when None) formatted by :func:`value`; ``labels``
    maps a key to the text shown in its place (default: the key itself, the name the
    notebook's prose and ``params.yaml`` use)."""
    import pandas as pd

    if not isinstance(params, Mapping):
        raise TypeError(f"params must be a mapping, got {type(params).__name__}.")
    keys = list(params) if keys is None else list(keys)
    missing = [k for k in keys if k not in params]
    if missing:
        raise KeyError(f"keys {missing} are not in params (it has {list(params)}).")
    labels = dict(labels or {})
    return pd.DataFrame({"value": [value(params[k], sig, none) for k in keys]},
                        index=pd.Index([labels.get(k, k) for k in keys], name="parameter"))


def format_index(label, sig: int = 3) -> str:
    """An index or column label for :meth:`pandas.io.formats.style.Styler.format_index`:
    numbers by :func:`num`, anything else unchanged (as ``str``)."""
    if isinstance(label, numbers.Real) and not isinstance(label, bool):
        return num(label, sig)
    return str(label)
