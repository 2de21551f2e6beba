"""The exploitability curve of a training run, as a PNG (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import IO

from gamesearch.durable import PNG_MARK


def plot_exploitability(curve: list[tuple[int, float]], path: str | Path | IO[bytes],
                        title: str) -> None:
    """Plot exploitability against iterations on log-log axes; save a PNG to ``path`` (a file
    name or a binary handle, so callers can write it atomically)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    points = [(t, e) for t, e in curve if t > 0 and e > 0]
    if points:
        ax.loglog([t for t, _ in points], [e for _, e in points], marker=".")
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability (NashConv / 2)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100, format="png", metadata=PNG_MARK)
    plt.close(fig)
