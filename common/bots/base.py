"""The strategy interface: every bot decides from a SeatView alone.

Strategies never receive the Game object, so whatever they compute is, by construction,
something that seat was allowed to know. The server's seat-filling bots, the headless bot
client and the match arena all drive strategies through this one interface.
"""

from __future__ import annotations

import functools
import importlib
import random
import time
from collections.abc import Callable
from typing import Any, Protocol, cast, runtime_checkable

from leekha.common.config import RulesConfig
from leekha.common.game import OVER, PASS, Game
from leekha.common.legality import legal_passes
from leekha.common.view import SeatView, SeatViews, seat_view


@runtime_checkable
class Strategy(Protocol):
    name: str

    def choose_doubles(self, view: SeatView) -> list[int]:
        """Leekha cards to reveal (double) before passing; usually empty."""
        ...

    def choose_pass(self, view: SeatView) -> list[int]:
        """Exactly three cards that form a legal pass."""
        ...

    def choose_play(self, view: SeatView) -> int:
        """One card from `view.legal`."""
        ...


StrategyFactory = Callable[[int], Strategy]


class NeverDoubles:
    """Base of the strategies that keep every Leekha hidden (the random tier, the easy
    level): a random stream of their own, from the seed, and no doubles."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose_doubles(self, view: SeatView) -> list[int]:
        return []


_REGISTRY: dict[str, StrategyFactory] = {}


def register(name: str) -> Callable[[StrategyFactory], StrategyFactory]:
    def wrap(factory: StrategyFactory) -> StrategyFactory:
        _REGISTRY[name] = factory
        return factory

    return wrap


def strategy_names() -> list[str]:
    """Every registered name: the built-in ones in `leekha.common.bots.BUILTIN`'s order
    (levels, then tiers from the weakest), then any a program registered itself."""
    from leekha.common.bots import BUILTIN

    _load_builtins()
    return [n for n in BUILTIN if n in _REGISTRY] + sorted(set(_REGISTRY) - set(BUILTIN))


class StrategyError(ValueError):
    """A strategy that cannot be built, said in words: `template` (English, with
    `{name}`-style holes a client translates) filled from `fields`."""

    def __init__(self, template: str, **fields: object) -> None:
        self.template = template
        self.fields = fields
        super().__init__(template.format(**fields))


#: Every StrategyError's template (a client test keeps its translations in step).
UNKNOWN = "unknown strategy {spec!r}: use one of {names}, or module:Class"
CANNOT_LOAD = "cannot load strategy {spec!r}: {why}"
NOT_A_CLASS = "{spec!r} is not a strategy class: a class that takes a seed is needed"
CANNOT_BUILD = "{spec!r} is not a strategy: building it with a seed failed ({why})"
NO_METHODS = "{spec!r} is not a strategy: it has no choose_doubles, choose_pass and choose_play"
BAD_BUDGET = "bad think budget {budget!r}: use milliseconds"
BUDGET_RANGE = "think budget {budget!r} out of range (0 to 60000 ms)"
NO_BUDGET = "{spec!r} takes no think budget"


def make_strategy(spec: str, seed: int = 0) -> Strategy:
    """Build a strategy by tier or level name (`random`, `heuristic`, `search`, `search1`,
    `easy`, `medium`, `hard`) or `module:Class`.

    A registered name may carry a think budget, `search@10` (10 ms a decision),
    `search@10cpu` (10 ms of CPU time) or `search@0` (no clock: its sample cap only), for
    studies at a scaled-down budget.
    A user class is called with the seed as its only argument, and what it builds must
    have the three methods: anything else is a StrategyError here, before a game starts.
    """
    name, at, budget = spec.partition("@")
    _load_builtins(name)
    if at and name in _REGISTRY:
        return _with_budget(name, budget, seed)
    if spec in _REGISTRY:
        return _REGISTRY[spec](seed)
    if ":" not in spec:
        raise StrategyError(UNKNOWN, spec=spec, names=", ".join(strategy_names()))
    module_name, _, attr = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError, ValueError) as exc:
        raise StrategyError(CANNOT_LOAD, spec=spec, why=exc) from exc
    if not callable(factory):
        raise StrategyError(NOT_A_CLASS, spec=spec)
    try:
        strategy = factory(seed)
    except Exception as exc:  # a user's class: whatever it raises, say so in words
        raise StrategyError(CANNOT_BUILD, spec=spec, why=f"{type(exc).__name__}: {exc}") from exc
    if not isinstance(strategy, Strategy):
        raise StrategyError(NO_METHODS, spec=spec)
    return strategy


def _with_budget(name: str, budget: str, seed: int) -> Strategy:
    """`name@10`: 10 ms of wall time a decision; `name@10cpu`: 10 ms of this process's CPU
    time, which a study on a shared machine needs to measure the same thing every run."""
    cpu = budget.endswith("cpu")
    try:
        think_ms = float(budget.removesuffix("cpu"))
    except ValueError:
        raise StrategyError(BAD_BUDGET, budget=budget) from None
    if not 0 <= think_ms <= 60_000:
        raise StrategyError(BUDGET_RANGE, budget=budget)
    kwargs: dict[str, Any] = {"think_ms": think_ms or None}
    if cpu:
        kwargs["clock"] = time.process_time
    try:
        return _REGISTRY[name](seed, **kwargs)
    except TypeError:
        raise StrategyError(NO_BUDGET, spec=name) from None


def _load_builtins(name: str | None = None) -> None:
    """Import the module that registers `name` (every built-in module when `name` is None,
    or not a built-in name). Tier modules register themselves on import; importing here
    avoids import cycles."""
    from leekha.common.bots import MODULE_OF

    if name in _REGISTRY:
        return
    wanted = [MODULE_OF[name]] if name in MODULE_OF else sorted(set(MODULE_OF.values()))
    for module in wanted:
        try:
            importlib.import_module(f"leekha.common.bots.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"leekha.common.bots.{module}":
                raise


def view_config(view: SeatView) -> RulesConfig:
    """`view.config`, validated once per distinct rule set rather than on every decision
    (and looked up once per change of rules: a match asks with the same rules every time)."""
    global _last_config
    rules, config = _last_config
    if view.rules != rules or config is None:
        config = _config_of(tuple(view.rules.items()))
        _last_config = (dict(view.rules), config)
    return config


_last_config: tuple[dict[str, Any], RulesConfig | None] = ({}, None)


@functools.lru_cache(maxsize=64)
def _config_of(items: tuple[tuple[str, Any], ...]) -> RulesConfig:
    return RulesConfig.from_dict(dict(items))


def random_pass(view: SeatView, rng: random.Random) -> list[int]:
    """A uniformly random legal pass."""
    options = list(legal_passes(view_config(view), view.hand_mask))
    return list(rng.choice(options))


def decide(strategy: Strategy, view: SeatView) -> list[dict[str, object]]:
    """The actions a strategy takes for its seat in this view (empty when not its move).

    Suggestions outside the rules (a bad double) are dropped rather than sent, so a buggy
    strategy cannot make its seat look like a misbehaving client.
    """
    seat = view.seat
    if seat is None or view.phase == OVER:
        return []
    if view.phase == PASS:
        if view.passes_done[seat]:
            return []
        actions: list[dict[str, object]] = [
            {"kind": "double", "seat": seat, "card": c}
            for c in strategy.choose_doubles(view)
            if c in view.can_double
        ]
        actions.append({"kind": "pass", "seat": seat, "cards": list(strategy.choose_pass(view))})
        return actions
    if view.turn != seat:
        return []
    return [{"kind": "play", "seat": seat, "card": strategy.choose_play(view)}]


def play_out(
    game: Game,
    strategies: list[Strategy],
    *,
    rounds: int | None = None,
    fresh_views: bool = False,
) -> Game:
    """Let four strategies play `game` to its end (or for `rounds` more rounds).

    A seat with a single legal card plays it without being asked. Views come from one
    `SeatViews`, which builds each finished trick's record once; `fresh_views` builds
    each from scratch instead (`seat_view`), the reference benchmarks and tests compare with.
    """
    views: SeatViews | _FreshViews = _FreshViews(game) if fresh_views else SeatViews(game)
    stop_round = game.round_no + rounds if rounds is not None else None
    while game.phase != OVER and (stop_round is None or game.round_no < stop_round):
        if game.phase == PASS:
            for mover in [s for s in range(4) if game.passed[s] is None]:
                # Straight to the engine, which checks them as `apply` would.
                for action in decide(strategies[mover], views.view(mover)):
                    if action["kind"] == "double":
                        game.double(mover, cast(int, action["card"]))
                    else:
                        game.pass_cards(mover, cast(list[int], action["cards"]))
            continue
        seat = game.turn
        assert seat is not None
        legal = game.legal_mask(seat)
        if legal & (legal - 1):
            game.play(seat, strategies[seat].choose_play(views.view(seat)))
        else:
            game.play(seat, legal.bit_length() - 1)  # nothing to decide: no view is built
    return game


class _FreshViews:
    def __init__(self, game: Game) -> None:
        self.game = game

    def view(self, seat: int) -> SeatView:
        return seat_view(self.game, seat)
