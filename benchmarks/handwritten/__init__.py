"""Hand-written, plain-Python versions of some ruledsl games: the speed baselines of
benchmarks/bench.py (issue 12). Each module has `play(players, rng) -> (decisions,
end reason, winners)`: one game between uniformly random agents, offered the same
options at the same decision points as ruledsl offers them, chance drawn from `rng`.
They play the same rules, not the same games: bench.py checks that the distributions
of game length, end reasons and winners agree before it quotes a speed ratio.
"""
