"""How often an LLM judge agrees with the hand labels, per kind of case: the measure a judge needs to be trusted.

Run: python bench/judge_agreement.py [--backend vllm] [--model default] [--domains retail airline] [-o FILE]

The judge (verifiers/llm_judge.py, alone: none of the rule stages) reads each trajectory of bench/labelled/ (a
person labelled each by reading the task's instruction and the policy) and passes or fails it. Printed per kind of
case and in total: agreement on right trajectories (the judge passed them), on wrong ones (it failed them; no
verdict counts as disagreeing) and overall. ``-o FILE`` writes the figures as a JSON agreement file;
``aceforge verify --judge-... --judge-agreement FILE`` lets that judge decide the records the rules leave undecided
only when the file names the same model and both agreements reach ``--min-judge-agreement`` (0.90 by default).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from generators.llm.config import BackendConfig
from verifiers.judge_trust import Agreement, JudgeAgreement
from verifiers.llm_judge import LLMJudge

CHUNK = 32


def stratified(found: list, per_kind: int | None) -> list:
    """The first ``per_kind`` right and the first ``per_kind`` wrong cases of each kind, in file order (a subset
    fixed before any verdict is seen); all of them when ``per_kind`` is None."""
    if per_kind is None:
        return found
    taken: dict[tuple[str, str], int] = {}
    subset = []
    for case in found:
        key = (case.kind, case.label)
        if taken.get(key, 0) < per_kind:
            taken[key] = taken.get(key, 0) + 1
            subset.append(case)
    return subset


def measure(config: BackendConfig, domains: list[str], per_kind: int | None = None) -> JudgeAgreement:
    from labelled.cases import cases, record_of

    labelled = [(record_of(domain, case), case) for domain in domains for case in stratified(cases(domain), per_kind)]
    model = config.make_generator()
    judge, verdicts = LLMJudge(), []
    try:
        for start in range(0, len(labelled), CHUNK):  # in chunks, to say how far it is
            verdicts += judge.judge(model, [record for record, _ in labelled[start : start + CHUNK]])
            print(f"  judged {len(verdicts)}/{len(labelled)}", flush=True)
        identity = model.model_id
    finally:
        model.close()
    by_kind: dict[str, Agreement] = {}
    for (_, case), verdict in zip(labelled, verdicts):
        by_kind.setdefault(case.kind, Agreement()).add(case.label, verdict.passed)
    return JudgeAgreement(
        judge=identity, labelled_set=f"bench/labelled {'+'.join(domains)}, {len(labelled)} cases", by_kind=by_kind
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default=None, help="Generation backend of the judge (default: the project's).")
    parser.add_argument("--model", default="default", help="The judge model (default: SmolLM2-135M-Instruct).")
    parser.add_argument("--base-url", action="append", default=[], help="Server URL (openai backend).")
    parser.add_argument(
        "--max-model-len", type=int, default=4096, help="Context length (a transcript is cut at 6,000 characters)."
    )
    parser.add_argument(
        "--dtype", default="auto", help="Weights and compute (on a CPU without bf16, float32 runs vllm faster)."
    )
    parser.add_argument("--domains", nargs="+", default=["retail", "airline"], help="Labelled sets to judge.")
    parser.add_argument(
        "--per-kind",
        type=int,
        help="Judge only the first N right and N wrong cases of each kind per domain (on a CPU the whole set takes "
        "hours; the agreement file records the subset's size).",
    )
    parser.add_argument("-o", "--output", type=Path, help="Write the agreement file here.")
    args = parser.parse_args()
    config = BackendConfig(
        backend=args.backend,
        model=args.model,
        base_url=args.base_url,
        max_model_len=args.max_model_len,
        dtype=args.dtype,
        cache=False,
    )
    started = time.perf_counter()
    measured = measure(config, args.domains, args.per_kind)
    print(f"judge {measured.judge['model']} (hash {measured.judge.get('hash', '-')}) on {measured.labelled_set}:")
    for kind, agreement in sorted(measured.by_kind.items()):
        print(f"  {kind:<20} {agreement.line()}")
    print(f"  {'total':<20} {measured.total.line()}  [{time.perf_counter() - started:.0f} s]")
    if args.output:
        args.output.write_text(measured.model_dump_json(indent=1) + "\n")
        print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
