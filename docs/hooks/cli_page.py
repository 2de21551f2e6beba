"""The command-line reference, written from the typer app's click command tree.

Every command and sub-command of ``gamesearch`` (src/gamesearch/cli/main.py) with its
usage line, its help, its arguments and options as ``--help`` shows them, and its epilog.
"""

from __future__ import annotations

import html
from typing import Any

import click
import typer


def _command_tree() -> Any:
    """The ``gamesearch`` group with every command module loaded."""
    from gamesearch.cli.main import _load_commands, app

    _load_commands(None)
    return typer.main.get_command(app)


def _cell(text: str) -> str:
    """Text for one cell of a markdown table."""
    return _brackets(html.escape(" ".join(text.split())).replace("|", "&#124;"))


def _brackets(text: str) -> str:
    """Square brackets as entities: ``[default: x]`` is no cross-reference to resolve."""
    return text.replace("[", "&#91;").replace("]", "&#93;")


def _help_text(text: str) -> str:
    """A command's help as markdown paragraphs (click's ``\\b`` no-rewrap marks dropped)."""
    lines = [line for line in text.splitlines() if line.strip() != "\b"]
    return _brackets(html.escape("\n".join(lines), quote=False))


def _section(cmd: Any, ctx: click.Context, level: int) -> list[str]:
    path = ctx.command_path
    out = [f"{'#' * level} `{path}`", ""]
    if cmd.help:
        out += [_help_text(cmd.help), ""]
    out += ["```text", cmd.get_usage(ctx), "```", ""]
    rows = [record for param in cmd.get_params(ctx)
            if (record := param.get_help_record(ctx)) is not None]
    if rows:
        out += ["| argument or option | meaning |", "|---|---|"]
        out += [f"| `{_cell(names).replace('`', '')}` | {_cell(help_text)} |"
                for names, help_text in rows]
        out.append("")
    if cmd.epilog:
        out += [_help_text(cmd.epilog), ""]
    if hasattr(cmd, "list_commands"):  # a group (typer's own, not always click's class)
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            out += _section(sub, click.Context(sub, info_name=name, parent=ctx), level + 1)
    return out


def top_level_commands() -> list[str]:
    """The names of the top-level commands (the tests check the page names each)."""
    group = _command_tree()
    ctx = click.Context(group, info_name="gamesearch")
    return [name for name in group.list_commands(ctx)
            if not group.get_command(ctx, name).hidden]


def markdown() -> str:
    """The whole reference page."""
    group = _command_tree()
    ctx = click.Context(group, info_name="gamesearch")
    names = top_level_commands()
    out = ["# Command-line reference", "",
           "Generated from the command tree of `gamesearch` (src/gamesearch/cli/) each time "
           "the site is built, so it says what `gamesearch COMMAND --help` says. "
           "[The command line](../CLI.md) explains the common conventions: bad input, "
           "long jobs, agents as spec strings.", "",
           "Commands: " + ", ".join(f"[`{n}`](#gamesearch-{n})" for n in names) + ".", ""]
    for name in names:
        sub = group.get_command(ctx, name)
        out += _section(sub, click.Context(sub, info_name=name, parent=ctx), 2)
    return "\n".join(out)
