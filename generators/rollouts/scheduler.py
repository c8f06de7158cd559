"""Asynchronous multi-turn batching: every live conversation advances together.

The scheduler keeps up to ``capacity`` conversations live. Scripted turns (the
oracle, the scripted user) run at once, without a model. Then, at each step,
every live conversation waits for a model actor (its agent or its simulated
user), and all of them are served in ONE backend batch call: one
``generate(list of ChatRequest, params)`` with each request's own seed in
``ChatRequest.sampling``. Conversations are not in lockstep: one may be at its
first turn while another is at its tenth, some waiting for the agent and some
for the user. A finished conversation leaves at once and the next one joins,
so the batch stays full until the input runs dry.

``capacity=1`` is the plain loop that runs one conversation at a time, through
the same code (the benchmark's baseline). A backend that fails as a whole
(``GenerationError``) ends the conversations of that batch with
``backend_error``; the run goes on with the next ones.

``run`` is a generator of finished conversations. Timing (``SchedulerStats``):
wall time of the loop, time inside the backend calls, and time spent by the
consumer while the loop waits at a ``yield`` (verifying, writing), so the
loop's own overhead is ``wall - backend - consumer``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass

from generators.rollouts.actors import Actor, AgentPolicy, UserSimulator
from generators.rollouts.conversation import Conversation
from schemas.generation import ChatRequest, GenerationError, GenerationResult, Generator, SamplingParams


@dataclass
class SchedulerStats:
    conversations: int = 0
    backend_calls: int = 0
    requests: int = 0
    largest_batch: int = 0
    wall_s: float = 0.0
    backend_s: float = 0.0
    consumer_s: float = 0.0

    @property
    def mean_batch(self) -> float:
        return self.requests / self.backend_calls if self.backend_calls else 0.0

    @property
    def overhead_s(self) -> float:
        """Time in the loop itself: neither the backend nor the consumer of the finished conversations."""
        return max(0.0, self.wall_s - self.backend_s - self.consumer_s)

    def as_dict(self) -> dict:
        return {**asdict(self), "mean_batch": round(self.mean_batch, 2), "overhead_s": round(self.overhead_s, 4)}


class RolloutScheduler:
    def __init__(
        self,
        agent: AgentPolicy,
        user: UserSimulator,
        generator: Generator | None,
        params: SamplingParams,
        capacity: int = 16,
    ):
        if (agent.uses_model or user.uses_model) and generator is None:
            raise ValueError("a model-backed agent or user simulator needs a generator")
        self.agent, self.user = agent, user
        self.generator = generator
        self.params = params
        self.capacity = max(1, capacity)
        self.stats = SchedulerStats()

    def run(self, conversations: Iterable[Conversation]) -> Iterator[Conversation]:
        """Roll every conversation out to its end, yielding each as it ends (in the order they end)."""
        started = time.perf_counter()
        source = iter(conversations)
        live: list[Conversation] = []
        exhausted = False
        while True:
            while not exhausted and len(live) < self.capacity:  # join: keep the batch full
                conv = next(source, None)
                if conv is None:
                    exhausted = True
                    break
                self.stats.conversations += 1
                try:
                    self.agent.start(conv)
                except Exception as exc:  # as in _apply: this rollout ends, the run goes on
                    conv.fail(f"agent_error:{type(exc).__name__}", str(exc))
                self._advance(conv)
                live.append(conv)
                yield from self._retire(live)
            if not live:
                break
            self._serve(live)
            for conv in live:
                self._advance(conv)
            yield from self._retire(live)
        self.stats.wall_s += time.perf_counter() - started

    def _actor(self, conv: Conversation) -> Actor:
        return self.agent if conv.waiting == "agent" else self.user

    def _advance(self, conv: Conversation) -> None:
        """Scripted turns until the conversation waits for a model, or ends."""
        while not conv.finished and not self._actor(conv).uses_model:
            self._apply(conv, self._actor(conv), None)

    def _apply(self, conv: Conversation, actor: Actor, result: GenerationResult | None) -> None:
        role = "agent" if actor is self.agent else "user"
        try:
            turn = actor.act(conv, result)
        except Exception as exc:  # a bug or odd task data must end this rollout, not the run
            conv.fail(f"{role}_error:{type(exc).__name__}", str(exc))
            return
        if role == "agent":
            conv.apply_agent(turn)
        else:
            conv.apply_user(turn)

    def _retire(self, live: list[Conversation]) -> Iterator[Conversation]:
        """Yield the finished conversations and drop them from ``live`` (in place)."""
        for conv in [conv for conv in live if conv.finished]:
            live.remove(conv)
            paused = time.perf_counter()
            yield conv
            self.stats.consumer_s += time.perf_counter() - paused

    def _serve(self, live: list[Conversation]) -> None:
        """One backend call for every live conversation (each waits for a model actor)."""
        waiting: list[tuple[Conversation, Actor, ChatRequest]] = []
        for conv in live:
            actor = self._actor(conv)
            try:
                waiting.append((conv, actor, actor.request(conv)))
            except (ValueError, TypeError) as exc:  # e.g. a history the request model refuses
                conv.fail("request_error", str(exc))
        if not waiting:
            return
        started = time.perf_counter()
        try:
            results = self.generator.generate([request for _, _, request in waiting], self.params)
        except GenerationError as exc:
            results = [GenerationResult(error=f"backend failed: {exc}")] * len(waiting)
        self.stats.backend_s += time.perf_counter() - started
        self.stats.backend_calls += 1
        self.stats.requests += len(waiting)
        self.stats.largest_batch = max(self.stats.largest_batch, len(waiting))
        for (conv, actor, _), result in zip(waiting, results):
            conv.results.append(result)
            self._apply(conv, actor, result)
