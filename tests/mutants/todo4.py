"""TODO 4 — ``set_memory_status(memory_id, new_status)``: the solution and wrong variants.

Module globals injected by the test (as in the notebook): ``memory_client``,
``agent_conn``, ``parse_status``, ``read_lifecycle``, ``ALLOWED_TRANSITIONS``,
``OAMP_STATUS``, ``LifecycleError``, ``now_iso``.
"""

# ruff: noqa: F821  (notebook globals are injected by the test)

from datetime import datetime, timezone


def solution(memory_id, new_status):
    """Correct: parse, read, refuse before writing, one update with merged metadata and OAMP status."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"memory {memory_id} cannot move from {state.status.value} to {target.value}")
    metadata = {**state.metadata, "lifecycle": target.value, "updated_at": now_iso()}
    memory_client.update_memory(memory_id, metadata=metadata, status=OAMP_STATUS[target])
    return read_lifecycle(agent_conn, memory_id)


def _move(memory_id, target, state, *, metadata=None, status=None):
    metadata = metadata if metadata is not None else {**state.metadata, "lifecycle": target.value,
                                                      "updated_at": now_iso()}
    memory_client.update_memory(memory_id, metadata=metadata, status=status or OAMP_STATUS[target])
    return read_lifecycle(agent_conn, memory_id)


def mutant_no_refusal(memory_id, new_status):
    """Never checks ALLOWED_TRANSITIONS: discard -> accepted goes through."""
    target = parse_status(new_status)
    return _move(memory_id, target, read_lifecycle(agent_conn, memory_id))


def mutant_value_error(memory_id, new_status):
    """Refuses with ValueError instead of LifecycleError."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise ValueError(f"cannot move from {state.status.value} to {target.value}")
    return _move(memory_id, target, state)


def mutant_vague_message(memory_id, new_status):
    """Refuses with a message that does not name the two states."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError("that move is not allowed")
    return _move(memory_id, target, state)


def mutant_writes_before_checking(memory_id, new_status):
    """Stores the new status first, then refuses: a refused move has changed the memory."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    _move(memory_id, target, state)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"cannot move from {state.status.value} to {target.value}")
    return read_lifecycle(agent_conn, memory_id)


def mutant_discard_stays_valid(memory_id, new_status):
    """Marks every move valid in OAMP: a discarded memory is still found by search."""
    from oracleagentmemory.apis.records import RecordStatus

    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"cannot move from {state.status.value} to {target.value}")
    return _move(memory_id, target, state, status=RecordStatus.VALID)


def mutant_metadata_only(memory_id, new_status):
    """Writes the lifecycle into the metadata but never OAMP's status."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"cannot move from {state.status.value} to {target.value}")
    memory_client.update_memory(memory_id, metadata={**state.metadata, "lifecycle": target.value,
                                                     "updated_at": now_iso()})
    return read_lifecycle(agent_conn, memory_id)


def mutant_drops_metadata(memory_id, new_status):
    """Replaces the metadata with only the lifecycle keys: kind and subject are lost."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"cannot move from {state.status.value} to {target.value}")
    return _move(memory_id, target, state, metadata={"lifecycle": target.value, "updated_at": now_iso()})


def mutant_keeps_updated_at(memory_id, new_status):
    """Moves the status but leaves updated_at as it was."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"cannot move from {state.status.value} to {target.value}")
    return _move(memory_id, target, state, metadata={**state.metadata, "lifecycle": target.value})


def mutant_returns_none(memory_id, new_status):
    """Does the move but returns nothing."""
    solution(memory_id, new_status)


def mutant_accepted_back_to_draft(memory_id, new_status):
    """Its own transition table also lets an accepted memory go back to draft."""
    allowed = {"draft": {"accepted", "discard"}, "accepted": {"discard", "draft"}, "discard": set()}
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target.value not in allowed[state.status.value]:
        raise LifecycleError(f"cannot move from {state.status.value} to {target.value}")
    return _move(memory_id, target, state)


def mutant_two_updates(memory_id, new_status):
    """Writes the metadata and the status in two update_memory calls."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"cannot move from {state.status.value} to {target.value}")
    memory_client.update_memory(memory_id, metadata={**state.metadata, "lifecycle": target.value,
                                                     "updated_at": now_iso()})
    memory_client.update_memory(memory_id, status=OAMP_STATUS[target])
    return read_lifecycle(agent_conn, memory_id)


def mutant_calls_the_library(memory_id, new_status):
    """Hands the move to the library's own set_memory_status."""
    from workshop_lib import reference

    return reference.set_memory_status(memory_id, new_status)


def mutant_unknown_status_accepted(memory_id, new_status):
    """Treats any status it does not know as 'accepted'."""
    if new_status not in ("draft", "accepted", "discard"):
        new_status = "accepted"
    return solution(memory_id, new_status)


def mutant_status_name_in_metadata(memory_id, new_status):
    """Stores the Status's name ('ACCEPTED') in the metadata's lifecycle instead of its value ('accepted')."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"memory {memory_id} cannot move from {state.status.value} to {target.value}")
    metadata = {**state.metadata, "lifecycle": target.name, "updated_at": now_iso()}
    memory_client.update_memory(memory_id, metadata=metadata, status=OAMP_STATUS[target])
    return read_lifecycle(agent_conn, memory_id)


def mutant_updated_at_epoch_seconds(memory_id, new_status):
    """Sets updated_at to time.time() (a number of seconds) instead of now_iso()'s ISO-8601 text."""
    import time

    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"memory {memory_id} cannot move from {state.status.value} to {target.value}")
    metadata = {**state.metadata, "lifecycle": target.value, "updated_at": time.time()}
    memory_client.update_memory(memory_id, metadata=metadata, status=OAMP_STATUS[target])
    return read_lifecycle(agent_conn, memory_id)


def mutant_with_agent_conn(memory_id, new_status):
    """Reads the state inside `with agent_conn:`, which closes the notebook's shared connection."""
    target = parse_status(new_status)
    with agent_conn:
        state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"memory {memory_id} cannot move from {state.status.value} to {target.value}")
    metadata = {**state.metadata, "lifecycle": target.value, "updated_at": now_iso()}
    memory_client.update_memory(memory_id, metadata=metadata, status=OAMP_STATUS[target])
    return read_lifecycle(agent_conn, memory_id)


# What an earlier scratch cell of the notebook left behind: the id of a real memory (a catalog fact).
memory_id = "fact-table-supplychain-vessels"


def mutant_updates_the_global_memory_id(mem_id, new_status):
    """Renamed its parameter mem_id but updates `memory_id`, a global an earlier cell left: another memory moves."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, mem_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"memory {mem_id} cannot move from {state.status.value} to {target.value}")
    metadata = {**state.metadata, "lifecycle": target.value, "updated_at": now_iso()}
    memory_client.update_memory(memory_id, metadata=metadata, status=OAMP_STATUS[target])
    return read_lifecycle(agent_conn, mem_id)


def mutant_writes_through_ws_client(memory_id, new_status):
    """Updates through ws.memory_client, not the notebook's memory_client global."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"memory {memory_id} cannot move from {state.status.value} to {target.value}")
    metadata = {**state.metadata, "lifecycle": target.value, "updated_at": now_iso()}
    ws.memory_client.update_memory(memory_id, metadata=metadata, status=OAMP_STATUS[target])
    return read_lifecycle(agent_conn, memory_id)


def mutant_returns_the_old_state_restatused(memory_id, new_status):
    """Returns the state read before the move with only its status replaced: oamp_status and metadata are stale."""
    import dataclasses

    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"memory {memory_id} cannot move from {state.status.value} to {target.value}")
    metadata = {**state.metadata, "lifecycle": target.value, "updated_at": now_iso()}
    memory_client.update_memory(memory_id, metadata=metadata, status=OAMP_STATUS[target])
    return dataclasses.replace(state, status=target)


def mutant_one_message_for_every_refusal(memory_id, new_status):
    """Refuses every move with the same message listing all statuses; it never says which move was refused."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError("move refused: a memory goes draft -> accepted -> discard, never back")
    return _move(memory_id, target, state)


def _allowed_or_refuse(memory_id, new_status):
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"memory {memory_id} cannot move from {state.status.value} to {target.value}")
    return target, state


def _stamped(memory_id, new_status, updated_at):
    target, state = _allowed_or_refuse(memory_id, new_status)
    return _move(memory_id, target, state, metadata={**state.metadata, "lifecycle": target.value,
                                                     "updated_at": updated_at})


def mutant_refusal_names_the_states_the_wrong_way_round(memory_id, new_status):
    """The refusal says 'from <asked> to <current>': refusing accepted -> draft reads 'from draft to accepted'."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    if target not in ALLOWED_TRANSITIONS[state.status]:
        raise LifecycleError(f"memory {memory_id} cannot move from {target.value} to {state.status.value}")
    return _move(memory_id, target, state)


def mutant_state_from_metadata_default_draft(memory_id, new_status):
    """Reads the state from metadata.get('lifecycle', 'draft'): a memory without one (accepted) counts as draft."""
    target = parse_status(new_status)
    state = read_lifecycle(agent_conn, memory_id)
    current = parse_status(state.metadata.get("lifecycle", "draft"))
    if target not in ALLOWED_TRANSITIONS[current]:
        raise LifecycleError(f"memory {memory_id} cannot move from {current.value} to {target.value}")
    return _move(memory_id, target, state)


def mutant_oamp_status_by_sql(memory_id, new_status):
    """Writes the metadata with update_memory but OAMP's status with its own UPDATE (chunks keep the old one)."""
    target, state = _allowed_or_refuse(memory_id, new_status)
    metadata = {**state.metadata, "lifecycle": target.value, "updated_at": now_iso()}
    memory_client.update_memory(memory_id, metadata=metadata)
    with agent_conn.cursor() as cur:
        cur.execute("UPDATE eda_onnx_memory SET status = :s WHERE record_id = :id",
                    s=OAMP_STATUS[target].value, id=memory_id)
    agent_conn.commit()
    return read_lifecycle(agent_conn, memory_id)


def mutant_updated_at_hard_coded(memory_id, new_status):
    """A fixed updated_at, later than any real one."""
    return _stamped(memory_id, new_status, "2099-01-01T00:00:00+00:00")


_CELL_TIME = datetime.now(timezone.utc).isoformat()   # when the module (the cell) ran


def mutant_updated_at_taken_when_the_cell_ran(memory_id, new_status):
    """updated_at taken once, when the cell ran (a module global), and written at every move."""
    return _stamped(memory_id, new_status, _CELL_TIME)


def mutant_updated_at_in_tokyo_time(memory_id, new_status):
    """updated_at in local time with its offset (+09:00), not UTC."""
    from datetime import datetime, timedelta, timezone
    return _stamped(memory_id, new_status, datetime.now(timezone(timedelta(hours=9))).isoformat())


def mutant_updated_at_str_of_datetime(memory_id, new_status):
    """updated_at = str(datetime.now(timezone.utc)): a space where ISO-8601 has a 'T'."""
    from datetime import datetime, timezone
    return _stamped(memory_id, new_status, str(datetime.now(timezone.utc)))


def mutant_returns_a_constructed_state(memory_id, new_status):
    """Returns the state it wrote, with the memory's subject as its memory_id, instead of reading it back."""
    import dataclasses
    target, state = _allowed_or_refuse(memory_id, new_status)
    metadata = {**state.metadata, "lifecycle": target.value, "updated_at": now_iso()}
    memory_client.update_memory(memory_id, metadata=metadata, status=OAMP_STATUS[target])
    return dataclasses.replace(state, memory_id=state.metadata.get("subject"), status=target,
                               oamp_status=OAMP_STATUS[target].value, metadata=metadata)


def mutant_metadata_passed_positionally(memory_id, new_status):
    """update_memory(memory_id, metadata, status=...): the second positional parameter is the content."""
    target, state = _allowed_or_refuse(memory_id, new_status)
    metadata = {**state.metadata, "lifecycle": target.value, "updated_at": now_iso()}
    memory_client.update_memory(memory_id, metadata, status=OAMP_STATUS[target])
    return read_lifecycle(agent_conn, memory_id)
