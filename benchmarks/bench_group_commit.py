"""The group commit's cost on PostgreSQL: 50 tables each send 40 casino-like writes (a fencing
check, a ledger posting, a step row) through ``Database.commit_together``; prints the wall
time, the CPU a job and the batches (docs/scaling.md "The database path on PostgreSQL").

    python benchmarks/bench_group_commit.py [label] [--url postgresql://postgres@127.0.0.1/test]

It creates a scratch database next to the one in ``--url`` and drops it at the end. To compare
two versions of the code, run it from each checkout (``PYTHONPATH=<checkout>``).
"""

import asyncio
import sys
import time
import uuid

import asyncpg

from mazziere.game import Step
from mazziere.server.store import accounts, hands, ledger, table_rows
from mazziere.server.store.db import Database

ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


async def main(admin: str) -> None:
    name = "mzgc_" + uuid.uuid4().hex[:8]
    c = await asyncpg.connect(admin)
    await c.execute(f'CREATE DATABASE "{name}"')
    await c.close()
    db = Database(admin.rsplit("/", 1)[0] + f"/{name}")
    await db.migrate()
    async with db.write() as s:
        accs = [
            await accounts.sign_up(s, f"user{i}", "correct horse battery", 1_000_000)
            for i in range(50)
        ]
        tabs = [await table_rows.create(s, "casino", f"t{i}", {}, 2, None, 30.0) for i in range(50)]
        for t in tabs:
            await table_rows.take_fence(s, t.id, 1)
    async with db.write() as s:
        hids = [
            await hands.open_hand(s, t.id, "casino", "ab" * 16, {}, [{"account": a.id}])
            for t, a in zip(tabs, accs, strict=True)
        ]

    async def worker(i: int, n: int) -> None:
        h = hids[i]
        t = tabs[i].id
        a = accs[i].id
        for k in range(n):

            async def job(s, k=k):
                await table_rows.check_fence(s, t, 1)
                await ledger.post(
                    s, f"k{i}:{k}", "stake", "", [(ledger.wallet(a), -5), (ledger.HOUSE, 5)]
                )
                await hands.record_steps(
                    s,
                    h,
                    k + 1,
                    [
                        Step(
                            seat=0, action="play 3", actor="player", events=[("played", None, None)]
                        )
                    ],
                )

            await db.commit_together(job)

    c0 = time.process_time()
    w0 = time.perf_counter()
    await asyncio.gather(*(worker(i, 40) for i in range(50)))
    c1 = time.process_time()
    w1 = time.perf_counter()
    n = 50 * 40
    label = sys.argv[1] if len(sys.argv) > 1 else ""
    cpu_us = (c1 - c0) / n * 1e6
    print(
        f"{label} jobs={n} wall={w1 - w0:.2f}s cpu/job={cpu_us:.0f}us batches={db.batches} "
        f"jobs/batch={db.batched_jobs / db.batches:.1f}"
    )
    await db.close()
    c = await asyncpg.connect(admin)
    await c.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    await c.close()


if __name__ == "__main__":
    admin = ADMIN
    if "--url" in sys.argv:
        at = sys.argv.index("--url")
        admin = sys.argv[at + 1]
        del sys.argv[at : at + 2]
    asyncio.run(main(admin))
