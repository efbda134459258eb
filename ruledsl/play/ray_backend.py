"""Simulation beyond one machine: seed blocks played as Ray tasks (the `distributed` extra).

    ruledsl simulate GAME --backend ray [--address ADDR] --jobs 16

The seeds are cut into blocks exactly as for `--jobs` processes (simulate.py); each
block is one Ray task that loads the game file by path and plays it (so the file
must be readable at that path on every node, as must any plug-in agent's module),
and the block summaries are merged in seed order, so the summary is the one
`--jobs 1` gives (only `seconds` differs). Without an address a local Ray is
started in this process and stopped afterwards; with one, the cluster at ADDR
is joined (e.g. `auto`, or `ray://head:10001`).
"""
from __future__ import annotations

import msgspec

from ..errors import UserError


class RayMissing(UserError):
    """Ray is not installed."""


class RayBackend(msgspec.Struct, frozen=True):
    address: str | None = None

    def run(self, blocks: list, progress=None) -> list:
        ray = _ray()
        started = not ray.is_initialized()
        if started:
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False)
        try:
            return _gather(ray, blocks, progress)
        finally:
            if started:
                ray.shutdown()


def ray_backend(address: str | None) -> RayBackend:
    """A Ray backend, after checking that Ray can be imported (RayMissing if not)."""
    _ray()
    return RayBackend(address)


def _ray():
    try:
        import ray
    except ImportError:
        raise RayMissing("--backend ray needs Ray: pip install 'ruledsl[distributed]'") from None
    return ray


def _play(block):
    from .simulate import _play_block_in_worker
    return _play_block_in_worker(block)


def _gather(ray, blocks: list, progress) -> list:
    task = ray.remote(_play)
    futures = [task.remote(block) for block in blocks]
    if progress is not None:
        waiting = list(futures)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            progress(ray.get(done[0]).games)
    return ray.get(futures)  # in block (seed) order
