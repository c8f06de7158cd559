"""Trajectory steps: a superset of the Agent Data Protocol (ADP) v1 step vocabulary.

Every step carries ``class_`` (ADP's discriminator, kept verbatim so ADP files
map one to one). Additions over ADP v1:

- ``tool_call_id`` links an action to the observation that answers it.
- ``reasoning`` holds the agent's thought for an action; ADP calls it
  ``description``, and import/export maps between the two names.
- ``decision`` on a user turn: what a simulated user decided (consent, refusal, ...), as data.
- Observation ``source`` names the real origin: ``user``, ``environment``,
  ``tool`` (the result of a tool/API call), ``system`` (a system prompt, which
  ADP drops) or ``agent``. ADP labels tool output as ``user``; we do not.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ObservationSource = Literal["user", "environment", "tool", "system", "agent"]


class _Step(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, defer_build=True)  # see schemas/record.py


class MessageAction(_Step):
    """The agent says something (to the user, or a final answer)."""

    class_: Literal["message_action"] = "message_action"
    content: str
    reasoning: str | None = None


class ApiAction(_Step):
    """The agent calls a tool/function with keyword arguments."""

    class_: Literal["api_action"] = "api_action"
    function: str
    kwargs: dict[str, Any] = Field(default_factory=dict)
    tool_call_id: str | None = None
    reasoning: str | None = None


class CodeAction(_Step):
    """The agent runs code (python, bash, ...) in its environment."""

    class_: Literal["code_action"] = "code_action"
    language: str
    content: str
    tool_call_id: str | None = None
    reasoning: str | None = None


class TextObservation(_Step):
    """Text the agent sees: a user turn, tool output, environment feedback, a system prompt."""

    class_: Literal["text_observation"] = "text_observation"
    content: str
    source: ObservationSource
    name: str | None = None
    tool_call_id: str | None = None
    decision: dict[str, Any] | None = None
    """What a simulated user decided in this turn, recorded by the simulator beside its words (``{"kind":
    "consent"}``, ``"refusal"``, ``"condition"`` or ``"none"``, and ``"about"``: the step of the agent message it
    answers); None where nobody recorded one (imported data: the verifier reads the words)."""


class BoundingBox(BaseModel):
    x: float
    y: float
    width: float
    height: float


class ImageAnnotation(BaseModel):
    text: str
    element_type: str
    bounding_box: BoundingBox


class ImageObservation(_Step):
    class_: Literal["image_observation"] = "image_observation"
    content: str  # a path, URL or data URI
    source: ObservationSource = "environment"
    annotations: list[ImageAnnotation] | None = None


class WebObservation(_Step):
    class_: Literal["web_observation"] = "web_observation"
    html: str | None = None
    axtree: str | None = None
    url: str | None = None
    image_observation: ImageObservation | None = None
    viewport_size: tuple[int, int] | None = None
    source: ObservationSource = "environment"


Step = Annotated[
    MessageAction | ApiAction | CodeAction | TextObservation | ImageObservation | WebObservation,
    Field(discriminator="class_"),
]

ACTION_CLASSES = frozenset({"message_action", "api_action", "code_action"})
OBSERVATION_CLASSES = frozenset({"text_observation", "image_observation", "web_observation"})
