"""Summarise a py-spy `--format raw` profile: share of samples per function (self and total).

python bench/profsummary.py /tmp/server.prof [--top 25]
"""

from __future__ import annotations

import argparse
import collections
import sys


def summarize(path: str, top: int) -> str:
    self_count: collections.Counter[str] = collections.Counter()
    total_count: collections.Counter[str] = collections.Counter()
    samples = 0
    with open(path) as fh:
        for line in fh:
            stack, _, n = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            count = int(n)
            samples += count
            frames = stack.split(";")
            self_count[frames[-1]] += count
            for f in set(frames):
                total_count[f] += count
    out = [f"{samples} samples", "self%  function"]
    out += [f"{100 * c / samples:5.1f}  {f}" for f, c in self_count.most_common(top)]
    out += ["", "total%  function"]
    out += [f"{100 * c / samples:5.1f}  {f}" for f, c in total_count.most_common(top)]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    print(summarize(args.path, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
