"""Which model the agent talks to: ``WORKSHOP_LLM_MODEL`` or the offline teaching model.

Kept apart from :mod:`workshop_lib.agent.llm` and
:mod:`workshop_lib.agent.offline` so that choosing and labelling a model does
not import litellm (which takes seconds) before a model is actually called.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config import Settings, load_settings

__all__ = ["OFFLINE_PROVIDER", "OFFLINE_MODEL", "OFFLINE_LABEL", "ModelChoice", "choose_model"]

OFFLINE_PROVIDER = "workshop-offline"
OFFLINE_MODEL = f"{OFFLINE_PROVIDER}/rules"
OFFLINE_LABEL = "offline teaching model (deterministic rules, not an LLM)"


@dataclass(frozen=True)
class ModelChoice:
    """Which model the agent talks to, and how outputs label it."""

    model: str
    offline: bool

    @property
    def label(self) -> str:
        """``workshop-offline/rules — offline teaching model ...`` or the litellm model string."""
        return f"{self.model} — {OFFLINE_LABEL}" if self.offline else self.model


def choose_model(settings: Settings | None = None, model: str | None = None) -> ModelChoice:
    """``model`` if given, else ``WORKSHOP_LLM_MODEL``, else the offline teaching model."""
    chosen = model or (settings or load_settings()).llm_model
    if not chosen or chosen == OFFLINE_MODEL:
        return ModelChoice(OFFLINE_MODEL, True)
    return ModelChoice(chosen, False)
