"""What a card or recipe may not publish: secrets by key and by form, the user's local paths."""

from __future__ import annotations

from pathlib import Path

from data_catalog.redaction import REDACTED, is_secret_key, redact_text, redact_value

HOME = Path("/srv/alice/aceforge-data")


def test_secret_keys_are_whole_words_of_the_key():
    for key in ("hf_token", "HF_TOKEN", "password", "db_passwd", "client_secret", "api_key", "apiKey", "auth"):
        assert is_secret_key(key), key
    for key in ("max_tokens", "tokenizer", "author", "keyword", "monkey", "passes", "secretary_name"):
        assert not is_secret_key(key), key


def test_values_are_redacted_by_key_and_urls_by_their_credentials():
    config = {
        "hf_token": "hf_abcdefghijklmnopqrstuvwxyz012345",
        "max_tokens": 64,
        "backend": {"base_url": "https://bob:s3cr3t@llm.example/v1", "apiKey": "sk-live-123", "author": "me"},
        "mirrors": ["postgres://svc:pw@db.internal:5432/runs", "https://huggingface.co/datasets/x"],
        "password": "",  # nothing to hide
    }
    assert redact_value(config) == {
        "hf_token": REDACTED,
        "max_tokens": 64,
        "backend": {"base_url": f"https://{REDACTED}@llm.example/v1", "apiKey": REDACTED, "author": "me"},
        "mirrors": [f"postgres://{REDACTED}@db.internal:5432/runs", "https://huggingface.co/datasets/x"],
        "password": "",
    }


def test_free_text_loses_keyed_secrets_bearer_and_hub_tokens():
    text = (
        'hf_token: hf_abcdefghijklmnopqrstuvwxyz012345 and "api_key": "sk-1", max_tokens: 64; '
        "Authorization: Bearer eyJhbGciOi.abc; a stray hf_ZYXWVUTSRQPONMLKJIHGFEDCBA987"
    )
    assert redact_text(text) == (
        f'hf_token: {REDACTED} and "api_key": "{REDACTED}", max_tokens: 64; '
        f"Authorization: {REDACTED} {REDACTED}; a stray {REDACTED}"
    )


def test_paths_are_relative_to_the_data_directory_and_other_local_paths_keep_their_last_name(monkeypatch):
    """The fault: /root/secret-models/m became ~/secret-models/m, still naming the folders."""
    monkeypatch.setenv("HOME", "/srv/alice")
    value = {
        "output": f"{HOME}/assets/selected/records.parquet",
        "inputs": ["/srv/alice/raw/chats.jsonl", "/srv/alicex/other.jsonl", str(HOME)],
        "note": f"see {HOME}/report/summary.md",
        "model": "/root/secret-models/m",
    }
    assert redact_value(value, HOME) == {
        "output": "$ACEFORGE_HOME/assets/selected/records.parquet",
        "inputs": ["<local-path>/chats.jsonl", "<local-path>/other.jsonl", "$ACEFORGE_HOME"],
        "note": "see $ACEFORGE_HOME/report/summary.md",
        "model": "<local-path>/m",
    }
