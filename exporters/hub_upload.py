"""Upload a built Hub folder with huggingface_hub: create the dataset repository, commit the folder.

The token comes from ``HF_TOKEN`` or the login that ``hf auth login`` stored
(``huggingface_hub.get_token``). It is handed to the client and to nothing
else: it is never printed or logged, and an error from the Hub is passed on
with the token cut out of its text. ``HF_ENDPOINT`` points the client at
another Hub (a mirror, or a test server on loopback).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from exporters.hub_folder import MARKER_FILE, HubExportError

REPO_TYPE = "dataset"


@dataclass(frozen=True)
class UploadResult:
    repo_url: str
    commit_url: str
    files: int


def upload_hub_folder(
    folder: Path, repo_id: str, *, private: bool, commit_message: str, token: str | None = None
) -> UploadResult:
    """Create ``repo_id`` as a dataset repository if it is missing and commit every file of ``folder`` to it."""
    import httpx2  # huggingface_hub's HTTP client (2.x): its connection errors are not HfHubHTTPError
    from huggingface_hub import HfApi, constants, get_token
    from huggingface_hub.errors import HfHubHTTPError

    if constants.is_offline_mode():
        raise HubExportError("HF_HUB_OFFLINE is set: unset it to upload, or use --dry-run")
    token = token or get_token()
    if not token:
        raise HubExportError("no Hugging Face token: set HF_TOKEN or run `hf auth login`")
    api = HfApi(token=token)
    files = sum(1 for path in folder.rglob("*") if path.is_file() and path.name != MARKER_FILE)
    try:
        repo_url = api.create_repo(repo_id, repo_type=REPO_TYPE, private=private, exist_ok=True)
        commit = api.upload_folder(
            repo_id=repo_id,
            repo_type=REPO_TYPE,
            folder_path=folder,
            commit_message=commit_message,
            ignore_patterns=[MARKER_FILE],  # local bookkeeping: which files a re-export may replace
        )
    except (HfHubHTTPError, httpx2.HTTPError, OSError, ValueError) as exc:
        # `from None`: the chained original would carry the unredacted text.
        raise HubExportError(f"upload to {repo_id} failed: {redact(str(exc), token)}") from None
    return UploadResult(str(repo_url), commit.commit_url, files)


def redact(text: str, token: str) -> str:
    return text.replace(token, "<token>") if token else text
