"""What a review keeps in this app between requests: values by key, the least recently used dropped first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from flask import current_app


class Kept:
    """Values by key, at most ``size`` of them; safe to share between the app's threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            found = self._values.get(key)
            if found is not None:
                self._values.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def get_or_make(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value kept under ``key``, made and kept if there is none (two requests may both make it: the same)."""
        if (found := self.get(key)) is None:
            found = make()
            self.put(key, found)
        return found


def kept(name: str, size: int) -> Kept:
    """This app's ``Kept`` of that name, made on first use."""
    return current_app.extensions.setdefault(name, Kept(size))
