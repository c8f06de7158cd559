"""The raw reader: JSON arrays, pretty-printed objects, JSONL, gzip; bad lines become error items."""

from __future__ import annotations

import gzip
import json

from data_catalog.sources import get_converter
from data_catalog.sources.reader import read_raw_chunks, read_raw_items

split = get_converter("adp").items  # the default split: a list's elements, or the object itself


def _read(path):
    return list(read_raw_items(str(path), split))


def test_json_array_yields_each_element(tmp_path):
    path = tmp_path / "a.json"
    path.write_text(json.dumps([{"id": 1}, {"id": 2}], indent=2))
    items = _read(path)
    assert [(i.index, i.value) for i in items] == [(0, {"id": 1}), (1, {"id": 2})]


def test_pretty_printed_object_is_one_document(tmp_path):
    path = tmp_path / "o.json"
    path.write_text(json.dumps({"simulations": [1, 2], "info": {"x": 1}}, indent=2))
    items = _read(path)
    assert len(items) == 1 and items[0].value["simulations"] == [1, 2]


def test_jsonl_with_a_truncated_line_keeps_going(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"id": "a"}\n{"id": "b", "mess\n\n{"id": "c"}\n')
    items = _read(path)
    assert [i.value for i in items] == [{"id": "a"}, None, {"id": "c"}]
    assert items[1].error.startswith("invalid JSON line") and items[1].raw_text.startswith(b'{"id": "b"')
    assert [i.index for i in items] == [0, 1, 2]


def test_jsonl_whose_first_line_is_broken_is_still_read_as_lines(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"id": \n{"id": "b"}\n')
    items = _read(path)
    assert items[0].error is not None and items[1].value == {"id": "b"}


def test_truncated_json_array_is_one_error_item(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('[{"id": 1}, {"id": 2')
    (item,) = _read(path)
    assert item.error.startswith("invalid JSON document")


def test_gzip_is_detected_by_content(tmp_path):
    path = tmp_path / "r.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.write('{"id": 1}\n{"id": 2}\n')
    assert [i.value["id"] for i in _read(path)] == [1, 2]


def test_a_plain_jsonl_file_is_cut_into_spans_of_whole_lines(tmp_path):
    # Lines of 12 and 13 bytes with 20-byte chunks: cuts land inside lines and right at a line start;
    # the last line has no newline. The spans cover the file once; each chunk reads its own lines.
    lines = [json.dumps({"id": i}) for i in range(12)]  # '{"id": 0}' ... '{"id": 11}'
    path = tmp_path / "r.jsonl"
    path.write_bytes(("\n".join(lines)).encode())
    chunks = list(read_raw_chunks(str(path), split, chunk_bytes=20))
    spans = [c.span for c in chunks]
    assert spans[0][0] == 0 and spans[-1][1] == path.stat().st_size
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert [line.decode() for c in chunks for line in c.lines] == lines
    assert all(c.data is None for c in chunks)  # the reading process holds no data


def test_gzip_chunks_carry_their_data(tmp_path):  # a compressed file cannot be read at an offset
    path = tmp_path / "r.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.write("".join(json.dumps({"id": i}) + "\n" for i in range(30)))
    chunks = list(read_raw_chunks(str(path), split, chunk_bytes=64))
    assert len(chunks) > 1 and all(c.span is None and c.data for c in chunks)
    assert [json.loads(line)["id"] for c in chunks for line in c.lines] == list(range(30))
