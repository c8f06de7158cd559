"""Session logs: an agent's own transcript written as one event per JSONL line (Claude Code, Codex CLI).

A session spans many lines, so these formats group raw items (``groups_items``):
consecutive events of one input that belong to the same session form one record,
converted by ``session_data(events)``. A line that does not parse is quarantined on
its own and the session goes on around it; a session that cannot be converted is
quarantined whole, with all its lines counted. A whole JSON document (an array of
events) reads the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from data_catalog.sources.base import ConversionError, Converted, Quarantined, RawItem, describe_error, require_content
from data_catalog.sources.chat_common import ChatConverter
from schemas.record import AgentRecord


class SessionLogConverter(ChatConverter):
    groups_items = True

    def session_key(self, event: Any) -> Any:
        """The session an event names (None: it names none, so it belongs to the one before it)."""
        return None

    def session_data(self, events: list[Any]) -> dict[str, Any]:
        """The plain data of the record of one session's events (see chat_common.chat_data)."""
        raise NotImplementedError

    def record_data(self, raw: Any) -> dict[str, Any]:
        """One session given whole: its list of events, or ``{"events": [...]}`` (as convert_stream groups them)."""
        events = raw.get("events") if isinstance(raw, dict) else raw
        if not isinstance(events, list) or not events:
            raise ConversionError("a session is a non-empty list of events")
        return self.session_data(events)

    def convert_stream(self, items: Iterable[RawItem]) -> Iterator[Converted | Quarantined]:
        self.units_formed = 0
        group: list[RawItem] = []
        source, session = None, None  # of the group being formed (session None: none named yet)
        for item in items:
            if item.error is not None:
                self.units_formed += 1
                yield Quarantined(item.source, item.index, item.error, item.raw_text)
                continue
            named = self.session_key(item.value)
            same = item.source == source and (named is None or session is None or named == session)
            if group and not same:
                yield self._session(group)
                group = []
            if not group:
                self.units_formed += 1
                source, session = item.source, None
            session = session if named is None else named
            group.append(item)
        if group:
            yield self._session(group)

    def _session(self, group: list[RawItem]) -> Converted | Quarantined:
        first = group[0]
        events = [item.value for item in group]
        raw = {"events": events}
        try:
            record = AgentRecord.model_validate(self.session_data(events))
            if not record.trajectory:  # only bookkeeping lines (summaries, snapshots): no conversation to keep
                raise ConversionError(f"the session's {len(events)} line(s) hold no message")
            require_content(record.trajectory)
            return Converted(record, first.source, first.index, raw, raw_items=len(group))
        except Exception as exc:  # one bad session must never stop the run
            return Quarantined(first.source, first.index, describe_error(exc), raw, raw_items=len(group))
