"""bench/bench_peer.py's own parts: its reading of its passes, a pair of passes run at once, the core a pass is
pinned to (the benchmark itself is run by hand, never timed in tests)."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_peer  # noqa: E402


def test_drift_note_names_a_machine_whose_speed_moved_during_the_run():
    assert "unseen" in bench_peer.drift_note([101.4])
    steady = bench_peer.drift_note([33.0, 34.5])
    assert "5% apart" in steady and "moved" not in steady
    moved = bench_peer.drift_note([13.8, 15.9, 21.0])
    assert "52% apart" in moved and "moved during the run" in moved
    assert "run again" in moved
    paired = bench_peer.drift_note([16.0, 23.7], side_by_side=True)
    assert "48% apart" in paired and "at the same time" in paired and "run again" not in paired


def test_jobs_run_at_the_same_time_and_a_failure_reaches_the_caller():
    """--side-by-side's pairs: both passes run at once (each waits for the other at a barrier, which
    would time out one after the other), results in order; a pass's failure is raised, not lost in its thread."""
    barrier = threading.Barrier(2, timeout=10)

    def job(name):
        barrier.wait()
        return name

    assert bench_peer.at_once([lambda: job("peer"), lambda: job("ours")]) == ["peer", "ours"]

    def fails():
        bench_peer.fail("the peer's pass exited 1")

    with pytest.raises(SystemExit):
        bench_peer.at_once([fails, lambda: "ours"])


def test_a_pass_runs_on_the_core_it_is_given(tmp_path):
    """Each side of --side-by-side on its own core: the command is pinned where it is told."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        pytest.skip(f"one core here ({cores}): --side-by-side needs two")
    command = [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"]
    for core in map(str, cores[:2]):
        result = bench_peer.timed(command, dict(os.environ), tmp_path / "log", core)
        assert result.stdout.strip() == f"[{core}]"
        assert result.seconds > 0 and result.max_rss_mb > 0
