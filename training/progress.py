"""Training progress a person can follow: on a terminal, transformers' own step bar (steps, elapsed, time left)
with tokens/s and the loss beside it; elsewhere (a log file, a pipe, CI) plain lines ``step 3/20, loss 1.234,
812 tokens/s, 2 min 05 s left`` at every logging step and at least every 10 s between them, even within a step.

Tokens come from what TRL logs as ``num_tokens`` (the tokens trained on so far, SFT and GRPO alike).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from runtime.elapsed import spent, ticking

EVERY_S = 10.0


class StepRate:
    """Steps and tokens against time since the training (or its resumption) began."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.begin(0, 0)

    def begin(self, step: int, max_steps: int) -> None:
        self.started, self.first_step, self.max_steps = self._clock(), step, max_steps
        # A resumed run's token count includes the steps before it: the rate starts from its first log.
        self._tokens_from: tuple[float, float] | None = (self.started, 0.0) if step == 0 else None
        self.tokens_per_s: float | None = None

    def logged(self, logs: dict[str, Any]) -> None:
        tokens = logs.get("num_tokens")
        if tokens is None:
            return
        now = self._clock()
        if self._tokens_from is None:
            self._tokens_from = (now, float(tokens))
        elif now > self._tokens_from[0]:
            self.tokens_per_s = (float(tokens) - self._tokens_from[1]) / (now - self._tokens_from[0])

    def left_s(self, step: int) -> float | None:
        done = step - self.first_step
        return (self.max_steps - step) * (self._clock() - self.started) / done if done > 0 else None

    def line(self, step: int, loss: float | None = None) -> str:
        parts = [f"step {step}/{self.max_steps}"]
        if loss is not None:
            parts.append(f"loss {loss:.4g}")
        if self.tokens_per_s is not None:
            parts.append(f"{self.tokens_per_s:,.0f} tokens/s")
        left = self.left_s(step)
        parts.append(f"{spent(left)} left" if left is not None else "time left: after the first step")
        return ", ".join(parts)


def plain_lines(say: Callable[[str], None], clock: Callable[[], float] = time.monotonic) -> Any:
    """A TrainerCallback that says a ``StepRate.line`` at each log (loss, tokens) and at a step's end when no line
    came for ``EVERY_S``."""
    from transformers import TrainerCallback

    class PlainLines(TrainerCallback):
        def __init__(self) -> None:
            self.rate, self.last, self.step_started = StepRate(clock), clock(), clock()
            self.state: Any = None  # None until training begins

        def _say(self, state: Any, loss: float | None = None) -> None:
            if state.is_world_process_zero:
                say(self.rate.line(state.global_step, loss))
                self.last = clock()

        def tick(self) -> None:
            """Within a long step (13 min for one 8k-token step on two cores), a line every ``EVERY_S``."""
            state = self.state
            if state is None or not state.is_world_process_zero or clock() - self.last < EVERY_S:
                return
            running = spent(clock() - self.step_started)
            say(f"{self.rate.line(state.global_step)}; step {state.global_step + 1} running for {running}")
            self.last = clock()

        def on_train_begin(self, args, state, control, **kwargs):
            self.rate.begin(state.global_step, state.max_steps)
            if state.is_world_process_zero:
                say(f"step {state.global_step}/{state.max_steps}: training started")
            self.last = self.step_started = clock()
            self.state = state

        def on_step_begin(self, args, state, control, **kwargs):
            self.step_started = clock()

        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and "loss" in logs:  # a training log; eval and the final summary have their own keys
                self.rate.logged(logs)
                self._say(state, logs["loss"])
            elif logs and "eval_loss" in logs and state.is_world_process_zero:
                say(f"step {state.global_step}/{state.max_steps}: eval loss {logs['eval_loss']:.4g}")

        def on_step_end(self, args, state, control, **kwargs):
            if clock() - self.last >= EVERY_S:
                self._say(state)

    return PlainLines()


def step_bar() -> Any:
    """transformers' ProgressCallback (its tqdm bar: steps, elapsed, time left) with tokens/s and the loss beside
    the bar, and without its printed log dicts (the run's train_log.jsonl keeps them)."""
    from transformers.trainer_callback import ProgressCallback

    class StepBar(ProgressCallback):
        def __init__(self) -> None:
            super().__init__()
            self.rate = StepRate()

        def on_train_begin(self, args, state, control, **kwargs):
            super().on_train_begin(args, state, control, **kwargs)
            self.rate.begin(state.global_step, state.max_steps)

        def tick(self) -> None:
            """Redraw the bar, so its elapsed time moves during a long step (tqdm redraws only on updates)."""
            if self.training_bar is not None:
                self.training_bar.refresh()

        def on_log(self, args, state, control, logs=None, **kwargs):
            if self.training_bar is not None and logs and "eval_loss" in logs:
                self.training_bar.write(
                    f"step {state.global_step}/{state.max_steps}: eval loss {logs['eval_loss']:.4g}"
                )
            if self.training_bar is None or not logs or "loss" not in logs:
                return
            self.rate.logged(logs)
            shown = {"loss": f"{logs['loss']:.4g}"}
            if self.rate.tokens_per_s is not None:
                shown["tokens/s"] = f"{self.rate.tokens_per_s:,.0f}"
            self.training_bar.set_postfix(shown)

    return StepBar()


@contextmanager
def show_progress(trainer: Any, say: Callable[[str], None], bar: bool) -> Iterator[None]:
    """Within (around ``trainer.train()``): the trainer's own progress callback (a bar, or log dicts printed on
    stdout) replaced by ``step_bar`` on a terminal (``bar``) or ``plain_lines`` to ``say`` elsewhere, ticked every
    second so that a long step still shows time passing."""
    from transformers.trainer_callback import PrinterCallback, ProgressCallback

    trainer.remove_callback(ProgressCallback)
    trainer.remove_callback(PrinterCallback)
    callback = step_bar() if bar else plain_lines(say)
    trainer.add_callback(callback)
    with ticking(callback.tick):
        yield
