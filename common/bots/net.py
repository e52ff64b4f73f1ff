"""The value network: NumPy inference of the shipped weights, and the `net` tier.

The network scores a candidate move (a card, or a pass) in a seat's information state
(`features`) with the points the seat, or its team, is expected to take in the round when
it makes that move and play goes on as in self-play. It was trained by Deep Monte-Carlo
(`bench/train.py`, docs/bots.md): every decision of self-play games is a sample, its
target the round's points as they came out.

The weights are package data (`net.npz`, about a megabyte), read once, on first use: the
one file the package reads, as the client reads its message catalogues. The file holds
its layout and version, and a SHA-256 digest of its arrays that is checked on loading, so
a damaged or mismatched file is refused with a message rather than played.

`net` is the network's own choice with no search: for a card, the candidate it scores
lowest; for the pass, the lowest of the heuristic's best `PASS_CANDIDATES` passes; the
doubles are the heuristic's.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import random
import zipfile
from importlib import resources
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from leekha.common import cards as C
from leekha.common.bots.base import register, view_config
from leekha.common.bots.features import (
    CANDIDATE_ROWS,
    LAYOUT,
    WIDTH,
    Position,
    candidate_inputs,
    encode,
    position,
)
from leekha.common.bots.heuristic import ranked_passes, safe_doubles
from leekha.common.bots.tracker import Tracker
from leekha.common.view import SeatView

Floats = NDArray[np.float32]
Ints = NDArray[np.intp]

WEIGHTS_FILE: Final = "net.npz"
# A weights file to use in place of the shipped one (trained weights under evaluation, an
# expert's network while labelling): read by `shipped`, so every tier that uses the
# network, in this process and in the worker processes it starts, plays these weights.
WEIGHTS_ENV: Final = "LEEKHA_NET_WEIGHTS"
PASS_CANDIDATES: Final = 12


class WeightsError(ValueError):
    """The weights file is damaged, or was made for another feature layout."""


def digest_of(arrays: list[Floats]) -> str:
    """SHA-256 of the layers' shapes and bytes, in order."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(repr(a.shape).encode())
        h.update(np.ascontiguousarray(a, dtype="<f4").tobytes())
    return h.hexdigest()


class Network:
    """A ReLU perceptron: `layers` alternate weight matrices and bias vectors."""

    __slots__ = ("_cand", "layers", "meta")

    def __init__(self, layers: list[Floats], meta: dict[str, Any]) -> None:
        self.layers = [np.ascontiguousarray(a, dtype=np.float32) for a in layers]
        self.meta = meta
        self._cand: Floats | None = None

    @property
    def digest(self) -> str:
        return digest_of(self.layers)

    def __call__(self, x: Floats) -> Floats:
        """Expected points for each full input row of `x`, shape (n,)."""
        return self._rest(x @ self.layers[0] + self.layers[1])

    def score(self, base: Floats, owner: Ints, cand: Floats) -> Floats:
        """`__call__` of rows that differ only in their candidate's inputs, at the cost of
        one small row each: `base` holds each position with no candidate (r, WIDTH),
        `owner[i]` the position of candidate i and `cand` its inputs (`candidate_inputs`).
        The first layer is linear, so a candidate adds its inputs' weight rows to its
        position's sum."""
        w0 = self.layers[0]
        h = (base @ w0)[owner] + cand @ self._candidate_weights() + self.layers[1]
        return self._rest(h)

    def _candidate_weights(self) -> Floats:
        if self._cand is None:
            self._cand = np.ascontiguousarray(self.layers[0][list(CANDIDATE_ROWS)])
        return self._cand

    def _rest(self, h: Floats) -> Floats:
        layers = self.layers
        for i in range(2, len(layers), 2):
            np.maximum(h, 0.0, out=h)
            h = h @ layers[i] + layers[i + 1]
        return h[:, 0] * np.float32(self.meta.get("scale", 1.0))

    @classmethod
    def mean(cls, members: list[Network], meta: dict[str, Any]) -> Network:
        """One perceptron whose output is the mean of `members`' outputs (an ensemble).

        Members of the same depth sit side by side: their first layers concatenated, each
        later hidden layer block-diagonal (no member sees another's units), and the last
        layer their outputs summed with weight 1/k (each member's scale carried). So
        inference stays the one NumPy path, and the file format, digest and layout check
        are unchanged.
        """
        depth = len(members[0].layers)
        if any(len(m.layers) != depth for m in members):
            raise ValueError("an ensemble's members must have the same depth")
        k = len(members)
        scales = [float(m.meta.get("scale", 1.0)) for m in members]
        layers: list[Floats] = [
            np.concatenate([m.layers[0] for m in members], axis=1),
            np.concatenate([m.layers[1] for m in members]),
        ]
        for i in range(2, depth - 2, 2):
            blocks = [m.layers[i] for m in members]
            w = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)))
            r = c = 0
            for b in blocks:
                w[r : r + b.shape[0], c : c + b.shape[1]] = b
                r, c = r + b.shape[0], c + b.shape[1]
            layers += [w.astype(np.float32), np.concatenate([m.layers[i + 1] for m in members])]
        # The output keeps the members' scale when they share one (as trained networks
        # do), so the ensemble can be trained on from where it stands (`--init`).
        scale = scales[0] if len(set(scales)) == 1 else 1.0
        pairs = list(zip(members, scales, strict=True))
        last = [m.layers[depth - 2] * (s / (k * scale)) for m, s in pairs]
        bias = sum(float(m.layers[depth - 1][0]) * s for m, s in pairs) / (k * scale)
        layers += [np.concatenate(last, axis=0), np.array([bias], dtype=np.float32)]
        return cls(layers, dict(meta, scale=scale))

    def to_bytes(self) -> bytes:
        meta = dict(self.meta, digest=self.digest, layout=LAYOUT, width=self.layers[0].shape[0])
        arrays: dict[str, Any] = {f"layer{i}": a for i, a in enumerate(self.layers)}
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> Network:
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                meta = json.loads(bytes(npz["meta"]).decode())
                count = sum(1 for name in npz.files if name.startswith("layer"))
                layers = [npz[f"layer{i}"] for i in range(count)]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise WeightsError(f"not a weights file: {exc}") from None
        if meta.get("layout") != LAYOUT or meta.get("width") != WIDTH:
            raise WeightsError(
                f"weights for feature layout {meta.get('layout')} ({meta.get('width')} inputs);"
                f" this version encodes layout {LAYOUT} ({WIDTH} inputs)"
            )
        network = cls(layers, meta)
        if network.digest != meta.get("digest"):
            raise WeightsError("weights file damaged: its digest does not match its arrays")
        return network


@functools.cache
def shipped() -> Network:
    """The weights that ship with the package, or the file `LEEKHA_NET_WEIGHTS` names."""
    path = os.environ.get(WEIGHTS_ENV)
    if not path:
        data = resources.files("leekha.common.bots").joinpath(WEIGHTS_FILE).read_bytes()
        return Network.from_bytes(data)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise WeightsError(f"cannot read {WEIGHTS_ENV}={path}: {exc.strerror}") from None
    return Network.from_bytes(data)


def scores(network: Network, where: Position, candidates: list[int]) -> Floats:
    """The expected points of each candidate move in one position."""
    base = encode(where, [0])
    owner = np.zeros(len(candidates), dtype=np.intp)
    return network.score(base, owner, candidate_inputs([where] * len(candidates), candidates))


def best(network: Network, where: Position, candidates: list[int]) -> int:
    """Index of the candidate with the fewest expected points (the first on ties)."""
    return int(np.argmin(scores(network, where, candidates)))


class NetStrategy:
    name = "net"

    def __init__(self, seed: int = 0, network: Network | None = None) -> None:
        self.rng = random.Random(seed)
        self.network = network or shipped()
        self._trackers: dict[int, Tracker] = {}

    def choose_doubles(self, view: SeatView) -> list[int]:
        if not view.can_double:
            return []
        return safe_doubles(view_config(view), view.hand_mask, list(view.can_double))

    def choose_pass(self, view: SeatView) -> list[int]:
        keep = C.mask_of(self.choose_doubles(view))
        keep |= C.mask_of(c for c, s in view.doubled if s == view.seat)
        passes = ranked_passes(view_config(view), view.hand_mask, keep, PASS_CANDIDATES)
        where = position(view, self._tracker(view))
        return list(passes[best(self.network, where, [C.mask_of(p) for p in passes])])

    def choose_play(self, view: SeatView) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        where = position(view, self._tracker(view))
        return legal[best(self.network, where, [C.BIT[c] for c in legal])]

    def _tracker(self, view: SeatView) -> Tracker:
        assert view.seat is not None
        tracker = Tracker(view, since=self._trackers.get(view.seat))
        self._trackers[view.seat] = tracker
        return tracker


register("net")(NetStrategy)
