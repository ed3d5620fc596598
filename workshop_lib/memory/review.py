"""The review queue as a small ipywidgets list: Accept / Discard per draft, and the same as plain calls.

``review_widget(transition)`` shows each draft memory (text, subject, what it
contradicts) with two buttons that call ``transition(memory_id, status)`` —
the notebook passes the learner's own ``set_memory_status`` (TODO 4) — and
prints the status the store holds after the click (and what the function
returned when that differs) or why the move was refused. Headless runs (nbgrader, CI)
make the same moves by calling ``set_memory_status`` directly; the widget is
a view over those calls, never a second way to write.
"""

from __future__ import annotations

from typing import Any, Callable

import pandas as pd

from .lifecycle import LifecycleState, lifecycle_rows, read_lifecycle, review_queue

__all__ = ["review_widget", "lifecycle_table"]


def lifecycle_table(conn: Any, user_id: str, agent_id: str, kind: str | None = "correction") -> pd.DataFrame:
    """One row per memory of ``kind``: short id, status, OAMP status, subject, text, updated_at."""
    rows = lifecycle_rows(conn, user_id, agent_id, kind=kind)
    return pd.DataFrame([(s.memory_id[:8], s.status.value, s.oamp_status, s.metadata.get("subject"),
                          s.content, s.updated_at) for s in rows],
                        columns=["id", "status", "oamp status", "subject", "text", "updated_at"])


def review_widget(conn: Any, user_id: str, agent_id: str,
                  transition: Callable[[str, str], Any]) -> Any:
    """An ipywidgets VBox listing the drafts, each with Accept and Discard buttons calling ``transition``."""
    import ipywidgets as widgets

    output = widgets.Output()
    rows: list[Any] = []

    def act(state: LifecycleState, status: str, buttons: list[Any]) -> None:
        # What is printed is what the store holds after the click, not what the function returned: a
        # learner's set_memory_status may store one thing and return another (or nothing).
        with output:
            try:
                result = transition(state.memory_id, status)
            except Exception as exc:  # noqa: BLE001 - show the learner's error next to the button
                stored = read_lifecycle(conn, state.memory_id).status
                changed = "" if stored is state.status else f" (it stored {stored.value} first)"
                print(f"{state.memory_id[:8]}: {type(exc).__name__}: {exc}{changed}")
                return
            stored = read_lifecycle(conn, state.memory_id).status
            returned = getattr(result, "status", None)
            mismatch = "" if returned is stored else f"; your function returned {str(result)[:60]!r}"
            print(f"{state.memory_id[:8]}: now {stored.value}{mismatch}")
            if stored is not state.status:   # a click that stored nothing can be tried again
                for button in buttons:
                    button.disabled = True

    for state in review_queue(conn, user_id, agent_id):
        accept = widgets.Button(description="Accept", button_style="success")
        discard = widgets.Button(description="Discard", button_style="danger")
        buttons = [accept, discard]
        accept.on_click(lambda _b, s=state, bs=buttons: act(s, "accepted", bs))
        discard.on_click(lambda _b, s=state, bs=buttons: act(s, "discard", bs))
        linked = state.metadata.get("contradicts") or state.metadata.get("supersedes")
        note = f" (contradicts {linked[:8]})" if linked else ""
        label = widgets.HTML(f"<b>{state.memory_id[:8]}</b> · {state.metadata.get('subject')}{note}<br>"
                             f"{state.content}")
        rows.append(widgets.HBox([accept, discard, label]))
    if not rows:
        rows.append(widgets.HTML("<i>No drafts are waiting for review.</i>"))
    return widgets.VBox([*rows, output])
