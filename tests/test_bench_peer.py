"""bench/bench_peer.py's reading of its own passes (the benchmark itself is run by hand, never timed in tests)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_peer  # noqa: E402


def test_drift_note_names_a_machine_whose_speed_moved_during_the_run():
    assert "unseen" in bench_peer.drift_note([101.4])
    steady = bench_peer.drift_note([33.0, 34.5])
    assert "5% apart" in steady and "moved" not in steady
    moved = bench_peer.drift_note([13.8, 15.9, 21.0])
    assert "52% apart" in moved and "moved during the run" in moved
