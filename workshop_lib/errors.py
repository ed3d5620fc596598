"""Exceptions the workshop raises for learner- and instructor-facing problems."""

from __future__ import annotations


class WorkshopError(Exception):
    """Base class: a problem with a clear cause and a suggested fix in its message."""


class ConfigError(WorkshopError):
    """A setting is missing or invalid (backend name, Oracle DSN, password, ...)."""


class SeedError(WorkshopError):
    """Seeding SUPPLYCHAIN failed; the message names the statement and the cause."""


class ModelError(WorkshopError):
    """The embedding model could not be built, verified or loaded."""
