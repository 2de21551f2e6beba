"""The web app: play against the AI and watch it think, step through search trees, analyse
matrix games. ``gamesearch serve`` starts it; :func:`create_app` builds it (docs/WEB.md)."""

from __future__ import annotations


def create_app(workers: int | None = None, warm: bool = True,
               programs: dict[str, list[str]] | None = None):
    """The FastAPI application (imported lazily: the web extras are optional); see
    :func:`gamesearch.web.app.create_app`."""
    from gamesearch.web.app import create_app as build

    return build(workers, warm, programs)


__all__ = ["create_app"]
