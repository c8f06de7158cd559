"""Replay-verifications per second for 10-call retail trajectories, and the cost of a state hash.

Run: python bench/verify.py [--records 300] [--big-users 50000]

Prints, for retail worlds of 500 and 50,000 users: full-chain verifications
per second (structure → replay → final state → constraints → grounding → policy),
replay-only per second, and raw
environment replays per second (reset + the 10 calls + state_hash, no verifier,
with the hash's share of that time), on one core (run it under `taskset -c 0`);
then, at 500 and 50,000 users: generating the retail and airline DBs, the
state() copy, the full canonical hash of state() (sha256 of sorted JSON), the
snapshot's first (precomputed) hash, and the incremental hash after a
trajectory's writes, which is what replay pays.
"""

from __future__ import annotations

import argparse
import time

from environments.airline.generator import generate_airline_db
from environments.base import canonical_hash
from environments.registry import get_environment
from environments.to_record import to_record_environment
from generators.synthesis.goals import call
from generators.synthesis.gold_solver import gold_trajectory
from schemas.record import AgentRecord, Source, Task, Verifier
from schemas.steps import MessageAction
from verifiers.base import CheckContext
from verifiers.replay import ReplayVerifier
from verifiers.runner import verify_record


def pending_orders(env, limit: int) -> list[tuple[str, dict, dict]]:
    state = env.snapshot().tables  # read-only view: state() would copy 50,000 users
    found = []
    for order_id, order in state["orders"].items():
        if order["status"] == "pending":
            found.append((order_id, order, state["users"][order["user_id"]]))
        if len(found) == limit:
            break
    return found


def ten_calls(order_id: str, order: dict, user: dict) -> list[tuple[str, dict]]:
    return [
        ("find_user_id_by_email", {"email": user["email"]}),
        ("get_user_details", {"user_id": user["user_id"]}),
        ("get_order_details", {"order_id": order_id}),
        ("get_product_details", {"product_id": order["items"][0]["product_id"]}),
        ("list_product_types", {}),
        ("calculate", {"expression": f"{order['items'][0]['price']} * 2"}),
        ("get_order_details", {"order_id": order_id}),
        ("cancel_pending_order", {"order_id": order_id, "reason": "ordered by mistake"}),
        ("get_order_details", {"order_id": order_id}),
        ("get_user_details", {"user_id": user["user_id"]}),
    ]


def make_record(index: int, order_id: str, order: dict, user: dict, users: int) -> AgentRecord:
    """A 10-call cancellation recorded as a careful agent makes it (the write confirmed with its amount, the user's
    yes), with the task's gold actions, so every stage of the chain runs: final state, grounding, policy."""
    env = get_environment("retail", users=users)
    environment = to_record_environment(env)  # snapshot "retail-seed0-users<N>", sandbox {seed 0, env_params}
    opening = f"Please cancel {order_id}, I ordered it by mistake. My email is {user['email']}."
    steps, _ = gold_trajectory(env, opening, [call(n, **a) for n, a in ten_calls(order_id, order, user)], "")
    steps[-1] = MessageAction(content=f"Order {order_id} is cancelled.")
    constraints = [
        {"id": "cancelled", "check": "state_equals", "path": f"orders.{order_id}.status", "value": "cancelled"},
        {"id": "told", "check": "message_contains", "text": "cancelled"},
        {"check": "allow_write", "scope": f"users.{user['user_id']}"},
    ]
    gold = [
        call("find_user_id_by_email", email=user["email"]),
        call("cancel_pending_order", order_id=order_id, reason="ordered by mistake"),
    ]
    return AgentRecord(
        id=f"bench-{index}",
        environment=environment,
        task=Task(instruction="cancel", constraints=constraints, expected_outputs={"gold_actions": gold}),
        trajectory=steps,
        verifier=Verifier(kind="constraints"),
        source=Source(dataset="bench", format="synthetic"),
    )


def rate(fn, items, repeats: int = 3) -> tuple[float, float]:
    """Items per second and ms per item, best of ``repeats`` passes (the machine is shared)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return len(items) / best, best / len(items) * 1000


def raw_replay_rate(env, scripts: list[list[tuple[str, dict]]]) -> tuple[float, float]:
    """Replays/s of reset + calls + state_hash on one shared snapshot, and the hash's share of the time."""
    hashing = 0.0
    start = time.perf_counter()
    for script in scripts:
        env.reset(seed=0)
        for name, args in script:
            env.call(name, args)
        t = time.perf_counter()
        env.state_hash()
        hashing += time.perf_counter() - t
    total = time.perf_counter() - start
    return len(scripts) / total, hashing / total


def bench_replays(users: int, count: int) -> None:
    env = get_environment("retail", users=users)
    orders = pending_orders(env, count)
    records = [make_record(i, *row, users=users) for i, row in enumerate(orders)]
    passed = sum(bool(verify_record(r).passed) for r in records)  # also warms the snapshot's hash
    print(
        f"{users:>6,} users: {passed}/{len(records)} benchmark trajectories pass (a benchmark of failures would mislead)"
    )
    per_s, ms = rate(verify_record, records)
    print(
        f"{users:>6,} users: full chain (structure+replay+final_state+constraints+grounding+policy), 10 calls: {per_s:,.0f} verifications/s ({ms:.2f} ms each)"
    )
    replay = ReplayVerifier()
    per_s, ms = rate(lambda r: replay.check(CheckContext(record=r)), records)
    print(f"{users:>6,} users: replay only, 10 calls: {per_s:,.0f} replays/s ({ms:.2f} ms each)")
    per_s, hash_share = raw_replay_rate(env, [ten_calls(*row) for row in orders])
    print(
        f"{users:>6,} users: raw environment replay (reset + 10 calls + state_hash): {per_s:,.0f} replays/s, "
        f"state_hash {hash_share:.1%} of that time"
    )


def bench_hash(users: int) -> None:
    start = time.perf_counter()
    env = get_environment("retail", users=users, seed=1)  # seed 1: not cached by earlier runs
    generate_s = time.perf_counter() - start
    start = time.perf_counter()
    generate_airline_db(users=users, seed=1)
    airline_s = time.perf_counter() - start
    start = time.perf_counter()
    state = env.state()
    copy_s = time.perf_counter() - start
    start = time.perf_counter()
    canonical_hash(state)
    full_s = time.perf_counter() - start
    start = time.perf_counter()
    env.state_hash()
    first_s = time.perf_counter() - start
    order_id, order, user = pending_orders(env, 1)[0]
    for name, args in ten_calls(order_id, order, user):
        env.call(name, args)
    start = time.perf_counter()
    for _ in range(100):
        env.state_hash()
    incremental_ms = (time.perf_counter() - start) / 100 * 1000
    print(
        f"{users:>6,} users: generate retail {generate_s:.2f} s, airline {airline_s:.2f} s, state() copy {copy_s * 1000:.1f} ms, "
        f"full canonical hash {full_s * 1000:.1f} ms, first snapshot hash {first_s * 1000:.1f} ms, "
        f"incremental hash after the writes {incremental_ms:.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=300, help="How many distinct trajectories to verify.")
    parser.add_argument("--big-users", type=int, default=50_000, help="Users in the large world for the hash figures.")
    args = parser.parse_args()
    for users in (500, args.big_users):
        bench_replays(users, args.records)
    for users in (500, args.big_users):
        bench_hash(users)


if __name__ == "__main__":
    main()
