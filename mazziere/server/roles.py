"""Who may do what in the back office (docs/operators.md): the one table of roles and their
permissions. The server checks it on every back-office route (``require`` in
:mod:`mazziere.server.routes.deps`), and ``GET /api/admin/me`` and the console derive from it."""

from __future__ import annotations

from mazziere.errors import MazziereError

PLAYER = "player"
SUPPORT = "support"
OPERATOR = "operator"
AUDITOR = "auditor"
ADMIN = "admin"
ROLES = (PLAYER, SUPPORT, OPERATOR, AUDITOR, ADMIN)
"""Every role, a player's first; an account is a player unless made otherwise."""

STAFF = (SUPPORT, OPERATOR, AUDITOR, ADMIN)
"""The back-office roles (``PLAYER`` has no permission at all)."""

_READERS = frozenset(STAFF)
_MOVERS = frozenset({OPERATOR, ADMIN})

WHO_MAY: dict[str, frozenset[str]] = {
    "players.read": _READERS,
    "tables.read": _READERS,
    "tables.watch": _READERS,
    "hands.read": _READERS,
    "reports.read": _READERS,
    "rtp.read": _READERS,
    "wallet.read": frozenset({OPERATOR, AUDITOR, ADMIN}),
    "audit.read": frozenset({AUDITOR, ADMIN}),
    "players.suspend": frozenset({SUPPORT, OPERATOR, ADMIN}),
    "tables.close": _MOVERS,
    "games.switch": _MOVERS,
    "adjustments.request": _MOVERS,
    "adjustments.approve": _MOVERS,
    "roles.set": frozenset({ADMIN}),
}
"""Each permission and the roles that hold it: the one table the server checks. Reading
players, tables, hands (every card), reports and the RTP watch, and watching any table as a
spectator: every back-office role. The audit log: auditors and admins. The transfer wallet's
outbox and transfers (docs/wallet.md): operators, auditors and admins. Suspending or
reinstating a player: support, operators, admins. Closing a table, switching games,
requesting and approving adjustments: operators and admins (an adjustment is approved by
someone other than its requester unless ``Settings.adjustment_approvals`` is 1). Changing
an account's role: admins."""

PERMISSIONS: dict[str, tuple[str, ...]] = {
    role: tuple(p for p, roles in WHO_MAY.items() if role in roles) for role in ROLES
}
"""Each role's permissions, in the order of :data:`WHO_MAY` (derived from it)."""


class UnknownRole(MazziereError):
    """A role name that is not one of :data:`ROLES`."""

    default_code = "unknown_role"


class BackOfficeError(MazziereError):
    """A refused back-office request, with its HTTP status (400 unless a subclass says)."""

    default_code = "refused"
    status = 400


class Forbidden(BackOfficeError):
    """A back-office request from an account whose role lacks the permission (HTTP 403)."""

    default_code = "forbidden"
    status = 403


class NotFound(BackOfficeError):
    """A back-office request naming an id that does not exist (HTTP 404)."""

    default_code = "not_found"
    status = 404


class Conflict(BackOfficeError):
    """A back-office action that the current state refuses: suspending a suspended account,
    approving a decided adjustment, closing a closed table (HTTP 409)."""

    default_code = "conflict"
    status = 409


def check_role(role: str) -> str:
    """``role`` if it is one of :data:`ROLES`, else :class:`UnknownRole` naming them."""
    if role not in ROLES:
        raise UnknownRole(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
    return role


def may(role: str, permission: str) -> bool:
    """Whether ``role`` holds ``permission`` (an unknown permission is a programming error).

    >>> may("support", "players.suspend"), may("auditor", "players.suspend")
    (True, False)
    """
    return role in WHO_MAY[permission]


def is_staff(role: str) -> bool:
    """A back-office role (its logins have the shorter idle limit)."""
    return role in STAFF
