"""Aider chat history (``.aider.chat.history.md``): markdown, one record per session.

Aider appends every session to one markdown file, each starting ``# aider chat started at <time>``.
Within a session, as aider's ``InputOutput`` writes it:

- ``#### <line>  `` lines are what the user typed (one ``#### `` per line of a multi-line input, each
  ended by markdown's two-space line break): a user turn, consecutive lines one turn; in-chat commands
  (``/add``, ``/code ...``, ``/commit``) are kept as typed;
- ``> <line>  `` lines are aider's own output (file prompts and their answers, ``Applied edit to ...``,
  token counts, commit hashes, warnings): an environment observation, consecutive lines one block;
- everything else is the model's answer, as it wrote it (edits in SEARCH/REPLACE or whole-file blocks
  stay in its text: aider applies them, and says so in the output that follows); a ``<think>`` block at
  its start (reasoning models) is reasoning, never text. Inside a fenced block every line is the answer's,
  and an answer's own ``#### heading`` or ``> quote`` lacks the two-space break that marks the user's
  and aider's lines.

The files are text, not JSON: the reader offers them whole (``reads_text``, reader.TextDocument).
source.agent is aider, its version and main model, from the banner aider prints (``Aider v0.82.2``,
``Main model: ... with diff edit format``; the later ones in other_models, when ``/model`` switched);
lineage.generator keeps the edit format and weak model.
"""

from __future__ import annotations

import re
from typing import Any

from data_catalog.sources.base import ConversionError, Detected, register
from data_catalog.sources.chat_common import ChatConverter, chat_data
from data_catalog.sources.reader import TextDocument
from data_catalog.sources.step_dicts import message, observation
from schemas.agent_identity import agent_identity

_SESSION = re.compile(r"^# aider chat started at (?P<time>.*)$", re.M)
_USER = re.compile(r"\A####(?: (?P<text>.*?))?(?:  )?\Z")
_THINK = re.compile(r"\A\s*<think>\n?(?P<thought>.*?)\n?</think>\s*", re.S)
_VERSION = re.compile(r"\AAider v(?P<version>\S+)")
_MODEL = re.compile(r"\A(?P<which>Main|Weak) model: (?P<model>\S+)(?: with (?P<edit>\S+) edit format)?")


def _kind(line: str) -> str:
    """Whose line it is: user (``#### ...  ``), aider (``> ...  ``), or the model's."""
    if line.startswith("####") and (line.endswith("  ") or line.rstrip() == "####"):
        return "user"
    if line.startswith(">") and (line.endswith("  ") or line.rstrip() == ">"):
        return "aider"
    return "model"


def _blocks(text: str) -> list[tuple[str, str]]:
    """The session's (kind, text) blocks in order: consecutive lines of one kind, the user's and aider's
    prefixes and line breaks taken off; a blank line ends a user or aider block."""
    blocks: list[tuple[str, list[str]]] = []
    fenced = False
    for line in text.split("\n"):
        kind = "model" if fenced else _kind(line)
        if kind == "model" and line.lstrip().startswith("```"):
            fenced = not fenced
        if kind == "user":
            line = _USER.match(line.rstrip(" ") + "  ")["text"] or ""
        elif kind == "aider":
            line = line.removesuffix("  ")[1:].removeprefix(" ")
        elif not line.strip() and blocks and blocks[-1][0] != "model":
            blocks.append(("model", []))  # the blank line that ends a user or aider block
            continue
        if blocks and blocks[-1][0] == kind:
            blocks[-1][1].append(line)
        else:
            blocks.append((kind, [line]))
    return [(kind, "\n".join(lines)) for kind, lines in blocks]


def _answer(text: str) -> dict[str, Any]:
    think = _THINK.match(text)
    if think is None:
        return message(text.strip())
    return message(text[think.end() :].strip(), think["thought"].strip() or None)


def _identity(output: str, generator: dict[str, Any]) -> None:
    """What aider's banner lines in one output block say of the agent, into ``generator``."""
    for line in output.split("\n"):
        if version := _VERSION.match(line):
            generator["version"] = version["version"]
        elif model := _MODEL.match(line):
            key = "model" if model["which"] == "Main" else "weak_model"
            generator.setdefault(key, {})[model["model"]] = None
            if model["edit"] and key == "model":
                generator.setdefault("edit_format", {})[model["edit"]] = None


@register
class AiderConverter(ChatConverter):
    name = "aider"
    description = "Aider chat history (.aider.chat.history.md): one record per session, user / aider / model turns."
    reads_text = True
    layouts = (
        "markdown: '# aider chat started at <time>' sessions of '#### ' user lines, '> ' aider output lines "
        "and the model's answers",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if isinstance(value, TextDocument) and _SESSION.search(value.text[:10000]):
            return 3, "Aider chat history"
        return None

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if not isinstance(document, TextDocument):
            return list(super().items(document, source))
        starts = list(_SESSION.finditer(document.text))
        head = document.text[: starts[0].start() if starts else None]
        sessions = [{"started_at": None, "text": head}] if head.strip() else []
        for match, after in zip(starts, [*starts[1:], None]):
            end = after.start() if after else None
            sessions.append({"started_at": match["time"].strip(), "text": document.text[match.end() : end]})
        return sessions

    def record_data(self, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, dict) or not isinstance(raw.get("text"), str):
            raise ConversionError("an Aider session is {started_at, text}: read it from the markdown file")
        steps: list[dict[str, Any]] = []
        generator: dict[str, Any] = {}
        for kind, text in _blocks(raw["text"]):
            if kind == "user":
                steps.append(observation(text, "user"))
            elif kind == "aider":
                steps.append(observation(text, "environment"))
                _identity(text, generator)
            elif text.strip():
                steps.append(_answer(text))
        if not any(s.get("source") == "user" for s in steps):
            raise ConversionError("the session holds no user input (no '#### ' line)")
        details = {"started_at": raw["started_at"]} if raw.get("started_at") else {}
        data = chat_data(self, {"id": raw.get("started_at"), "text": raw["text"]}, steps, [], ("text",), details)
        for key in ("weak_model", "edit_format"):
            if key in generator:
                values = list(generator[key])
                generator[key] = values[0] if len(values) == 1 else values
        models, version = generator.pop("model", None), generator.pop("version", None)
        data["source"]["agent"] = agent_identity("aider", models, version)
        data["lineage"] = {"generator": generator or None}
        return data
