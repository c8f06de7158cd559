"""bench/train_memory.py reports the peak memory of the process that trains, not of the one that started it."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT

MB = 1024 * 1024


@pytest.fixture
def train_memory(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # the spawned child finds the bench module the same way
    import train_memory

    return train_memory


def hold_pages(megabytes: int) -> dict:
    """Touch ``megabytes`` of fresh memory (each page written, so it is resident) and report it."""
    block = bytearray(megabytes * MB)
    block[::4096] = b"x" * len(block[::4096])
    return {"held_mb": len(block) // MB}


def test_the_peak_is_the_childs_own_not_its_parents(train_memory):
    # The parent holds more than the child ever will: getrusage's ru_maxrss in the child reported at least this.
    parent_block = bytearray(600 * MB)
    parent_block[::4096] = b"y" * len(parent_block[::4096])
    result = train_memory.run_in_child(hold_pages, 200)
    assert result["held_mb"] == 200
    assert 200 <= result["peak_rss_mb"] < 450
    del parent_block


def test_a_child_that_dies_is_an_error_not_a_wait_forever(train_memory):
    with pytest.raises(RuntimeError, match="exited with 1 before reporting"):
        train_memory.run_in_child(hold_pages, -1)  # bytearray(-1 MB) raises in the child
