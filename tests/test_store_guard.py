"""The in-process guard: a read never overlaps a write of the same collection."""

from __future__ import annotations

import threading
import time

from ramem_integrations.stores.guard import GuardedCollection


class SlowCollection:
    """Records the order of calls; its delete takes a while."""

    def __init__(self, key: str) -> None:
        self.id = key
        self.events: list[str] = []

    def delete(self) -> None:
        self.events.append("delete started")
        time.sleep(0.2)
        self.events.append("delete done")

    def get(self) -> str:
        self.events.append("get")
        return "read"


def test_a_read_waits_for_a_write_in_progress() -> None:
    slow = SlowCollection("guard-write-first")
    guarded = GuardedCollection(slow)
    writer = threading.Thread(target=guarded.delete)
    writer.start()
    time.sleep(0.05)  # the delete is under way
    assert guarded.get() == "read"
    writer.join()
    assert slow.events == ["delete started", "delete done", "get"]


def test_wrappers_of_one_collection_share_the_lock() -> None:
    slow = SlowCollection("guard-shared")
    first, second = GuardedCollection(slow), GuardedCollection(slow)
    writer = threading.Thread(target=first.delete)
    writer.start()
    time.sleep(0.05)
    second.get()
    writer.join()
    assert slow.events[-1] == "get"


def test_attributes_pass_through() -> None:
    assert GuardedCollection(SlowCollection("guard-attr")).id == "guard-attr"
