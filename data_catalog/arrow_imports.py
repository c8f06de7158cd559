"""pyarrow without the libraries it imports only to offer conversions from and to them.

Converting builds Arrow from Python values and writes Parquet; it never hands
pyarrow a numpy array or a pandas frame. pyarrow imports both all the same:
numpy when pyarrow itself is imported, pandas on the first ``pa.array`` (to
ask whether the input is a pandas object). A library that is missing is a
case pyarrow handles, so here each is hidden while pyarrow looks for it.
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
def _hidden(name: str) -> Iterator[None]:
    finder = _Missing(name)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


def import_arrow_without_numpy() -> None:
    """For a process that only converts (``aceforge convert``): pyarrow imported with numpy hidden, when neither
    is imported yet. Importing numpy (and starting its BLAS threads) was a fifth of convert's start-up. pyarrow
    decides once, on import, that numpy is missing: its numpy functions (``to_numpy``, ``pa.array`` of a numpy
    array) then fail in this process, so only a process that never calls them may do this."""
    if "pyarrow" in sys.modules or "numpy" in sys.modules:
        return
    with _hidden("numpy"):
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
