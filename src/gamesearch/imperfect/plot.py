"""The exploitability curve of a training run, as a PNG (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path


def plot_exploitability(curve: list[tuple[int, float]], path: str | Path, title: str) -> Path:
    """Plot exploitability against iterations on log-log axes and save it to ``path``."""
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
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return Path(path)
