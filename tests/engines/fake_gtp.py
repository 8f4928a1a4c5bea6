"""A scripted GTP engine for referee tests (no board of its own).

    python fake_gtp.py [--moves C3,pass,...] [--crash-at N] [--sleep-at N:SECONDS]
                       [--dead "C3 D4"] [--log FILE] [--name NAME] [--refuse-play]

``genmove`` answers the next scripted move (then ``pass``); the N-th genmove (from 1) can
crash the process (exit 3) or sleep first. ``final_status_list dead`` answers ``--dead``.
Every command line is appended to ``--log``.
"""

import argparse
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", default="")
    parser.add_argument("--crash-at", type=int, default=0)
    parser.add_argument("--sleep-at", default="")
    parser.add_argument("--dead", default="")
    parser.add_argument("--log", default="")
    parser.add_argument("--name", default="Fake")
    parser.add_argument("--refuse-play", action="store_true")
    parser.add_argument("--tag", action="store_true", help="prefix log lines with --name")
    args = parser.parse_args()
    moves = [m for m in args.moves.split(",") if m]
    sleep_at, _, sleep_for = args.sleep_at.partition(":")
    asked = 0
    log = open(args.log, "a") if args.log else None  # noqa: SIM115

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if log:
            log.write(f"{args.name} {line}" if args.tag else line)
            log.flush()
        cid, name = words[0], words[1]
        answer = ""
        ok = True
        if name == "protocol_version":
            answer = "2"
        elif name == "name":
            answer = args.name
        elif name == "version":
            answer = "1.0"
        elif name == "genmove":
            asked += 1
            if asked == args.crash_at:
                sys.exit(3)
            if sleep_at and asked == int(sleep_at):
                time.sleep(float(sleep_for))
            answer = moves.pop(0) if moves else "pass"
        elif name == "play" and args.refuse_play:
            ok, answer = False, "illegal move"
        elif name == "final_status_list":
            answer = args.dead
        elif name == "quit":
            print(f"={cid}\n", flush=True)
            break
        print(f"{'=' if ok else '?'}{cid} {answer}\n", flush=True)


if __name__ == "__main__":
    main()
