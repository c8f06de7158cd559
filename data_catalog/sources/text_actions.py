"""Actions written as text inside assistant turns, for the ShareGPT dialects.

- ``react``: ``THOUGHT: ... ACTION: ...`` (AgentInstruct alfworld) or
  ``Think: ... Act: ...`` (AgentInstruct os). A fenced code block after the
  action word is a CodeAction in that language (``Action: Operation`` +
  ```` ```sql ````); ``answer(X)`` and ``finish`` are MessageActions; other
  actions are ApiActions, parsed with the alfworld grammar (``go to shelf 1``
  -> go(location="shelf 1")), function names and keyword names as ADP's
  alfworld api. Values are plain strings: ADP's pre-quoted ``'"shelf 1"'`` is
  a rendering trick, not data. The action's name is its first word; labelled
  lines right before or after the action line (``Answer: B.``, ``Value:
  $50,000``) are its arguments, and an answering action (``Action: Answer`` +
  ``Final Answer: [...]``) is a MessageAction with that answer.
- ``codeact``: ``<execute>`` blocks (and ``<execute_ipython>`` / ``<execute_bash>``).
- ``markdown``: fenced code blocks with a language tag.

For the block dialects, the prose before a block is that CodeAction's
reasoning, and prose after the last block is a MessageAction, so no text is
lost (ADP keeps only the first block and drops the rest).

Every pattern is compiled once, here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from textwrap import dedent
from typing import NamedTuple

from data_catalog.sources.step_dicts import api_call, code, message

DIALECTS = ("react", "codeact", "markdown", "plain")

# The action keyword starts a line; text before it (after an optional THOUGHT:/Think: label) is the thought.
# Found by ``_action_line``: the first line, else a line after a newline. One ``^`` pattern with re.M would
# make the regex engine try every position of the turn; one that starts with a literal newline lets it jump
# from line to line (2x faster on a turn with a thought).
_ACTION_FIRST = re.compile(r"[ \t]*(?:ACTION|Act|Action)[ \t]*:[ \t]*")
_ACTION_LATER = re.compile(r"\n[ \t]*(?:ACTION|Act|Action)[ \t]*:[ \t]*")
_ACTION_STARTS = frozenset(" \tA")  # the characters _ACTION_FIRST can match at: tested first, for the cheap miss
_THOUGHT_LABEL = re.compile(r"\A\s*(?:THOUGHT|Think|Thought)[ \t]*:")
# ``search[desk lamp]`` / ``click(Buy Now)``: ReAct tool-style actions outside the alfworld grammar.
_BRACKETED = re.compile(r"\A(?P<name>[A-Za-z_]\w*)\s*(?:\[(?P<square>.*)\]|\((?P<round>.*)\))\Z", re.S)
_ANSWER = re.compile(r"\Aanswer\s*\((?P<answer>.*)\)\s*\Z", re.S | re.I)
_EXECUTE = re.compile(r"<execute(?:_(?P<lang>\w+))?>(?P<code>.*?)</execute(?:_\w+)?>", re.S)
# Framing that a harness puts before environment output (stripped: the source says it now).
ENV_PREFIX = re.compile(r"\A\s*(?:Observation:|The output of the OS:|Execution result:)[ \t]*\r?\n?")

_LANGUAGE_ALIASES = {
    "py": "python",
    "python3": "python",
    "ipython": "python",
    "sh": "bash",
    "shell": "bash",
    "console": "bash",
    "c++": "cpp",
    "js": "javascript",
    "ts": "typescript",
}
# Fenced blocks with these tags are text (program output, prose), not code to run.
_TEXT_TAGS = frozenset({"", "text", "txt", "plaintext", "output", "markdown", "md"})
# Action words that say a fenced block after them is code, whatever its tag (``Act: bash`` + ```` ``` ````).
_CODE_WORDS = frozenset({"bash", "python", "sql"})

# The alfworld action grammar, indexed by the action's first word; each pattern's
# named groups are the call's keyword names, so a match's groupdict() is its kwargs.
_ALFWORLD: dict[str, list[tuple[re.Pattern[str], str]]] = {}
for _pattern, _function in (
    (r"go to (?P<location>.+)", "go"),
    (r"take (?P<item>.+) from (?P<source>.+)", "take"),
    (r"put (?P<item>.+) in/on (?P<target>.+)", "put"),
    (r"put (?P<item>.+) (?:in|on) (?P<target>.+)", "put"),
    (r"open (?P<obj>.+)", "open"),
    (r"close (?P<obj>.+)", "close"),
    (r"heat (?P<item>.+) with (?P<appliance>.+)", "heat"),
    (r"cool (?P<item>.+) with (?P<appliance>.+)", "cool"),
    (r"clean (?P<item>.+) with (?P<appliance>.+)", "clean"),
    (r"examine (?P<obj>.+)", "examine"),
    (r"use (?P<obj>.+)", "use"),
    (r"look at (?P<item>.+) under (?P<reference>.+)", "look_at_under"),
    (r"inventory", "inventory"),
    (r"look", "look"),
):
    _ALFWORLD.setdefault(_pattern.split()[0], []).append((re.compile(_pattern + r"\Z", re.I | re.S), _function))


# AgentBench's knowledge-graph tools (AgentTuning kg), whose calls take several arguments:
# get_neighbors(Gas-generator cycle, spaceflight.rocket_engine_cycle.rocket_engines) -> variable, relation.
_KG_FUNCTIONS = {
    "get_relations": ("variable",),
    "get_neighbors": ("variable", "relation"),
    "intersection": ("variable1", "variable2"),
    "get_attributes": ("variable",),
    "argmax": ("variable", "attribute"),
    "argmin": ("variable", "attribute"),
    "count": ("variable",),
}


class Block(NamedTuple):
    """A code block found in a turn: its span, language tag and code."""

    start: int
    end: int
    lang: str
    code: str


# The closing fence: ``` that starts a line, after nothing but whitespace (searched from the opening line's end).
_CLOSING_FENCE = re.compile(r"\n[^\S\n]*```")
# A NamedTuple's own __new__ is Python code; building through tuple.__new__ is a C call (a third of first_fence).
_new_block = tuple.__new__


def fenced_blocks(text: str) -> Iterator[Block]:
    """Markdown fenced blocks; the closing fence must start a line."""
    block = first_fence(text)
    while block is not None:
        yield block
        block = first_fence(text, block.end)


def first_fence(text: str, position: int = 0) -> Block | None:
    """The first fenced block from ``position``. A scan with str.find: a lazy regex over long
    replies was the converter's hot spot. A plain function, not a generator, for callers that
    want one block: a generator left unfinished costs more to create and discard than the scan."""
    while (start := text.find("```", position)) >= 0:
        eol = text.find("\n", start + 3)
        if eol < 0:
            return None
        info = text[start + 3 : eol]
        if "```" in info:  # inline ```code``` on one line
            position = start + 3 + info.index("```") + 3
            continue
        close = text.find("\n```", eol) + 1
        if close and text.find("```", eol, close) < 0:  # the first ``` after the opening line starts a line
            code = text[eol + 1 : close - 1]
        else:  # an indented closing fence, or a ``` inside a line before it
            found = _CLOSING_FENCE.search(text, eol)
            if found is None:
                return None
            close = found.end() - 3
            code = text[eol + 1 : close].rstrip(" \t")
            code = code[:-1] if code.endswith("\n") else code
        code = code[:-1] if code.endswith("\r") else code
        words = info.split()
        return _new_block(Block, (start, close + 3, words[0] if words else "", code))
    return None


def _execute_blocks(text: str) -> Iterator[Block]:
    for m in _EXECUTE.finditer(text):
        yield _new_block(Block, (m.start(), m.end(), m.group("lang") or "python", m.group("code")))


def language_of(tag: str) -> str:
    tag = tag.lower()
    return _LANGUAGE_ALIASES.get(tag, tag)


def text_around(text: str, start: int, end: int) -> str:
    """The text before and after ``text[start:end]`` (an action), each stripped, on two lines: its
    reasoning. Also for the formats that find one action in a turn (mini_swe_agent, swe_agent, synatra)."""
    return (text[:start].strip() + "\n" + text[end:].strip()).strip()


def text_action(action: str, thought: str | None) -> dict:
    """A text action as an ApiAction: the alfworld grammar, else ``name[arg]``, else verb + the rest as ``argument``."""
    verb, *more = action.split(None, 1)
    rest = more[0] if more else ""
    for pattern, function in _ALFWORLD.get(verb.lower(), ()):
        match = pattern.match(action)
        if match:
            return api_call(function, match.groupdict(), None, thought)
    bracketed = _BRACKETED.match(action)
    if bracketed is not None:
        name = bracketed.group("name").lower()
        argument = bracketed.group("square") if bracketed.group("square") is not None else bracketed.group("round")
        named = _KG_FUNCTIONS.get(name)
        values = [value.strip() for value in argument.split(",")] if named and argument else None
        if values is not None and len(values) == len(named):
            return api_call(name, dict(zip(named, values)), None, thought)
        return api_call(name, {"argument": argument} if argument else {}, None, thought)
    return api_call(verb.lower(), {"argument": rest} if rest else {}, None, thought)


def _action_line(text: str) -> re.Match[str] | None:
    """The action keyword of a ReAct turn (``Act:``, ``ACTION:``) at the start of a line, with the spaces after it."""
    return (text[:1] in _ACTION_STARTS and _ACTION_FIRST.match(text)) or _ACTION_LATER.search(text)


def react_steps(text: str) -> list:
    # The checks below run once per assistant turn (alfworld has ~18 a record), so each
    # costly one has a cheap guard that skips it for the plain "ACTION: go to shelf 1" turn.
    key = _action_line(text)
    if key is None:
        return [_final_answer(text) if "Final Answer" in text else message(text)]
    start, end = key.span()
    thought, labels = None, {}
    if start:  # text before the action line (less its newline): the thought, after its optional label
        head = text[:start]
        if "Answer" in head or "Value" in head:  # the only labels read before an action (_ARGUMENTS_BEFORE)
            head, labels = _trailing_labels(head)
        label = _THOUGHT_LABEL.match(head)
        thought = (head[label.end() :] if label else head).strip() or None
    action = text[end:].strip()
    if not action:
        return [message(action, thought)]
    word = action.split(None, 1)[0].lower()  # copies the rest, but a regex call costs more than that copy
    if "```" in action:
        fence = first_fence(action)
        if fence is not None:
            lang = fence.lang.lower()
            if word == lang or word in _CODE_WORDS or lang not in _TEXT_TAGS:
                return [code(language_of(lang or word), fence.code, thought)]
    if word.startswith("answer"):  # _ANSWER matches only there
        answer = _ANSWER.match(action)
        if answer is not None:
            return [message(answer.group("answer").strip(), thought)]
    if "\n" in action:
        action, more = _action_line_labels(action)
        labels.update(more)
    if word == "finish" or (word in _ANSWERING and labels.keys() & _ANSWER_LABELS):
        answer = next((labels[k] for k in _ANSWER_LABELS if k in labels), None)
        return [message(action if answer is None else answer, thought)]
    step = text_action(action, thought)
    step["kwargs"].update(labels)
    return [step]


_FINAL_ANSWER = re.compile(r"(?:\A|\n)[ \t]*Final Answer[ \t]*:[ \t]*")


def _final_answer(text: str) -> dict:
    """A turn that answers without an action line (kg: "Thought: ... \nFinal Answer: #3"): the answer
    is the message, the thought before it its reasoning."""
    found = _FINAL_ANSWER.search(text)
    if found is None:
        return message(text)
    head = text[: found.start()]
    label = _THOUGHT_LABEL.match(head)
    thought = (head[label.end() :] if label else head).strip() or None
    return message(text[found.end() :].strip(), thought)


# "Label: value" lines around a ReAct action: its arguments (mind2web's Answer / Value, AgentBench's Final Answer).
# After the action line any label is one; before it only these, since a thought's last line may be labelled too.
_LABEL_LINE = re.compile(r"[ \t]*([A-Z][A-Za-z]*(?: [A-Za-z]+){0,2})[ \t]*:[ \t]*(.*)")
_NOT_ARGUMENTS = frozenset({"thought", "think", "observation"})
_ARGUMENTS_BEFORE = frozenset({"answer", "value", "final_answer"})
_ANSWERING = frozenset({"answer", "finish", "final", "submit", "respond"})
_ANSWER_LABELS = ("final_answer", "answer")


def _label(line: str) -> tuple[str, str] | None:
    match = _LABEL_LINE.fullmatch(line)
    if match is None or match[1].lower() in _NOT_ARGUMENTS:
        return None
    return match[1].lower().replace(" ", "_"), match[2].strip()


def _trailing_labels(head: str) -> tuple[str, dict[str, str]]:
    """The labelled lines that end the text before an action line (its arguments), and the text before them."""
    lines = head.rstrip("\n").split("\n")
    labels: dict[str, str] = {}
    while lines and (pair := _label(lines[-1])) is not None and pair[0] in _ARGUMENTS_BEFORE:
        labels.setdefault(*pair)
        lines.pop()
    return "\n".join(lines), dict(reversed(labels.items()))


def _action_line_labels(action: str) -> tuple[str, dict[str, str]]:
    """The action line alone, and the labelled lines after it (a line without a label continues the last value)."""
    first, *rest = action.split("\n")
    labels: dict[str, str] = {}
    last = None
    for line in rest:
        pair = _label(line)
        if pair is not None:
            last = pair[0]
            labels[last] = pair[1]
        elif last is not None:
            labels[last] += "\n" + line
        else:
            first += "\n" + line
    return first.strip(), {k: v.strip() for k, v in labels.items()}


def _block_steps(text: str, blocks: Iterable[Block], tidy: bool) -> list:
    """CodeActions for ``blocks`` (prose before each is its reasoning), then trailing prose as a MessageAction.

    ``tidy`` dedents and strips the code: ``<execute> print(x) </execute>`` pads
    code with spaces that would be an IndentationError when run.
    """
    steps: list = []
    position = 0
    for block in blocks:
        prose = text[position : block.start].strip()
        content = tidy_code(block.code) if tidy else block.code
        steps.append(code(language_of(block.lang), content, prose or None))
        position = block.end
    tail = text[position:].strip() if steps else text
    if tail or not steps:
        steps.append(message(tail))
    return steps


def tidy_code(code: str) -> str:
    """``dedent(code).strip()``, without dedent's two regex passes over the code where they cannot change
    what strip keeps: code of one line, or code whose first line is not indented (so there is no common
    margin) and none of whose lines ends in a space or tab (so none is only spaces and tabs, which dedent
    empties). Most <execute> blocks are either."""
    stripped = code.strip()
    if "\n" not in stripped:
        return stripped
    start = len(code) - len(code.lstrip())
    if (start == 0 or code[start - 1] == "\n") and " \n" not in code and "\t\n" not in code:
        return stripped
    return dedent(code).strip()


def codeact_steps(text: str) -> list:
    if "<execute" not in text:
        return [message(text)]
    return _block_steps(text, _execute_blocks(text), tidy=True)


def markdown_steps(text: str) -> list:
    if "```" not in text:
        return [message(text)]
    return _block_steps(text, _code_blocks(text), tidy=False)


def _code_blocks(text: str) -> Iterator[Block]:
    return (b for b in fenced_blocks(text) if b.lang.lower() not in _TEXT_TAGS)


def fenced_code(text: str) -> bool:
    """Whether ``text`` holds a fenced block of code (not one of program output or prose)."""
    return "```" in text and next(_code_blocks(text), None) is not None


def plain_steps(text: str) -> list:
    return [message(text)]


ASSISTANT_PARSERS = {"react": react_steps, "codeact": codeact_steps, "markdown": markdown_steps, "plain": plain_steps}


def detect_dialect(assistant_texts: Iterable[str]) -> str:
    """The dialect of a conversation from its assistant turns: codeact > react > markdown > plain."""
    found = "plain"
    for text in assistant_texts:
        if "<execute" in text and _EXECUTE.search(text):
            return "codeact"
        if found != "react" and _action_line(text):
            found = "react"
        elif found == "plain" and fenced_code(text):
            found = "markdown"
    return found
