"""What keeps training memory down, the same training: small LM-head tiles on a CPU, one-sequence SFT micro-batches,
freed buffers returned to the system.

TRL's fused LM head folds tiles of 4096 tokens x 32768 vocabulary entries
(512 MB in fp32, several such temporaries at once without Triton); on a CPU
``small_lm_head_tiles`` sets 1024 x 8192. A tiny random Llama (1 layer, a
9000-token vocabulary) is scored both ways.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
import trl.kernels.chunked_logprob as kernel
import trl.trainer.utils as trl_utils
from transformers import LlamaConfig, LlamaForCausalLM
from trl.trainer.utils import add_fused_lm_head

from training.devices import CPU_TILE_TOKENS, CPU_TILE_VOCAB, small_lm_head_tiles, unmap_freed_buffers
from training.sft_config import SftConfig

TRL_TILE_TOKENS, TRL_TILE_VOCAB = 4096, 32768  # trl.kernels.chunked_logprob, trl.trainer.utils (TRL 1.16)


def scored(model, input_ids) -> tuple[torch.Tensor, torch.Tensor]:
    """The loss and the gradient of the (tied) embedding through the fused LM head."""
    model.zero_grad()
    output = model(input_ids=input_ids, labels=input_ids, fused_lm_head=True)
    output.loss.backward()
    return output.loss.detach(), model.get_input_embeddings().weight.grad.clone()


@pytest.mark.skipif(torch.cuda.is_available(), reason="the tiles are set on CPU-only machines")
def test_small_tiles_give_the_same_loss_and_gradients(monkeypatch):
    # TRL's own sizes, whatever a training run earlier in this process set; restored after the test.
    monkeypatch.setattr(kernel, "TOKEN_CHUNK_SIZE", TRL_TILE_TOKENS)
    monkeypatch.setattr(trl_utils, "_CHUNKED_LOGPROB_CHUNK_SIZE", TRL_TILE_VOCAB)
    tiles = []
    fold = kernel._forward_tile
    monkeypatch.setattr(
        kernel, "_forward_tile", lambda tile, *a, **k: (tiles.append(tuple(tile.shape)), fold(tile, *a, **k))
    )
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=9_000, hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
        num_key_value_heads=1, tie_word_embeddings=True,
    )  # fmt: skip
    model = LlamaForCausalLM(config)
    add_fused_lm_head(model)
    input_ids = torch.randint(0, config.vocab_size, (2, 600))  # 2 x 599 scored positions: two token tiles

    loss, grad = scored(model, input_ids)
    assert set(tiles) == {(1198, 9_000)}  # TRL's default: every position and the whole vocabulary in one tile
    tiles.clear()
    small_lm_head_tiles()
    small_loss, small_grad = scored(model, input_ids)

    assert max(t[0] for t in tiles) == CPU_TILE_TOKENS and max(t[1] for t in tiles) == CPU_TILE_VOCAB
    assert len(tiles) == 2 * 2  # (1024 + 174 tokens) x (8192 + 808 entries)
    torch.testing.assert_close(small_loss, loss)
    torch.testing.assert_close(small_grad, grad)


def test_sft_steps_on_two_sequences_one_micro_batch_at_a_time(tmp_path):
    args = SftConfig(data=tmp_path / "x.parquet", output_dir=tmp_path).trl_config(tmp_path, False, max_length=64)
    assert (args.per_device_train_batch_size, args.gradient_accumulation_steps) == (1, 2)
    given = SftConfig(data=tmp_path / "x.parquet", output_dir=tmp_path, batch_size=4, gradient_accumulation=1)
    args = given.trl_config(tmp_path, False, max_length=64)
    assert (args.per_device_train_batch_size, args.gradient_accumulation_steps) == (4, 1)


# After one 8 MB buffer freed (glibc's threshold now follows it), 100 more, every other one freed (holes the heap
# cannot trim), as a training step frees its transient tensors: the MB still resident above the start.
KEEP_HALF = textwrap.dedent("""
    import sys
    import torch
    from training.devices import unmap_freed_buffers

    def rss_mb():
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS:"))

    if sys.argv[1] == "fixed":
        assert unmap_freed_buffers()
    torch.ones(2 * 2**20)
    start = rss_mb()
    buffers = [torch.ones(2 * 2**20) for _ in range(100)]
    del buffers[::2]
    print(rss_mb() - start)
""")


def resident_after_freeing_half(setting: str) -> int:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_MMAP_THRESHOLD_"}
    child = subprocess.run(
        [sys.executable, "-c", KEEP_HALF, setting], capture_output=True, text=True, check=True, env=env,
        cwd=Path(__file__).parents[2],
    )  # fmt: skip
    return int(child.stdout.split()[-1])


@pytest.mark.skipif(not Path("/proc/self/status").exists() or sys.platform != "linux", reason="glibc on Linux")
def test_freed_buffers_leave_resident_memory_with_the_threshold_fixed():
    assert resident_after_freeing_half("glibc") > 700  # 800 MB touched, the 400 MB freed stay in glibc's heap
    assert resident_after_freeing_half("fixed") < 500  # the 50 live buffers (400 MB) and little else


def test_the_users_own_malloc_setting_is_left_alone(monkeypatch):
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "65536")
    assert unmap_freed_buffers() is False
