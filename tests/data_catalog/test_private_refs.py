"""The rules for what names the publisher's machine or network, on literal inputs of each kind; public hosts and
ordinary text stay as they are."""

from __future__ import annotations

import pytest

from data_catalog.private_refs import is_private_address, scrub_private

A, P = "<private-address>", "<local-path>"


@pytest.mark.parametrize(
    ("text", "scrubbed"),
    [
        # IPv4, RFC 1918: each range, its edges, with a port and in a URL
        ("10.0.0.5", A),
        ("base_url: http://10.0.0.5:8000/v1", f"base_url: http://{A}/v1"),
        ("172.16.0.1 and 172.31.255.254", f"{A} and {A}"),
        ("192.168.1.20:5432", A),
        ("postgres://db@192.168.0.9:5432/runs", f"postgres://db@{A}/runs"),
        # carrier-grade NAT, link-local (the cloud metadata address), loopback with a port, this network
        ("100.64.1.1", A),
        ("http://169.254.169.254/latest/meta-data", f"http://{A}/latest/meta-data"),
        ("127.0.0.1:11434 and 127.8.9.10", f"{A} and {A}"),
        ("0.0.0.0:8080", A),
        ("localhost:8000 or LOCALHOST", f"{A} or {A}"),
        # IPv6: loopback, link-local (with a zone), unique local, IPv4-mapped; bare and in brackets with a port
        ("::1", A),
        ("http://[::1]:8000/v1", f"http://{A}/v1"),
        ("fe80::1%eth0 and http://[fe80::abcd:1]:9000/", f"{A} and http://{A}/"),
        ("fd12:3456:789a::1", A),
        ("::ffff:10.1.2.3", A),
        # paths: absolute, under home, home-relative, Windows drive and UNC, file URLs: the last name only
        ("/root/secret-models/m", f"{P}/m"),
        ("model=/home/x/models/llama.gguf,", f"model={P}/llama.gguf,"),
        ("read ~/secret-models/m and ~alice/data/x.jsonl", f"read {P}/m and {P}/x.jsonl"),
        ("C:\\Users\\bob\\runs\\a.jsonl", f"{P}/a.jsonl"),
        ("D:/data/b.parquet", f"{P}/b.parquet"),
        ("\\\\fileserver\\share\\c.json", f"{P}/c.json"),
        ("file:///home/x/raw.jsonl and FILE://host/srv/y.json", f"{P}/raw.jsonl and {P}/y.json"),
        ('"/srv/data/"', f'"{P}/data"'),
    ],
)
def test_private_addresses_and_local_paths_are_taken_out(text, scrubbed):
    assert scrub_private(text) == scrubbed
    assert scrub_private(scrubbed) == scrubbed  # once is enough: the replacements are not matched again


@pytest.mark.parametrize(
    "text",
    [
        "8.8.8.8:53 and 1.1.1.1",
        "172.15.0.1 172.32.0.1 192.169.0.1 100.128.0.1 11.0.0.1",  # just outside the private ranges
        "2001:4860:4860::8888 and http://[2606:4700::1111]:443/",
        "https://huggingface.co/datasets/acme/agents and hf://datasets/acme/x",
        "https://api.openai.com/v1/chat/completions",
        "s3://bucket/key/part-0.parquet",
        "postgres://db.internal:5432/runs",  # a host name says nothing of an address
        "$ACEFORGE_HOME/assets/selected/records.parquet",
        "data/train-00000-of-00001.parquet and plots/complexity.png",
        "pass^1 / pass^k, and/or 3/4, 2024/06/01, 12:30:45, 00:1a:2b:3c:4d:5e, std::vector",
        "version 2.0.1 and 1.2.3.4.5, /single, ~ alone",
        "| tau_bench | apache-2.0 | 12 |",
    ],
)
def test_public_hosts_and_ordinary_text_stay(text):
    assert scrub_private(text) == text


def test_is_private_address_reads_addresses_only():
    assert is_private_address("10.0.0.5") and is_private_address("fe80::1%eth0")
    assert not is_private_address("8.8.8.8") and not is_private_address("not an address")
