"""What an RL loop pays for a ruledsl game: episodes a second through OpenSpiel's
`rl_environment.Environment` (observation tensors for every seat at every step, as that
environment asks), ruledsl's game through its OpenSpiel adapter against OpenSpiel's own
C++ game of the same name, side by side.

Both are driven by the same loop: at each step the seat to move takes a uniformly random
legal action from one `random.Random`; chance is the environment's own sampler (seeded).
The engines run in turn in 0.2 s slices (bench.measure), and the ratio comes with
bench.py's 95% interval over the paired rounds. It also checks that the returns agree in
distribution (seat 0's wins, draws and losses: bench.agreement) before quoting a ratio.
It reports; nothing asserts a speed.

    python3 benchmarks/rl_env.py [--seconds 2] [--only tic_tac_toe]
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench  # noqa: E402

CLASSICS = ("tic_tac_toe", "kuhn_poker")


def episode(env, rng: random.Random) -> tuple:
    """One episode of random play; the outcome as bench.outcome_of gives it."""
    ts = env.reset()
    while not ts.last():
        seat = ts.observations["current_player"]
        legal = ts.observations["legal_actions"][seat]
        ts = env.step([legal[rng.randrange(len(legal))]])
    return bench.outcome_of(ts.rewards)


def environments(name: str) -> dict:
    """{engine: rl_environment} of one classic: OpenSpiel's C++ game and ruledsl's."""
    from open_spiel.python import rl_environment

    from ruledsl.openspiel.game import load_game
    observation = rl_environment.ObservationType.OBSERVATION  # ruledsl's games give observation tensors
    made = {"OpenSpiel C++": rl_environment.Environment(name, observation_type=observation),
            "ruledsl": rl_environment.Environment(load_game(str(ROOT / "examples" / f"{name}.game")),
                                                  observation_type=observation)}
    for i, env in enumerate(made.values()):
        env.seed(i + 1)
    return made


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--only", action="append", choices=CLASSICS)
    args = parser.parse_args(argv)
    for name in args.only or CLASSICS:
        rng = random.Random(1)
        envs = environments(name)
        results = bench.measure({engine: (lambda env=env: episode(env, rng)) for engine, env in envs.items()},
                                args.seconds, args.games)
        ours, theirs = results["ruledsl"], results["OpenSpiel C++"]
        z, agree = bench.agreement(ours.outcomes, theirs.outcomes)
        print(f"{name} through rl_environment (observation tensors)")
        for engine, m in results.items():
            print(f"  {engine:15s} {m.rate:9.0f} episodes/s   {bench.describe(m.outcomes)}")
        verdict = bench.ratio_text(ours, theirs) if agree else "not quoted: the outcomes differ"
        print(f"  ruledsl/OpenSpiel C++ = {verdict}; outcomes {'agree' if agree else 'differ'} (max |z| {z:.2f})")


if __name__ == "__main__":
    main()
