"""``SeatView``'s ``__init__`` takes its fields by position or name, with their defaults."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from unotui.engine import Game, Rules, SeatView, seat_view


def test_same_signature_and_defaults_as_the_fields() -> None:
    params = list(inspect.signature(SeatView).parameters.values())
    fields = dataclasses.fields(SeatView)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        assert p.default == (inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)


def test_builds_the_same_frozen_view_by_position_or_name() -> None:
    view = seat_view(Game(3, Rules.preset("classic"), seed=4), 1)
    values = {f.name: getattr(view, f.name) for f in dataclasses.fields(SeatView)}
    by_name, by_position = SeatView(**values), SeatView(*values.values())
    for built in (by_name, by_position, dataclasses.replace(view)):
        assert built == view
        assert all(getattr(built, name) is value for name, value in values.items())
    with pytest.raises(dataclasses.FrozenInstanceError):
        by_name.turn = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        SeatView(*list(values.values())[:5])  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        SeatView(**values, nope=1)  # type: ignore[call-arg]
    short = {k: v for k, v in values.items() if k not in ("log", "log_start", "revealed_key")}
    assert SeatView(**short) == dataclasses.replace(view, log=(), log_start=0, revealed_key="")
