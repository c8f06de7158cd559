"""Training progress on literal logs and a fake clock: the plain lines off a terminal (tests/training/test_sft.py
sees them from a real run)."""

from transformers import TrainerControl, TrainerState, TrainingArguments

from training.progress import StepRate, plain_lines


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def state(step: int, max_steps: int = 20) -> TrainerState:
    return TrainerState(global_step=step, max_steps=max_steps)


def test_a_line_says_the_step_the_loss_tokens_per_second_and_time_left():
    clock = FakeClock()
    rate = StepRate(clock)
    rate.begin(0, 20)
    assert rate.line(0) == "step 0/20, time left: after the first step"
    clock.now += 41
    rate.logged({"loss": 2.5, "num_tokens": 8192.0})
    assert rate.line(1, 2.5) == "step 1/20, loss 2.5, 200 tokens/s, 12 min 59 s left"  # 19 steps of 41 s


def test_a_resumed_run_counts_tokens_from_its_first_log_not_from_zero():
    clock = FakeClock()
    rate = StepRate(clock)
    rate.begin(10, 20)  # the checkpoint's 10 steps already trained 80,000 tokens
    clock.now += 30
    rate.logged({"loss": 1.0, "num_tokens": 88000.0})
    assert rate.tokens_per_s is None
    clock.now += 30
    rate.logged({"loss": 0.9, "num_tokens": 94000.0})
    assert rate.line(12, 0.9) == "step 12/20, loss 0.9, 200 tokens/s, 4 min 00 s left"  # 8 steps of 30 s


def test_plain_lines_at_each_log_and_every_10_s_between_logs():
    clock, lines = FakeClock(), []
    callback = plain_lines(lines.append, clock)
    args, control = TrainingArguments(output_dir="unused", report_to="none"), TrainerControl()
    callback.on_train_begin(args, state(0), control)
    clock.now += 40
    callback.on_step_end(args, state(1), control)  # 40 s without a line: one now
    callback.on_log(args, state(1), control, logs={"loss": 3.0, "num_tokens": 4000.0, "learning_rate": 1e-4})
    clock.now += 5
    callback.on_step_end(args, state(2), control)  # 5 s after the last line: nothing
    callback.on_log(args, state(2), control, logs={"eval_loss": 2.75})
    callback.on_log(args, state(2), control, logs={"train_runtime": 45.0})  # the closing summary: not a step line
    assert lines == [
        "step 0/20: training started",
        "step 1/20, 12 min 40 s left",
        "step 1/20, loss 3, 100 tokens/s, 12 min 40 s left",
        "step 2/20: eval loss 2.75",
    ]


def test_within_a_long_step_the_tick_says_a_line_every_10_s():
    clock, lines = FakeClock(), []
    callback = plain_lines(lines.append, clock)
    args, control = TrainingArguments(output_dir="unused", report_to="none"), TrainerControl()
    callback.tick()  # before training begins: nothing to say
    callback.on_train_begin(args, state(0, 1), control)
    callback.on_step_begin(args, state(0, 1), control)
    for seconds in (5, 12, 15, 22):  # the one step of 8k tokens that ran 13 minutes on two cores
        clock.now = 1000 + seconds
        callback.tick()
    assert lines == [
        "step 0/1: training started",
        "step 0/1, time left: after the first step; step 1 running for 12 s",
        "step 0/1, time left: after the first step; step 1 running for 22 s",
    ]
