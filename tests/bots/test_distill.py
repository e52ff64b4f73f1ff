"""Distillation (issue 39): decisions labelled by the search, stored, read back, trained on.

The labelling side is NumPy and runs everywhere; the training side needs PyTorch (the
`[train]` extra) and is skipped, with the reason, where it is not installed (CI).
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from leekha.common import cards as C
from leekha.common.bots import net as net_module
from leekha.common.bots.features import encode, position
from leekha.common.bots.labels import Decisions, Labeller, concat, inputs, label_games
from leekha.common.bots.net import WEIGHTS_ENV, Network, WeightsError, shipped
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.search1 import Search1Strategy
from leekha.common.config import PRESETS
from leekha.common.game import PASS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from distill import label_shard, load_shards
from helpers.bots import choice_views

views = choice_views


def expert(seed: int) -> SearchStrategy:
    return SearchStrategy(seed, think_ms=None, max_samples=10)


def roundtrip(arrays: dict[str, Any]) -> dict[str, Any]:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    buffer.seek(0)
    with np.load(buffer, allow_pickle=False) as npz:
        return {k: npz[k] for k in npz.files}


@pytest.mark.parametrize("preset", ["classic", "partnership", "idlib"])
def test_labelled_rows_are_the_features_and_the_choice_is_the_searchs(preset: str) -> None:
    out = Decisions()
    expected: list[tuple[np.ndarray[Any, Any], int, list[float]]] = []
    for i, view in enumerate(views(preset, 7)):
        labeller = Labeller(expert(i), out, random.Random(0), explore=0.0)
        twin = expert(i)  # the same search, unlabelled: its choice must be the labeller's
        before = len(out)
        if view.phase == PASS:
            labeller.choose_doubles(view)
            passed = labeller.choose_pass(view)
            twin.choose_doubles(view)
            assert passed == twin.choose_pass(view)
            if len(out) == before:
                continue
            doubles = sorted(twin.choose_doubles(view))
            same = [i for i, (d, _) in enumerate(twin.last_options) if sorted(d) == doubles]
            cands = [C.mask_of(twin.last_options[i][1]) for i in same]
            values = [twin.last_means[i] for i in same]
            chosen = C.mask_of(passed)
        else:
            card = labeller.choose_play(view)
            assert card == twin.choose_play(view)
            if len(out) == before:
                assert not twin.last_moves  # nothing to search: nothing labelled
                continue
            cands = [C.BIT[m] for m in twin.last_moves]
            values = list(twin.last_means)
            chosen = C.BIT[card]
        assert len(out) == before + 1
        expected.append((encode(position(view), cands), cands.index(chosen), values))
    data = roundtrip(out.arrays())
    assert len(expected) > 10 and data["is_pass"].any() and not data["is_pass"].all()
    for k, (rows, choice, values) in enumerate(expected):
        x, _, cand = inputs(data, np.array([k]))
        np.testing.assert_array_equal(x, rows)
        assert int(data["choice"][k]) == choice
        np.testing.assert_allclose(data["values"][cand], values, rtol=1e-6)


def test_shards_concatenate_to_the_same_rows() -> None:
    deals = [(PRESETS["classic"], 3), (PRESETS["golden"], 4)]
    a = label_games(expert, deals[:1], 1, max_rounds=1).arrays()
    b = label_games(expert, deals[1:], 2, max_rounds=1).arrays()
    both = concat([roundtrip(a), roundtrip(b)])
    n = len(a["choice"])
    assert len(both["choice"]) == n + len(b["choice"])
    x_b, _, _ = inputs(b, np.arange(len(b["choice"])))
    x_both, _, cand = inputs(both, np.arange(n, len(both["choice"])))
    np.testing.assert_array_equal(x_both, x_b)
    np.testing.assert_array_equal(both["values"][cand], b["values"])


def test_search1_reports_the_values_it_chose_by() -> None:
    for i, view in enumerate(v for v in views("classic", 11) if v.phase != PASS):
        bot = Search1Strategy(i, think_ms=None, max_samples=6)
        card = bot.choose_play(view)
        if bot.last_moves:
            best = max(range(len(bot.last_means)), key=bot.last_means.__getitem__)
            assert bot.last_moves[best] == card


def test_a_shard_is_written_once_and_reads_back(tmp_path: Path) -> None:
    opts = {
        "out": str(tmp_path),
        "seed": 5,
        "games": 1,
        "expert": "search",
        "samples": 6,
        "net": None,
        "explore": 0.1,
        "heuristic_share": 0.25,
        "max_rounds": 1,
    }
    done = label_shard((opts, 3))
    data, metas = load_shards(tmp_path)
    assert [m["shard"] for m in metas] == [3] and metas[0]["shard_seed"] == 5 * 1_000_003 + 3
    assert len(data["choice"]) == done["decisions"] > 0
    again = label_shard((opts, 3))  # the same seed labels the same decisions
    assert again["decisions"] == done["decisions"]
    np.testing.assert_array_equal(load_shards(tmp_path)[0]["values"], data["values"])


def test_the_weights_file_named_in_the_environment_is_used_or_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layers = [np.full((933, 4), 0.01, "f4"), np.zeros(4, "f4")]
    layers += [np.ones((4, 1), "f4"), np.zeros(1, "f4")]
    path = tmp_path / "net.npz"
    path.write_bytes(Network(layers, {"scale": 1.0, "version": "tiny"}).to_bytes())
    monkeypatch.setenv(WEIGHTS_ENV, str(path))
    shipped.cache_clear()
    try:
        assert shipped().meta["version"] == "tiny"
        path.write_bytes(b"not weights")
        shipped.cache_clear()
        with pytest.raises(WeightsError):
            shipped()
        monkeypatch.setenv(WEIGHTS_ENV, str(tmp_path / "absent.npz"))
        shipped.cache_clear()
        with pytest.raises(WeightsError, match="cannot read"):
            shipped()
    finally:
        monkeypatch.delenv(WEIGHTS_ENV)
        shipped.cache_clear()
    assert net_module.shipped().meta["version"] != "tiny"


# ---- training (PyTorch) ---------------------------------------------------------------


@pytest.fixture
def one_thread() -> Any:
    """Torch on one thread: on a shared machine its default pool is many times slower."""
    torch = pytest.importorskip("torch", reason="training needs the [train] extra (PyTorch)")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield torch
    torch.set_num_threads(threads)


def toy_data() -> dict[str, Any]:
    deals = [(PRESETS["classic"], 21), (PRESETS["partnership"], 22)]
    return label_games(expert, deals, 3, max_rounds=1).arrays()


def test_training_reduces_the_loss_and_exports_what_numpy_computes(
    tmp_path: Path, one_thread: Any
) -> None:
    torch = one_thread
    import argparse

    from apprentice import Run, losses, to_network

    data = toy_data()
    args = argparse.Namespace(hidden="32,16", seed=1, lr=3e-3, weight_decay=0.0)
    run = Run(args)
    idx = np.arange(len(data["choice"]))
    with torch.no_grad():
        first = [float(t) for t in losses(run.model, data, idx, 1.0)[:2]]
    for _ in range(150):
        v, c, _ = losses(run.model, data, idx, 1.0)
        run.opt.zero_grad()
        (v + c).backward()
        run.opt.step()
    with torch.no_grad():
        last = [float(t) for t in losses(run.model, data, idx, 1.0)[:2]]
    assert last[0] < first[0] / 2 and last[1] < first[1]
    network = Network.from_bytes(to_network(run.model, {"version": "toy"}).to_bytes())
    x, _, _ = inputs(data, idx)
    with torch.no_grad():
        want = run.model(torch.from_numpy(x))[:, 0].numpy() * 10.0
    np.testing.assert_allclose(network(x), want, rtol=1e-5, atol=1e-5)
    run.save(tmp_path / "checkpoint.pt")
    again = Run(args)
    again.load(tmp_path / "checkpoint.pt")
    assert to_network(again.model, {}).digest == to_network(run.model, {}).digest


def test_the_shipped_weights_go_into_torch_unchanged(one_thread: Any) -> None:
    torch = one_thread
    import argparse

    from apprentice import Run

    run = Run(argparse.Namespace(hidden=None, init="shipped", seed=1, lr=1e-3, weight_decay=0.0))
    run.init_weights("shipped")
    x, _, _ = inputs(toy_data(), np.arange(5))
    with torch.no_grad():
        got = run.model(torch.from_numpy(x))[:, 0].numpy() * shipped().meta["scale"]
    np.testing.assert_allclose(got, shipped()(x), rtol=1e-5, atol=1e-4)
