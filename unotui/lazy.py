"""A package's names loaded from their modules on first use (PEP 562).

``unotui.protocol`` and ``unotui.bots`` offer names whose modules solo play's start-up
does not need (the codec and sessions, the hard bot's search): importing the package
loads none of them, and the first use of a name imports its module and keeps the name in
the package, so the lookup happens once.  Standard library only: any layer may use it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["names_from"]


def names_from(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` that loads each name in ``where`` (name ->
    the submodule defining it) on first use."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
