"""simulate/compare --backend ray (ruledsl/play/ray_backend.py): seed blocks as Ray tasks.

The Ray test is skipped only when Ray is not installed (the `distributed` extra, which CI installs).
"""
import builtins
import json

import pytest

from support import ROOT, run_cli

pytestmark = pytest.mark.slow  # starts a local Ray cluster

PIG = str(ROOT / "examples" / "pig.game")
TIMING = ("seconds", "playouts_per_second")


def untimed(output: str) -> dict:
    return {k: v for k, v in json.loads(output).items() if k not in TIMING}


def test_a_local_ray_gives_the_summary_of_one_process():
    pytest.importorskip("ray")
    args = ("simulate", PIG, "--games", "30", "--seed", "4", "--json", "--agent", "1=first")
    one = run_cli(*args)
    on_ray = run_cli(*args, "--backend", "ray", "--jobs", "2")
    assert one.exit_code == 0 and on_ray.exit_code == 0, on_ray.output
    assert untimed(on_ray.stdout) == untimed(one.stdout)
    assert untimed(one.stdout)["games"] == 30


def test_without_ray_the_backend_is_refused_with_a_message(monkeypatch):
    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_ray)
    result = run_cli("simulate", PIG, "--games", "2", "--backend", "ray")
    assert result.exit_code == 1
    assert result.stderr == "error: --backend ray needs Ray: pip install 'ruledsl[distributed]'\n"


def test_an_address_needs_the_ray_backend():
    result = run_cli("compare", PIG, PIG, "--games", "2", "--address", "auto")
    assert result.exit_code == 1
    assert result.stderr == "error: --address is for --backend ray\n"
