"""pyarrow without the libraries it imports only to offer conversions from and to them.

Converting builds Arrow from Python values and writes Parquet; it never hands
pyarrow a numpy array or a pandas frame, nor pickles an Arrow object. pyarrow
imports them all the same: numpy and cloudpickle (its pickler, for Arrow
objects that hold Python functions) when pyarrow itself is imported, pandas
on the first ``pa.array`` (to ask whether the input is a pandas object). A
library that is missing is a case pyarrow handles, so here each is hidden
while pyarrow looks for it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager


class _Missing:
    """A meta-path finder that makes ``import <name>`` fail, as if the library were not installed."""

    def __init__(self, name: str):
        self.name = name

    def find_spec(self, name, path=None, target=None):
        if name == self.name:
            raise ImportError(f"{self.name} is not needed here")
        return None


@contextmanager
def _hidden(*names: str) -> Iterator[None]:
    finders = [_Missing(name) for name in names]
    sys.meta_path[:0] = finders
    try:
        yield
    finally:
        for finder in finders:
            sys.meta_path.remove(finder)


def import_arrow_without_numpy() -> None:
    """For a process that only converts (``aceforge convert``): pyarrow imported with numpy and cloudpickle
    hidden, when none of them is imported yet. Importing numpy (and starting its BLAS threads) was a fifth of
    convert's start-up, cloudpickle 6 ms more. pyarrow decides once, on import, that they are missing: its
    numpy functions (``to_numpy``, ``pa.array`` of a numpy array) then fail in this process and it pickles
    with the standard pickle, so only a process that never calls the one nor ships Arrow objects holding
    Python functions may do this."""
    if {"pyarrow", "numpy", "cloudpickle"} & sys.modules.keys():
        return
    with _hidden("numpy", "cloudpickle"):
        import pyarrow  # noqa: F401


def arrow_without_pandas() -> None:
    """pyarrow's first ``pa.array`` imports pandas (half a second) only to ask whether its input is a
    pandas object, which ours never is. When pandas is not imported yet, that one check is let to find
    it missing; pyarrow still imports pandas when something asks for it (to_pandas, from_pandas re-check)."""
    if "pandas" in sys.modules:
        return
    import pyarrow as pa

    with _hidden("pandas"):
        pa.array([], pa.null())
