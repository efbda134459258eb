"""Any .game as a PettingZoo environment (AEC: one agent acts at a time; needs the
`pettingzoo` extra), for the multi-agent RL libraries built on PettingZoo's API.

    from ruledsl.pettingzoo import env
    game = env("examples/tic_tac_toe.game", players=2)
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        action = None if terminated or truncated else \\
            game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

The agents are "seat_0", "seat_1", ...; the agent selected is the seat the pending
decision waits for. An observation is {"observation": the seat's view as numbers
(play/tensor.py, float32), "action_mask": 1 at each legal action id (int8; all 0 for a
seat not to move)}; the action ids are those of OpenSpiel's adapter (play/actions.py:
the same label has the same id in every state; `label_of(action)` names one). Chance is
the environment's own, seeded by `reset(seed=...)`: the same seed and actions give the
same game. Rewards come when the game ends: "win" (the winners share +1, the others -1)
or "score" (each score minus the mean), as OpenSpiel's returns. A game stopped after
`max_steps` decisions is truncated for every seat, with rewards 0. A seat put out of the
game stays among the agents, never selected, until the game ends. An action not in the
mask raises ValueError naming the legal labels.
"""
from __future__ import annotations

import json
import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .pipeline import load_game
from .play.actions import ActionSpace
from .play.mcts import check_returns, seat_returns
from .play.tensor import Layout
from .runtime.machine import Machine, RandomChance
from .syntax import shipped

DEFAULT_MAX_STEPS = 10_000


def env(game: str, players: int | None = None, returns: str = "win", max_steps: int = DEFAULT_MAX_STEPS,
        render_mode: str | None = None) -> "RuledslEnv":
    """The environment of a game by path or shipped name (`ruledsl list`)."""
    return RuledslEnv(game, players, returns, max_steps, render_mode)


class RuledslEnv(AECEnv):
    metadata = {"name": "ruledsl_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, returns: str = "win",
                 max_steps: int = DEFAULT_MAX_STEPS, render_mode: str | None = None):
        super().__init__()
        check_returns(returns)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use 'ansi' or None")
        path = shipped.resolve(str(game))
        if path is None:
            raise FileNotFoundError(f"{game}: no such file, nor a shipped game (`ruledsl list` shows them)")
        self.compiled = load_game(path)
        program = self.compiled.program
        self.players = program.min_players if players is None else players
        if not program.min_players <= self.players <= program.max_players:
            raise ValueError(f"{program.title} takes {program.min_players} to {program.max_players} players, "
                             f"not {self.players}")
        self.returns, self.max_steps, self.render_mode = returns, max_steps, render_mode
        self.layout = Layout(self.compiled, self.players)
        self.actions = ActionSpace(self.compiled)
        self.possible_agents = [f"seat_{s}" for s in range(self.players)]
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions.size) for a in self.possible_agents}
        self.machine = None
        self._seeds = random.Random()  # the games' seeds after a reset without one
        self._legal: dict = {}  # action id -> option index, of the pending decision

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------ a game
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seeds.seed(seed)
        self.machine = Machine(self.compiled.program, self.players, RandomChance(self._seeds.randrange(2 ** 32)),
                               fast=True)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._next()

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.actions.size, np.int8)
        d = self.machine.pending
        if d is not None and d.seat == seat:
            mask[list(self._legal)] = 1
        return {"observation": np.asarray(self.layout.observe(self.machine, seat), np.float32), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = self._legal.get(int(action)) if action is not None else None
        if index is None:
            d = self.machine.pending
            raise ValueError(f"action {action} is not legal for {agent}'s '{d.name}'; legal: "
                             + ", ".join(f"{i} ({d.labels[k]})" for i, k in sorted(self._legal.items())))
        self._cumulative_rewards[agent] = 0.0
        self.machine.choose_index(index)
        if self.machine.pending is not None and self.machine.steps >= self.max_steps:
            self.machine.stop_at_limit(f"step limit: {self.max_steps} decisions")
        self._next()
        self._accumulate_rewards()

    def _next(self):
        """After set-up or a step: the seat the next decision waits for, or the end."""
        m = self.machine
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if m.result is None:
            d = m.pending
            self._legal = {a: i for i, a in enumerate(self.actions.ids(d.labels, d.name))}
            self.agent_selection = self.possible_agents[d.seat]
            return
        self._legal = {}
        if m.result.by_rule:
            paid = seat_returns(m.result, self.players, self.returns)
            self.rewards = {a: float(paid[s]) for s, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.truncations = dict.fromkeys(self.agents, True)
        for a in self.agents:
            self.infos[a] = {"reason": m.result.reason}
        if self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def label_of(self, action: int) -> str | None:
        """The label of action id `action`: the pending decision's option, or else the
        label the id stands for in every state (None for a hashed id)."""
        index = self._legal.get(action)
        if index is not None:
            return self.machine.pending.labels[index]
        return self.actions.label_of(action)

    def render(self):
        """"ansi": the whole state as JSON text (World.snapshot)."""
        if self.render_mode is None or self.machine is None:
            return None
        return json.dumps(self.machine.w.snapshot(), sort_keys=True)

    def close(self):
        pass
