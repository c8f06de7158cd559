"""Progress of a long step as lines of the run's log: ``aceforge run`` says them as they come (main_job.StepLines
reads the run's event log, whichever process the step runs in), and the UI shows them in the run's log; for a
step on Ray, also where its cluster and dashboard are."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from dagster import AssetExecutionContext, MetadataValue

from pipelines.throttle import Heartbeat, LineThrottle
from runtime.elapsed import listening, spent
from runtime.engine import CLUSTER_LINE, cluster_info
from runtime.executor import Executor, ExecutorConfig, RayExecutor, open_executor, task_progress

PREFIX = "progress: "


@contextmanager
def step_progress(context: AssetExecutionContext, unit: str, total: int) -> Iterator[Callable[[int, int], None]]:
    """Within: an ``on_progress(done, total)`` that logs ``progress: done/total unit, N s`` now and then, at the
    end, and at least every 10 s while nothing finishes (``Heartbeat``); slow steps (``announced``) log theirs."""

    def line(done: int, of: int, elapsed_s: float) -> None:
        context.log.info(f"{PREFIX}{done}/{of} {unit}, {spent(elapsed_s)}")

    # The model's conversion and the engine's start (inside the block, before the first count) say their lines too.
    with listening(lambda said: context.log.info(PREFIX + said)), Heartbeat(line, total).beating() as heartbeat:
        yield heartbeat.update


def progress_of(message: str) -> str | None:
    """What a progress line of ``step_progress`` says (``12/48 rollouts, 35 s``), a step's Ray cluster line as it is, or
    None for any other log line."""
    if message.startswith(PREFIX):
        return message[len(PREFIX) :]
    return message if message.startswith(CLUSTER_LINE) else None


@contextmanager
def engine_step(context: AssetExecutionContext, cfg: ExecutorConfig, output: str = "result") -> Iterator[Executor]:
    """The executor of the block's stage work. For engine=ray the cluster is joined here; the run's log says where
    it is and where its dashboard is, then how the Ray tasks advance (``progress: Encoder on ray: 12/40 tasks
    done``), and the materialization of ``output`` (an @asset's is ``result``) gets the dashboard's link."""
    with open_executor(cfg) as executor:
        if not isinstance(executor, RayExecutor):
            yield executor
            return
        info = cluster_info(executor.ray)
        context.log.info(info.line())
        metadata = {"ray_cluster": MetadataValue.text(info.address)}
        if info.dashboard:
            metadata["ray_dashboard"] = MetadataValue.url(info.dashboard)
        context.add_output_metadata(metadata, output_name=output)  # the asset's own output, not its checks
        throttle = LineThrottle()

        def on_task_done(what: str, done: int, total: int | None) -> None:
            if throttle.due(done, total, key=what):
                count = f"{done}/{total}" if total is not None else f"{done}"  # a streamed input: no total yet
                context.log.info(f"{PREFIX}{what} on ray: {count} tasks done")

        with task_progress(on_task_done):
            yield executor
