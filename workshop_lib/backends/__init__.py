"""The backend seam: pick the lite or Oracle implementation once, then delegate to it.

Modelled on python-oracledb, which chooses its thin or thick implementation
once and routes every call through it: :func:`get_backend` maps
``settings.backend`` to a :class:`Backend`, and everything else in the
workshop asks that object (connect, memory client, model, text index, seed,
doctor, setup).
"""

from __future__ import annotations

from importlib import import_module

from ..config import Settings, load_settings
from ..errors import ConfigError
from .base import Backend

# name -> "module:class"; imported on first use so lite never loads Oracle-only code and vice versa
_IMPLEMENTATIONS = {
    "lite": "workshop_lib.backends.lite:LiteBackend",
    "oracle": "workshop_lib.backends.oracle:OracleBackend",
}


def get_backend(settings: Settings | None = None) -> Backend:
    """The backend implementation selected by ``settings`` (default: the environment and .env)."""
    settings = settings or load_settings()
    try:
        target = _IMPLEMENTATIONS[settings.backend]
    except KeyError:
        raise ConfigError(f"Unknown workshop backend {settings.backend!r}; use one of: "
                          f"{', '.join(_IMPLEMENTATIONS)}.") from None
    module, _, cls = target.partition(":")
    return getattr(import_module(module), cls)(settings)


__all__ = ["Backend", "get_backend"]
