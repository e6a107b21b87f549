"""Re-ingesting a chat whose messages are grouped differently now: no memory twice.

Timed messages of one speaker are stored as one memory per burst (:mod:`.core.grouping`), and
a memory's id comes from the turns it holds. When a chat is ingested again with a message more
("no way, congrats" then, a minute later, "when do you start?"), the burst that grew gets a new
id, and the memory stored for the shorter burst would stay beside it: the same words twice.

:func:`regrouped` finds, among the stored memories of the conversations being written, those
whose every turn the new memories now hold under another id. When their words are all there
(their text appears in the text of the new memories holding their turns, in order), the new
memories replace them (a grouped memory is its messages one a line, so the stored text must
be whole lines of theirs); when the words differ, it is a change of what was said, which the write
path refuses unless told to replace. The other way round, a new memory whose every turn and
words stored memories hold already (a later export that begins inside a burst) is not written.
"""

from __future__ import annotations

from collections.abc import Sequence

from ramem_integrations.core.types import MemoryUnit

__all__ = ["regrouped"]


def regrouped(
    new: Sequence[MemoryUnit], stored: Sequence[MemoryUnit]
) -> tuple[list[MemoryUnit], list[tuple[MemoryUnit, MemoryUnit]], list[MemoryUnit]]:
    """The stored memories that ``new`` holds under other ids, and the reverse.

    Returns the stored ones whose words ``new`` keeps (to delete once ``new`` is written), the
    stored ones whose words differ, each with a new memory that holds one of its turns, and
    the new ones whose turns and words stored memories hold already (not to write: a later
    export that starts inside a burst). A stored memory with a turn that ``new`` does not
    hold is left alone.
    """
    kept: list[MemoryUnit] = []
    changed: list[tuple[MemoryUnit, MemoryUnit]] = []
    for old, holders in _held_by(stored, new):
        if _words_kept(old, holders):
            kept.append(old)
        else:
            changed.append((old, holders[0]))
    going = {old.id for old in kept} | {old.id for old, _ in changed}
    staying = [old for old in stored if old.id not in going]
    held = [unit for unit, holders in _held_by(new, staying) if _words_kept(unit, holders)]
    return kept, changed, held


def _held_by(
    units: Sequence[MemoryUnit], others: Sequence[MemoryUnit]
) -> list[tuple[MemoryUnit, list[MemoryUnit]]]:
    """Each unit whose every turn ``others`` hold under other ids, with those holders in order."""
    ids = {unit.id for unit in others}
    holder = {(o.conversation_id, turn): o for o in others for turn in o.source_ids}
    found = []
    for unit in units:
        if unit.id in ids or not unit.source_ids:
            continue
        at = [holder.get((unit.conversation_id, turn)) for turn in unit.source_ids]
        holders = [o for o in at if o is not None]
        if len(holders) == len(at):
            found.append((unit, list({o.id: o for o in holders}.values())))
    return found


def _words_kept(unit: MemoryUnit, holders: Sequence[MemoryUnit]) -> bool:
    """Whether the holders' text has ``unit``'s as whole messages (lines), not part of one:
    in order, or turn by turn where the holders' messages can be told apart (one line each),
    so a burst stored with another speaker's reaction inside it (as before issue 34) is kept
    by the burst and the reaction, now two memories."""
    lines = "\n".join(o.content for o in holders)
    if f"\n{unit.content}\n" in f"\n{lines}\n":
        return True
    said = _messages(holders)
    turns = unit.source_ids
    return all(t in said for t in turns) and "\n".join(said[t] for t in turns) == unit.content


def _messages(units: Sequence[MemoryUnit]) -> dict[str, str]:
    """Turn id -> its text, for the units whose content is one line per turn."""
    said: dict[str, str] = {}
    for unit in units:
        lines = unit.content.split("\n")
        if len(lines) == len(unit.source_ids):
            said.update(zip(unit.source_ids, lines, strict=True))
    return said
