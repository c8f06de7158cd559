"""The `code` task format: a Python function to write, a prompt, and hidden unit tests.

A task is stored in an AgentRecord's q like this (see ``to_task``):

- ``Task.instruction``: the prompt followed by the function signature;
- ``Task.expected_outputs``: ``{"entry_point", "signature", "tests", "test_setup"}``;
  ``tests`` are single assert statements (MBPP style), each one test, run in
  order in the namespace of the solution after ``test_setup``. They are hidden
  from the agent: only the verifier reads them. They run in a harness apart
  from the solution (environments/code/sandbox.py), where the solution's
  functions are proxies: arguments and results must be plain data (numbers,
  strings, bytes, lists, tuples, dicts, sets); a generator or an instance of
  the solution's own class does not cross, and the test fails.

``reference`` is a known-good solution, kept so that a task can be checked
(its own tests must pass on it) and never shown to an agent.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from schemas.record import Task


class CodeTask(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    prompt: str
    entry_point: str
    signature: str
    tests: list[str] = Field(min_length=1)
    test_setup: str = ""
    reference: str | None = None

    def instruction(self) -> str:
        return f"{self.prompt}\n\nWrite this Python function:\n\n{self.signature}"

    def to_task(self) -> Task:
        return Task(
            instruction=self.instruction(),
            expected_outputs={
                "entry_point": self.entry_point,
                "signature": self.signature,
                "tests": list(self.tests),
                "test_setup": self.test_setup,
            },
            metadata={"code_task_id": self.id},
        )


EXAMPLE_TASKS: tuple[CodeTask, ...] = (
    CodeTask(
        id="run_length_encode",
        prompt="Encode a string with run-length encoding: each run of a repeated character becomes the "
        "character followed by the run length. The empty string encodes to the empty string.",
        entry_point="run_length_encode",
        signature="def run_length_encode(text: str) -> str:",
        tests=[
            "assert run_length_encode('') == ''",
            "assert run_length_encode('a') == 'a1'",
            "assert run_length_encode('aaabcc') == 'a3b1c2'",
            "assert run_length_encode('abab') == 'a1b1a1b1'",
            "assert run_length_encode('z' * 12) == 'z12'",
        ],
        reference="def run_length_encode(text):\n    out, i = [], 0\n    while i < len(text):\n        j = i\n"
        "        while j < len(text) and text[j] == text[i]:\n            j += 1\n"
        "        out.append(f'{text[i]}{j - i}')\n        i = j\n    return ''.join(out)\n",
    ),
    CodeTask(
        id="merge_intervals",
        prompt="Merge overlapping closed intervals [start, end] and return them sorted by start. "
        "Intervals that touch (end == next start) merge too.",
        entry_point="merge_intervals",
        signature="def merge_intervals(intervals: list[list[int]]) -> list[list[int]]:",
        tests=[
            "assert merge_intervals([]) == []",
            "assert merge_intervals([[1, 3], [2, 6], [8, 10]]) == [[1, 6], [8, 10]]",
            "assert merge_intervals([[5, 7], [1, 5]]) == [[1, 7]]",
            "assert merge_intervals([[1, 2], [3, 4]]) == [[1, 2], [3, 4]]",
            "assert merge_intervals([[1, 10], [2, 3], [4, 5]]) == [[1, 10]]",
        ],
        reference="def merge_intervals(intervals):\n    merged = []\n    for start, end in sorted(intervals):\n"
        "        if merged and start <= merged[-1][1]:\n            merged[-1][1] = max(merged[-1][1], end)\n"
        "        else:\n            merged.append([start, end])\n    return merged\n",
    ),
    CodeTask(
        id="roman_to_int",
        prompt="Convert a Roman numeral (I, V, X, L, C, D, M with subtractive pairs such as IV and CM) to an integer.",
        entry_point="roman_to_int",
        signature="def roman_to_int(numeral: str) -> int:",
        tests=[
            "assert roman_to_int('III') == 3",
            "assert roman_to_int('IV') == 4",
            "assert roman_to_int('LVIII') == 58",
            "assert roman_to_int('MCMXCIV') == 1994",
            "assert roman_to_int('MMXXVI') == 2026",
        ],
        reference="def roman_to_int(numeral):\n    values = {'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}\n"
        "    total = 0\n    for i, ch in enumerate(numeral):\n        v = values[ch]\n"
        "        if i + 1 < len(numeral) and values[numeral[i + 1]] > v:\n            total -= v\n"
        "        else:\n            total += v\n    return total\n",
    ),
    CodeTask(
        id="is_balanced",
        prompt="Return True when every bracket in the text ((), [], {}) is closed in the right order; "
        "other characters are ignored.",
        entry_point="is_balanced",
        signature="def is_balanced(text: str) -> bool:",
        tests=[
            "assert is_balanced('') is True",
            "assert is_balanced('a(b[c]{d}e)f') is True",
            "assert is_balanced('(]') is False",
            "assert is_balanced('((') is False",
            "assert is_balanced('}{') is False",
        ],
        reference="def is_balanced(text):\n    pairs = {')': '(', ']': '[', '}': '{'}\n    stack = []\n"
        "    for ch in text:\n        if ch in '([{':\n            stack.append(ch)\n"
        "        elif ch in pairs:\n            if not stack or stack.pop() != pairs[ch]:\n                return False\n"
        "    return not stack\n",
    ),
    CodeTask(
        id="moving_average",
        prompt="Return the averages of every window of `size` consecutive numbers, rounded to 2 decimals. "
        "Raise ValueError when size is not positive.",
        entry_point="moving_average",
        signature="def moving_average(values: list[float], size: int) -> list[float]:",
        tests=[
            "assert moving_average([1, 2, 3, 4], 2) == [1.5, 2.5, 3.5]",
            "assert moving_average([5], 3) == []",
            "assert moving_average([1, 2, 4], 3) == [2.33]",
            "try:\n    moving_average([1], 0)\nexcept ValueError:\n    pass\nelse:\n    raise AssertionError('no ValueError')",
        ],
        reference="def moving_average(values, size):\n    if size <= 0:\n        raise ValueError('size must be positive')\n"
        "    return [round(sum(values[i:i + size]) / size, 2) for i in range(len(values) - size + 1)]\n",
    ),
)


def example_task(task_id: str) -> CodeTask:
    for task in EXAMPLE_TASKS:
        if task.id == task_id:
            return task
    raise KeyError(f"unknown code task {task_id!r}; known: {', '.join(t.id for t in EXAMPLE_TASKS)}")
