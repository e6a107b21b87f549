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
path refuses unless told to replace.
"""

from __future__ import annotations

from collections.abc import Sequence

from ramem_integrations.core.types import MemoryUnit

__all__ = ["regrouped"]


def regrouped(
    new: Sequence[MemoryUnit], stored: Sequence[MemoryUnit]
) -> tuple[list[MemoryUnit], list[tuple[MemoryUnit, MemoryUnit]]]:
    """The stored memories that ``new`` holds under other ids.

    Returns the ones whose words ``new`` keeps (to delete once ``new`` is written), and the
    ones whose words differ, each with a new memory that holds one of its turns. A stored
    memory with a turn that ``new`` does not hold is left alone.
    """
    new_ids = {unit.id for unit in new}
    holder = {
        (unit.conversation_id, turn): i for i, unit in enumerate(new) for turn in unit.source_ids
    }
    kept: list[MemoryUnit] = []
    changed: list[tuple[MemoryUnit, MemoryUnit]] = []
    for old in stored:
        if old.id in new_ids or not old.source_ids:
            continue
        at = [holder.get((old.conversation_id, turn)) for turn in old.source_ids]
        held = [i for i in at if i is not None]
        if len(held) < len(at):
            continue
        lines = "\n".join(new[i].content for i in sorted(set(held)))
        if f"\n{old.content}\n" in f"\n{lines}\n":  # whole messages, not part of one
            kept.append(old)
        else:
            changed.append((old, new[held[0]]))
    return kept, changed
