"""Where a server's CPU goes: reads py-spy's collapsed stacks (``py-spy record --format raw``,
as written by ``bench/cluster.py --profile DIR``) and prints the share of samples per area
(the innermost frame's package: SQLAlchemy, psycopg, asyncio, the WebSocket stack, JSON,
duiyi's cores, duiyi's server) and the functions with the most samples, inclusive and self.

    .venv/bin/python bench/profile_summary.py DIR/one-100x4.txt --top 25
"""

from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

# first match wins, looked up in the frame's file path
AREAS = [
    ("sqlalchemy", "sqlalchemy"),
    ("psycopg", "psycopg"),
    ("websockets/uvicorn/starlette", r"websockets|uvicorn|starlette|h11|httptools|fastapi"),
    ("json", r"/json/"),
    ("asyncio", r"asyncio|uvloop"),
    ("redis", r"/redis/"),
    ("duiyi cores", r"duiyi/(go|gomoku|session|clock|referee|tournament|outcome)"),
    ("duiyi store", r"duiyi/store"),
    ("duiyi server", r"duiyi/server"),
    ("logging", r"/logging/"),
]


def area(frame: str) -> str:
    for name, pattern in AREAS:
        if re.search(pattern, frame):
            return name
    return "other"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    areas: collections.Counter[str] = collections.Counter()
    total = 0
    for name in args.files:
        for line in Path(name).read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            n = int(count)
            frames = [f for f in stack.split(";") if not f.startswith("process ")]
            if not frames:
                continue
            total += n
            for f in set(frames):
                inclusive[f] += n
            own[frames[-1]] += n
            # the innermost frame that is not the interpreter's own plumbing decides the area
            areas[area(frames[-1])] += n
    if not total:
        raise SystemExit("no samples")
    print(f"{total} samples")
    print("\nby area (innermost frame)")
    for name, n in areas.most_common():
        print(f"  {n / total * 100:5.1f}%  {name}")
    print(f"\ninclusive, top {args.top}")
    for frame, n in inclusive.most_common(args.top):
        print(f"  {n / total * 100:5.1f}%  {frame}")
    print(f"\nself, top {args.top}")
    for frame, n in own.most_common(args.top):
        print(f"  {n / total * 100:5.1f}%  {frame}")


if __name__ == "__main__":
    main()
