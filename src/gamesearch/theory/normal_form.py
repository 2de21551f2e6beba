"""Normal-form (strategic) games: one payoff array per player, named players and strategies.

The lectures write a two-player game as a matrix whose cells hold one payoff per player;
here an N-player game is a numpy array ``payoffs`` of shape ``(N, s_1, ..., s_N)``:
``payoffs[i][a_1, ..., a_N]`` is player i's payoff when each player j plays strategy a_j.
A zero-sum game is given by the row player's matrix alone (:meth:`NormalFormGame.zero_sum`),
a bimatrix game by two matrices (:meth:`NormalFormGame.bimatrix`).

When every payoff is an integer (or a fraction), the game is *exact*: ``exact_payoffs``
holds the same numbers as Fractions and the solvers answer in exact rationals.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from gamesearch.errors import GameSearchError
from gamesearch.theory.exact import Number, exact_array

_ZERO = Fraction(0)
"""One shared zero for the pure strategies' many zero probabilities (Fractions are immutable)."""

Mixed = Sequence[Number]
"""A mixed strategy: one probability per pure strategy of a player."""

Profile = tuple[tuple[Number, ...], ...]
"""A mixed-strategy profile: one probability tuple per player, in strategy order."""


class NormalFormGame:
    """An N-player game in normal form with named players and strategies."""

    def __init__(
        self,
        payoffs: Any,
        players: Sequence[str] | None = None,
        strategies: Sequence[Sequence[str]] | None = None,
        title: str = "",
    ) -> None:
        exact = exact_array(payoffs)
        try:
            floats = np.asarray(payoffs, dtype=float)
        except (TypeError, ValueError) as err:
            raise GameSearchError(f"game {title or 'payoffs'}: payoffs are not numbers: {err}") \
                from None
        where = f"game {title!r}" if title else "game"
        if floats.ndim < 2 or floats.shape[0] != floats.ndim - 1:
            raise GameSearchError(
                f"{where}: payoffs must have shape (N, s_1, ..., s_N), got {floats.shape}")
        if floats.shape[0] < 1 or 0 in floats.shape:
            raise GameSearchError(f"{where}: every player needs at least one strategy")
        if not np.all(np.isfinite(floats)):
            bad = tuple(int(i) for i in np.argwhere(~np.isfinite(floats))[0])
            raise GameSearchError(f"{where}: payoff of player {bad[0] + 1} at profile "
                                  f"{tuple(b + 1 for b in bad[1:])} is not a finite number")
        self.payoffs: np.ndarray = floats
        self.exact_payoffs: np.ndarray | None = exact
        self.title = title
        n = floats.shape[0]
        self.players: list[str] = (
            list(players) if players is not None else [f"Player {i + 1}" for i in range(n)]
        )
        if len(self.players) != n:
            raise GameSearchError(f"{where}: {len(self.players)} player names for {n} players")
        shape = floats.shape[1:]
        if strategies is None:
            strategies = [[str(k + 1) for k in range(s)] for s in shape]
        self.strategies: list[list[str]] = [list(map(str, names)) for names in strategies]
        if [len(s) for s in self.strategies] != list(shape):
            raise GameSearchError(f"{where}: strategy names {[len(s) for s in self.strategies]}"
                                  f" do not match the payoff shape {list(shape)}")

    # --- shortcuts --------------------------------------------------------------------
    @classmethod
    def bimatrix(cls, row: Any, column: Any, **names: Any) -> NormalFormGame:
        """A two-player game from the row player's and the column player's matrices."""
        a, b = np.asarray(row, dtype=object), np.asarray(column, dtype=object)
        if a.ndim != 2 or a.shape != b.shape:
            raise GameSearchError(f"bimatrix game: matrices of shapes {a.shape} and {b.shape}; "
                                  "both must be 2-D and of the same shape")
        return cls(np.stack([a, b]), **names)

    @classmethod
    def zero_sum(cls, matrix: Any, **names: Any) -> NormalFormGame:
        """A two-player zero-sum game from the row player's matrix (the column player gets
        the negative)."""
        a = np.asarray(matrix, dtype=object)
        if a.ndim != 2:
            raise GameSearchError(f"zero-sum game: the matrix must be 2-D, got shape {a.shape}")
        return cls(np.stack([a, -a]), **names)

    # --- shape ------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """N, the number of players."""
        return self.payoffs.shape[0]

    @property
    def shape(self) -> tuple[int, ...]:
        """The number of pure strategies of each player."""
        return self.payoffs.shape[1:]

    @property
    def exact(self) -> bool:
        """True when every payoff is an integer or fraction: answers are exact rationals."""
        return self.exact_payoffs is not None

    @property
    def is_zero_sum(self) -> bool:
        """True for two-player games whose payoffs sum to zero in every cell."""
        if self.num_players != 2:
            return False
        if self.exact:
            return bool(np.all(self.exact_payoffs[0] + self.exact_payoffs[1] == 0))
        return bool(np.allclose(self.payoffs[0], -self.payoffs[1], atol=1e-12))

    def matrix(self, player: int) -> np.ndarray:
        """Player ``player``'s payoff array: exact Fractions when the game is exact."""
        return self.exact_payoffs[player] if self.exact else self.payoffs[player]

    # --- payoffs of profiles ----------------------------------------------------------
    def payoff(self, profile: Sequence[int]) -> tuple[Number, ...]:
        """Every player's payoff at a pure profile (strategy indices)."""
        return tuple(self.matrix(i)[tuple(profile)] for i in range(self.num_players))

    def strategy_payoffs(self, player: int, profile: Sequence[Any]) -> list[Number]:
        """Player ``player``'s payoff for each of its pure strategies when everyone else plays
        ``profile`` (entries: a strategy index or a mixed strategy; the player's own is
        ignored). This is what a best response maximizes."""
        mixes = {j: self._as_mixed(j, profile[j]) for j in range(self.num_players) if j != player}
        exact = self.exact and all(m.dtype == object for m in mixes.values())
        array = self.exact_payoffs[player] if exact else self.payoffs[player]
        # Contract the other players' axes from the last to the first, so indices stay put.
        for j in reversed(range(self.num_players)):
            if j == player:
                continue
            mix = mixes[j] if exact else mixes[j].astype(float)
            support = np.flatnonzero(mix != 0)
            if len(support) == 1 and mix[support[0]] == 1:  # a pure strategy: its slice
                array = np.take(array, int(support[0]), axis=j)  # (exact Fractions summed
                continue  # over a 40 x 2001 game took a second per profile)
            array = np.tensordot(array, mix, axes=([j], [0]))
        return list(array)

    def expected_payoffs(self, profile: Sequence[Any]) -> tuple[Number, ...]:
        """Every player's expected payoff under a (mixed or pure) profile."""
        out = []
        for i in range(self.num_players):
            values = self.strategy_payoffs(i, profile)
            mix = self._as_mixed(i, profile[i])  # the support only: a pure profile of a
            out.append(sum((p * v for p, v in zip(mix, values) if p),  # 40 x 2001 game
                           start=values[0] * 0))  # summed 2001 Fractions per player
        return tuple(out)

    def _as_mixed(self, player: int, strategy: Any) -> np.ndarray:
        size = self.shape[player]
        if isinstance(strategy, (int, np.integer)):
            if not 0 <= strategy < size:
                raise GameSearchError(f"{self.players[player]} has no strategy {strategy + 1}")
            mix = [0] * size
            mix[int(strategy)] = 1
        else:
            mix = list(strategy)
            if len(mix) != size:
                raise GameSearchError(f"{self.players[player]}: a mixed strategy needs {size} "
                                      f"probabilities, got {len(mix)}")
        if self.exact and all(isinstance(p, (int, Fraction)) for p in mix):
            return np.array([Fraction(p) if p else _ZERO for p in mix], dtype=object)
        return np.array([float(p) for p in mix], dtype=float)

    # --- changes ----------------------------------------------------------------------
    def restrict(self, keep: Sequence[Sequence[int]]) -> NormalFormGame:
        """The game in which player i may only use the strategies ``keep[i]``."""
        index = np.ix_(*[list(k) for k in keep])
        source = self.exact_payoffs if self.exact else self.payoffs
        payoffs = np.stack([source[i][index] for i in range(self.num_players)])
        strategies = [[self.strategies[i][k] for k in keep[i]] for i in range(self.num_players)]
        return NormalFormGame(payoffs, self.players, strategies, self.title)

    def transpose_players(self) -> NormalFormGame:
        """The two-player game seen from the other side (rows and columns swapped)."""
        if self.num_players != 2:
            raise GameSearchError("only a two-player game can swap its players")
        source = self.exact_payoffs if self.exact else self.payoffs
        payoffs = np.stack([source[1].T, source[0].T])
        return NormalFormGame(payoffs, self.players[::-1], self.strategies[::-1], self.title)

    def profile_name(self, profile: Sequence[int]) -> str:
        """A pure profile written with strategy names: ``(U, L)``."""
        return "(" + ", ".join(self.strategies[i][a] for i, a in enumerate(profile)) + ")"

    def __repr__(self) -> str:
        size = "x".join(map(str, self.shape))
        kind = "exact" if self.exact else "float"
        return f"NormalFormGame({self.title or 'untitled'!r}, {size}, {kind})"
