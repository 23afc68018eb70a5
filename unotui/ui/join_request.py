"""What a join asks for, checked once for both ways in: ``unotui join`` and the menu's form.

A join is an address, a name, a table's code, a password and whether to watch only.  The
command line (:mod:`unotui.ui.join_cli`) and the menu's Join form
(:mod:`unotui.ui.screens.join_form`) both turn what the person typed into a
:class:`JoinRequest` with :func:`check_join`, and both join it with
:func:`unotui.ui.join_cli.joining`: one set of rules for what may be sent, so the form
can never send what the command line would refuse, nor the other way round.

Each check is the one the host itself applies (the name through the protocol's own
cleaner, the code and password within the wire's limits), so a mistake is said on the
spot, beside the field it is in, instead of as a refusal from the far end.  No Textual
here: the command line checks its arguments before it imports a screen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..net.addresses import DEFAULT_PORT, split_address
from ..protocol.errors import RemoteProtocolError
from ..protocol.text import NAME_MAX_CELLS, cells, clean, clean_name

__all__ = ["ADDRESS_MAX", "CODE_MAX", "PASSWORD_MAX", "JoinProblem", "JoinRequest", "check_join", "where"]

#: the longest address taken (a DNS name is at most 253 characters; brackets and a port)
ADDRESS_MAX = 262
#: a table code, as the protocol defines one (``[A-Za-z0-9]{1,12}``, protocol/SPEC.md)
CODE_MAX = 12
_CODE = re.compile(rf"[A-Za-z0-9]{{1,{CODE_MAX}}}")
#: the longest password ``hello`` may carry
PASSWORD_MAX = 128


class JoinProblem(ValueError):
    """What is wrong with one field of a join, as a sentence for the person.

    ``field`` is the field it is in (``address``, ``name``, ``table``, ``password``): the
    form puts the sentence beside that field, the command line names the option.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class JoinRequest:
    """A join, checked: where (``host``, ``port``; ``address`` as it was typed), as whom,
    which table (``""``: a LAN host's only one), with what password, to play or watch."""

    address: str
    host: str
    port: int
    name: str
    table: str = ""
    password: str = ""
    spectate: bool = False


def where(host: str, port: int) -> str:
    """``host:port`` as a person would type it back (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _address(text: str) -> tuple[str, int]:
    if len(text) > ADDRESS_MAX:
        raise JoinProblem("address", f"that address is longer than {ADDRESS_MAX} characters")
    try:
        return split_address(text, DEFAULT_PORT)
    except ValueError as exc:
        raise JoinProblem("address", str(exc)) from None


def _name(text: str) -> str:
    if not text.strip():
        raise JoinProblem("name", f"give your name at the table (1-{NAME_MAX_CELLS} characters)")
    try:
        return clean_name(text)
    except RemoteProtocolError:  # (its sentence is for the far end's log: say it for a person)
        wide = cells(clean(text))
        if not wide:
            raise JoinProblem("name", "that name is only control characters: give letters") from None
        raise JoinProblem("name", f"a name fits in {NAME_MAX_CELLS} characters (wide ones count two); "
                                  f"that one takes {wide}") from None


def _table(text: str) -> str:
    code = text.strip()
    if code and not _CODE.fullmatch(code):
        raise JoinProblem(
            "table",
            f"{code!r}: a code is 1-{CODE_MAX} letters and digits, e.g. K7QMX",
        )
    return code.upper()  # (a lobby makes its codes in capitals; typed in small ones they still find it)


def check_join(
    address: str, name: str, *, table: str = "", password: str = "", spectate: bool = False
) -> JoinRequest:
    """The :class:`JoinRequest` these typed fields make.

    Raises:
        JoinProblem: the first field that is wrong (in the order the form shows them).
    """
    host, port = _address(address)
    checked = _name(name)
    code = _table(table)
    if len(password) > PASSWORD_MAX:
        raise JoinProblem("password", f"a password is at most {PASSWORD_MAX} characters")
    return JoinRequest(address.strip(), host, port, checked, code, password, spectate)
