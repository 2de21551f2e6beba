"""``gamesearch solve pig --plot FILE``: draw Pig's optimal policy (only faces draw)."""

from __future__ import annotations

from gamesearch.engines.pig.solver import PigSolution
from gamesearch.errors import GameSearchError


def plot_policy(solution: PigSolution, path: str) -> str:
    """Save the optimal policy as a picture: the turn total at which to hold, by both
    scores (Neller & Presser's figure, drawn flat as a colour map). Written atomically;
    an existing file is replaced only if it is a picture gamesearch drew."""
    from gamesearch.durable import PNG_MARK, atomic_writer, check_output, png_is_ours

    check_output(path, png_is_ours, what="picture", remedy="choose another --plot name")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = solution.hold_at().astype(float)
    fig, ax = plt.subplots(figsize=(7, 6))
    image = ax.imshow(table, origin="lower", cmap="viridis", aspect="equal",
                      vmin=0, vmax=min(solution.goal, 40))
    ax.set_xlabel("opponent's score j")
    ax.set_ylabel("player's score i")
    ax.set_title(f"Pig to {solution.goal}: optimal hold-at turn total\n"
                 f"(first player wins with probability {solution.win_probability():.4f})")
    fig.colorbar(image, ax=ax, label="hold once the turn total reaches")
    fig.tight_layout()
    try:
        with atomic_writer(path) as handle:
            fig.savefig(handle, dpi=110, format="png", metadata=PNG_MARK)
    except (OSError, ValueError) as err:  # no such folder, an unknown image type
        raise GameSearchError(f"cannot write the plot {path!r}: {err}") from None
    finally:
        plt.close(fig)
    return path
