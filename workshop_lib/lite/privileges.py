"""Who may change what in lite: every user reads the others' tables and changes only its own.

Lite has no GRANT. The workshop's Oracle setup gives AGENT SELECT on
SUPPLYCHAIN's tables and no ANY privilege, so Oracle answers AGENT's INSERT,
UPDATE, DELETE, MERGE and DDL on SUPPLYCHAIN's objects with ORA-01031
(insufficient privileges) while its queries run. Lite gives the same answers:
reading another schema is allowed (lite cannot tell which grants exist), writing
it is refused. This keeps the shared seed intact whatever a learner runs as AGENT;
the seed itself runs on a SUPPLYCHAIN connection, as the script says it must.
"""

from __future__ import annotations

from .error_catalogue import ERR_OTHER_SCHEMA, error


def require_owner(user: str, owner: str, name: str, action: str) -> None:
    """Raise ORA-01031 when ``user`` would change ``owner.name`` (``action`` names the statement, e.g.
    ``"UPDATE"`` or ``"DROP TABLE"``) and ``owner`` is another user; return quietly for the user's own."""
    if owner != user:
        raise error(ERR_OTHER_SCHEMA, action=action, owner=owner, name=name, user=user)
