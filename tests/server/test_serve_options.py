"""``mazziere serve``'s options are the server's settings: an option named as a setting takes
its default from :class:`~mazziere.server.settings.Settings` and hands its value to it, so a
default is written once."""

from __future__ import annotations

import inspect
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

import mazziere.server.app
from mazziere.cli import app as cli
from mazziere.cli.server import serve
from mazziere.server.settings import Settings


def served_settings(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> Settings:
    """The settings ``mazziere serve ARGS`` would start the server with (nothing started)."""
    got: list[Settings] = []
    real = mazziere.server.app.create_app

    def create(settings: Settings, *a: Any, **k: Any) -> Any:
        got.append(settings)
        return real(settings, *a, **k)

    monkeypatch.setattr(mazziere.server.app, "create_app", create)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    result = CliRunner().invoke(cli, ["serve", *args])
    assert result.exit_code == 0, result.output
    return got[-1]


def test_every_serve_option_named_as_a_setting_defaults_to_it_and_sets_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    known = {f.name for f in fields(Settings)}
    options = [n for n in inspect.signature(serve).parameters if n in known]
    assert {"limit_raise_hours", "casino_session_cap", "wallet_tries"} <= set(options)
    plain = served_settings(monkeypatch, ["--data", str(tmp_path)])
    assert plain == Settings(data_dir=tmp_path)
    changed = served_settings(
        monkeypatch,
        ["--data", str(tmp_path), "--limit-raise-hours", "2", "--casino-session-cap", "5000",
         "--exclusion-register-timeout", "1.5", "--lease-seconds", "7"],
    )  # fmt: skip
    assert (changed.limit_raise_hours, changed.casino_session_cap) == (2.0, 5000)
    assert (changed.exclusion_register_timeout, changed.lease_seconds) == (1.5, 7.0)
    assert changed.wallet_tries == Settings().wallet_tries
