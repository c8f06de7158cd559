"""Tool-world figures: DB generation, first (full) hash, per-call hash cost, raw replays/s.

    python bench/tool_worlds.py [--users 500 50000] [--replays 1000]

A "replay" is reset(state=DB) + 10 retail tool calls (lookups, reads, a
cancellation, an address change) + state_hash(), on one core, all from one
shared snapshot, which is how verifiers replay many trajectories of one DB.
"""

from __future__ import annotations

import argparse
import time

from environments.airline.generator import generate_airline_db
from environments.retail.env import RetailWorld
from environments.retail.generator import generate_retail_db
from environments.state_store import Snapshot


def ten_calls(state: dict, user: dict) -> list[tuple[str, dict]]:
    pending = [o for o in user["orders"] if state["orders"][o]["status"] == "pending"]
    calls = [("find_user_id_by_email", {"email": user["email"]}), ("get_user_details", {"user_id": user["user_id"]})]
    calls += [("get_order_details", {"order_id": o}) for o in user["orders"][:2]]
    calls += [("list_product_types", {}), ("calculate", {"expression": "(12.5 + 3) * 2"})]
    if pending:
        calls.append(("cancel_pending_order", {"order_id": pending[0], "reason": "no longer needed"}))
    calls.append(("modify_user_address", {"user_id": user["user_id"], **{**user["address"], "address2": "Apt 9"}}))
    while len(calls) < 10:
        calls.append(("get_user_details", {"user_id": user["user_id"]}))
    return calls[:10]


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def bench(users: int, replays: int) -> None:
    db, generate_s = timed(lambda: generate_retail_db(users=users, seed=0))
    _, airline_s = timed(lambda: generate_airline_db(users=users, seed=0))
    _, full_hash_s = timed(lambda: Snapshot(db).table_sums())
    env = RetailWorld(state=db)
    env.state_hash()  # the snapshot's table sums, once
    people = list(db["users"].values())[:200]
    scripts = [ten_calls(db, user) for user in people]
    start, hashes = time.perf_counter(), 0.0
    for i in range(replays):
        env.reset(state=db)
        for name, arguments in scripts[i % len(scripts)]:
            env.call(name, arguments)
        t = time.perf_counter()
        env.state_hash()
        hashes += time.perf_counter() - t
    total = time.perf_counter() - start
    print(f"users={users:>6}  generate retail {generate_s:6.2f}s  airline {airline_s:6.2f}s  "
          f"first full hash {full_hash_s * 1000:8.1f} ms  replays/s {replays / total:7.0f}  "
          f"state_hash after a replay {hashes / replays * 1e6:6.1f} us ({hashes / total:.1%} of replay time)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, nargs="+", default=[500, 50_000], help="DB sizes to measure")
    parser.add_argument("--replays", type=int, default=1000, help="replays per size")
    args = parser.parse_args()
    for users in args.users:
        bench(users, args.replays)


if __name__ == "__main__":
    main()
