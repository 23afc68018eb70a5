"""``SeatView`` takes its fields by position or name, with their defaults, and is immutable."""

from __future__ import annotations

import inspect

import pytest

from unotui.engine import Game, Rules, SeatView, seat_view


def test_same_signature_and_defaults_as_the_fields() -> None:
    params = list(inspect.signature(SeatView).parameters.values())
    assert [p.name for p in params] == list(SeatView._fields)
    for p in params:
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        assert p.default == SeatView._field_defaults.get(p.name, inspect.Parameter.empty)


def test_builds_the_same_frozen_view_by_position_or_name() -> None:
    view = seat_view(Game(3, Rules.preset("classic"), seed=4), 1)
    values = {name: getattr(view, name) for name in SeatView._fields}
    by_name, by_position = SeatView(**values), SeatView(*values.values())
    for built in (by_name, by_position, view._replace()):
        assert built == view
        assert all(getattr(built, name) is value for name, value in values.items())
    with pytest.raises(AttributeError):
        by_name.turn = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        SeatView(*list(values.values())[:5])  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        SeatView(**values, nope=1)  # type: ignore[call-arg]
    short = {k: v for k, v in values.items() if k not in ("log", "log_start", "revealed_key")}
    assert SeatView(**short) == view._replace(log=(), log_start=0, revealed_key="")
