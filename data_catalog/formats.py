"""``--format auto``: the registered format and layout of an input, judged from its first records.

Every format says whether one parsed raw value has one of its layouts, and how
specifically (``Converter.sniff``: 3 for fields only it has, 2 for its usual
shape, 1 for a shape it also reads). The first ``SAMPLE`` records of the first
input are offered to every format; a format that recognizes most of them (more
than half) scores the sum of its matches, and the best score wins. Two formats
with the best score are a tie: auto refuses and names both, rather than guess.
A whole input that is text, not JSON (Aider's markdown chat history), is offered as
one reader.TextDocument. A JSON array is read both as a list of records and as one record (an OpenHands
event list, a bare list of messages); the reading with the better match counts.

Bad records do not decide the format: a line that is not JSON is passed over
(the sample is the first ``SAMPLE`` that parse), and a record that fits no
layout of the winner (a missing field, a cut line) is one of the few it does
not recognize. Either goes on to the conversion, which quarantines it with its
reason exactly as the explicit ``--format`` does; the line that says the
format counts them.

A folder given as an input stands for the files its format says
(``Converter.folder_inputs``: a τ² results directory is its results.json).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from data_catalog.sources import FORMATS
from data_catalog.sources.reader import COMPRESSED_BREAKS, INPUT_ERRORS, TextDocument, read_raw_chunks, unreadable_input

AUTO = "auto"
SAMPLE = 5
SCAN_LINES = 1000  # JSONL lines looked at for the sample, at most: a file of no JSON is not read to its end


class DetectionError(ValueError):
    """auto cannot tell the format of an input (none fits, or several fit equally)."""


class BrokenInput(DetectionError):
    """The input breaks off (a truncated or corrupt .gz) before any record of it could be read."""


@dataclass
class Candidate:
    fmt: str
    score: int
    layout: str
    matched: int  # how many of the sampled records it recognizes


@dataclass
class Sample:
    """The first raw values of an input."""

    values: list[Any]
    whole: Any | None = None  # the whole JSON array, when the input is one
    not_json: int = 0  # lines among the first ones that do not parse


@dataclass
class Detection:
    fmt: str
    layout: str
    records: int  # how many records were sniffed
    others: list[Candidate] = field(default_factory=list)  # formats that fit less well
    unrecognized: int = 0  # sniffed records that fit no layout of ``fmt``
    not_json: int = 0  # lines passed over because they do not parse

    def describe(self, path: str) -> str:
        line = f"format auto: {self.fmt} ({self.layout}), from the first {self.records} record(s) of {path}"
        odd = [
            *([f"{self.not_json} line(s) that are not JSON"] if self.not_json else []),
            *([f"{self.unrecognized} record(s) of no layout of {self.fmt}"] if self.unrecognized else []),
        ]
        return line + (f"; left to the conversion, as with --format {self.fmt}: {', '.join(odd)}" if odd else "")


def sample_values(path: str, size: int = SAMPLE) -> Sample:
    """The first ``size`` raw values of an input that parse (see the module docstring)."""
    sample, seen = Sample([]), 0
    try:
        for chunk in read_raw_chunks(path, lambda document, source: [document], reads_text=True):
            if chunk.error is not None:
                raise DetectionError(f"{path}: {chunk.error}")
            if chunk.values is not None:
                document = chunk.values[0]
                if isinstance(document, list):
                    return Sample(document[:size], document)
                return Sample([document])
            for line in chunk.lines:
                if not line.strip():
                    continue
                seen += 1
                try:
                    sample.values.append(orjson.loads(line))
                except orjson.JSONDecodeError:
                    sample.not_json += 1
                if len(sample.values) == size or seen == SCAN_LINES:
                    return sample
    except COMPRESSED_BREAKS as exc:
        if sample.values:
            return sample  # the conversion reads up to the break, and says where it is
        raise BrokenInput(f"{path}: {unreadable_input(path, exc)}") from None
    return sample


def candidates(values: list[Any]) -> list[Candidate]:
    """The formats that recognize most of ``values`` (more than half), best first."""
    found = []
    for name, cls in FORMATS.load_all().items():
        matches = [match for value in values if (match := cls.sniff(value))]
        if values and 2 * len(matches) > len(values):
            layout = Counter(label for _, label in matches).most_common(1)[0][0]
            found.append(Candidate(name, sum(score for score, _ in matches), layout, len(matches)))
    return sorted(found, key=lambda c: -c.score)


def detect(path: str) -> Detection:
    """The format of one input (see the module docstring); DetectionError when it cannot tell."""
    sample = sample_values(path)
    values = sample.values
    if not values and sample.whole is None:
        raise DetectionError(f"format auto: {path} holds no records")
    found = candidates(values)
    if sample.whole is not None:  # the array as one record
        as_one = candidates([sample.whole])
        if as_one and (not found or as_one[0].score > found[0].score / max(len(values), 1)):
            found, values = as_one, [sample.whole]
    if not found:
        raise DetectionError(
            f"format auto: no registered format reads {path} ({_shape(values[0])}); "
            "give --format (see `aceforge formats`)"
        )
    best, rest = found[0], found[1:]
    if rest and rest[0].score == best.score:
        tied = ", ".join(f"{c.fmt} ({c.layout})" for c in found if c.score == best.score)
        raise DetectionError(f"format auto: {path} fits several formats equally: {tied}; give --format")
    return Detection(best.fmt, best.layout, len(values), rest, len(values) - best.matched, sample.not_json)


def not_a_layout(path: str, fmt: str) -> str | None:
    """When ``fmt`` does not read the first records of ``path`` but another format does: a line that
    names the layout they have ("OpenHands event stream: not a layout of openai_chat; try --format
    openhands"); else None."""
    try:
        sample = sample_values(path)
        cls = FORMATS.get(fmt)
        if sample.values and all(cls.sniff(value) for value in sample.values):
            return None
        if sample.whole is not None and cls.sniff(sample.whole):
            return None
        detection = detect(path)
    except (DetectionError, KeyError, *INPUT_ERRORS):
        return None
    if detection.fmt == fmt:
        return None
    return f"{detection.layout}: not a layout of {fmt}; try --format {detection.fmt}"


def expand_inputs(inputs: list[str], fmt: str) -> list[str]:
    """The inputs with each folder replaced by the files it stands for, for ``fmt`` (auto: the one
    format whose folder layout it is); a ValueError that says why for a folder no format reads."""
    expanded = []
    for path in inputs:
        folder = Path(path)
        if path == "-" or not folder.is_dir():
            expanded.append(path)
            continue
        names = FORMATS.names() if fmt == AUTO else [fmt]
        found = {name: FORMATS.get(name).folder_inputs(folder) for name in names}
        files = {name: paths for name, paths in found.items() if paths}
        if len(files) != 1:
            which = "no format reads" if not files else f"several formats read ({', '.join(files)})"
            raise ValueError(f"{path} is a folder that {which} as a whole; give its files")
        expanded.extend(str(p) for p in next(iter(files.values())))
    return expanded


def _shape(value: Any) -> str:
    if isinstance(value, TextDocument):
        return "text, not JSON"
    if isinstance(value, dict):
        keys = list(value)[:8]
        return "an object with keys " + ", ".join(keys) + (", ..." if len(value) > 8 else "")
    return f"a JSON {type(value).__name__}"
