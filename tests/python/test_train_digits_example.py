"""The README's main job, examples/train_digits.py, on a short schedule: it
trains, writes the log, plots and snapshots, and --resume continues from the
latest snapshot instead of starting again."""
import json
import os
import runpy
import sys

import pytest

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "train_digits.py")

pytest.importorskip("sklearn")


def run(argv):
    module = runpy.run_path(EXAMPLE, run_name="train_digits")
    return module["main"](argv)


def test_trains_writes_outputs_and_resumes(tmp_path, capsys):
    out = str(tmp_path / "result")
    assert run(["--epochs", "2", "--out", out, "--no-progress"]) == 0
    files = set(os.listdir(out))
    assert {"log", "snapshot_epoch_1", "snapshot_epoch_2"} <= files
    if "matplotlib" in sys.modules or pytest.importorskip("matplotlib"):
        assert {"loss.png", "accuracy.png"} <= files
    with open(os.path.join(out, "log")) as f:
        log = json.load(f)
    assert [entry["epoch"] for entry in log] == [1, 2]
    assert log[1]["main/loss"] < log[0]["main/loss"]
    assert log[1]["validation/main/accuracy"] > 0.5
    capsys.readouterr()

    assert run(["--epochs", "3", "--out", out, "--no-progress", "--resume"]) == 0
    printed = capsys.readouterr().out
    assert "resuming from" in printed and "snapshot_epoch_2" in printed
    with open(os.path.join(out, "log")) as f:
        log = json.load(f)
    assert [entry["epoch"] for entry in log] == [1, 2, 3]  # continued, not restarted
    assert "snapshot_epoch_1" not in os.listdir(out)  # two snapshots are kept
