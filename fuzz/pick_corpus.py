#!/usr/bin/env python3
"""Picks a small corpus out of a large one: reads the control file of a libFuzzer
`-set_cover_merge=1 -merge_control_file=FILE` run (which lists, per input, every coverage
feature it reaches) and prints the paths of at most N inputs, chosen greedily, each the one
adding the most features not yet covered. The last line, on stderr, says how many of all the
features the pick covers. See fuzz/README.md, "Refreshing the committed corpus".

Usage: pick_corpus.py CONTROL_FILE N
"""

import sys


def main() -> None:
    control, limit = sys.argv[1], int(sys.argv[2])
    with open(control) as lines:
        count = int(next(lines))
        next(lines)  # how many of the files belong to the output folder
        paths = [next(lines).rstrip("\n") for _ in range(count)]
        features = {}
        for line in lines:
            words = line.split()
            if words and words[0] == "FT":
                features[int(words[1])] = set(map(int, words[2:]))
    every = set().union(*features.values()) if features else set()
    covered, picked = set(), []
    while len(picked) < limit:
        best = max(features, key=lambda i: len(features[i] - covered), default=None)
        if best is None or not features[best] - covered:
            break
        covered |= features.pop(best)
        picked.append(best)
    for index in picked:
        print(paths[index])
    print(f"{len(picked)} inputs cover {len(covered)} of {len(every)} features", file=sys.stderr)


if __name__ == "__main__":
    main()
