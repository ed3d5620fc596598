"""One chat completion through litellm, with the workshop's model choice and readable failures.

``WORKSHOP_LLM_MODEL`` takes any litellm model string (``oci/...``,
``openai/gpt-4o-mini``, ``azure/...``, ``ollama/llama3.1``; provider keys come
from the provider's usual environment variables). Without it the offline
teaching model (:mod:`workshop_lib.agent.offline`) answers, through the same
litellm call. Every provider failure becomes one :class:`LLMError` that says
what went wrong, which setting to fix, and that unsetting
``WORKSHOP_LLM_MODEL`` runs the offline model.
"""

from __future__ import annotations

from typing import Any

from ..errors import WorkshopError
from .models import ModelChoice, choose_model

__all__ = ["LLMError", "ModelChoice", "choose_model", "complete"]

DEFAULT_TIMEOUT = 60.0   # seconds for one completion


class LLMError(WorkshopError):
    """The model could not be reached or refused the request; the message names the setting to fix."""


def _advice(choice: ModelChoice) -> str:
    return (f"(model {choice.model!r} from WORKSHOP_LLM_MODEL). Unset WORKSHOP_LLM_MODEL to run Part 4 "
            "with the offline teaching model instead.")


def complete(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, choice: ModelChoice,
             *, timeout: float = DEFAULT_TIMEOUT, **options: Any) -> dict[str, Any]:
    """The model's next message for ``messages`` (an assistant dict: content and/or tool_calls)."""
    import litellm

    litellm.suppress_debug_info = True   # no "Give Feedback / Get Help" banner in notebooks
    if choice.offline:
        from . import offline   # imports litellm: only when a model is actually called

        offline.register()
    kwargs: dict[str, Any] = {"model": choice.model, "messages": messages, "timeout": timeout, **options}
    if tools:
        kwargs["tools"] = tools
    try:
        response = litellm.completion(**kwargs)
    except litellm.AuthenticationError as exc:
        raise LLMError(f"the provider refused the credentials: {_first_line(exc)}. Set the provider's key "
                       f"(e.g. OPENAI_API_KEY, or the OCI config for oci/ models) {_advice(choice)}") from None
    except litellm.RateLimitError as exc:
        raise LLMError(f"the provider's rate limit was hit: {_first_line(exc)}. Wait a minute and re-run the "
                       f"cell {_advice(choice)}") from None
    except litellm.Timeout:
        raise LLMError(f"the model did not answer within {timeout:.0f} s {_advice(choice)}") from None
    except litellm.APIConnectionError as exc:
        raise LLMError(f"could not reach the model's endpoint: {_first_line(exc)}. Check the network and the "
                       f"provider's base URL setting {_advice(choice)}") from None
    except (litellm.BadRequestError, litellm.UnsupportedParamsError) as exc:
        hint = " This model may not support tool calling; pick one that does." if "tool" in str(exc).lower() else ""
        raise LLMError(f"the model rejected the request: {_first_line(exc)}.{hint} {_advice(choice)}") from None
    except litellm.NotFoundError as exc:
        raise LLMError(f"no such model at the provider: {_first_line(exc)}. Check WORKSHOP_LLM_MODEL's "
                       f"spelling {_advice(choice)}") from None
    except (litellm.InternalServerError, litellm.ServiceUnavailableError) as exc:
        reach = "could not reach the model's endpoint" if "connection" in str(exc).lower() else "the provider failed"
        raise LLMError(f"{reach}: {_first_line(exc)} {_advice(choice)}") from None
    except Exception as exc:
        if not type(exc).__module__.startswith(("litellm", "openai", "httpx")):
            raise   # a bug of ours, not the provider's: keep the traceback
        raise LLMError(f"the provider failed: {_first_line(exc)} {_advice(choice)}") from None
    message = response.choices[0].message
    out: dict[str, Any] = {"role": "assistant", "content": message.content}
    calls = getattr(message, "tool_calls", None) or []
    if calls:
        out["tool_calls"] = [{"id": c.id, "type": "function",
                              "function": {"name": c.function.name, "arguments": c.function.arguments or "{}"}}
                             for c in calls]
    return out


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__
