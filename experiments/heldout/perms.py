#!/usr/bin/env python3
"""The held-out permutations of docs/prediction.md ("Held out"): kinds of permutation that no table
of mmsim's and no calibration microbenchmark uses, at sizes no table uses (n = 2^21, 2^23, 2^25:
no KNI table's n is an odd power of two). They were fixed before any of them was timed or
predicted, and nothing is fitted or chosen on them.

  perms.py OUT_DIR [LOG2_N ...] [--only PATTERN]   writes OUT_DIR/<pattern>-n<N>.txt, one
                                                   destination per line

Plain Python (no NumPy), so that it runs on a bare GPU machine."""
import random
import sys

PATTERNS = ["affine-3", "affine-1025", "affine-golden", "rotl-5", "rotr-half", "xor-spread", "reverse",
            "blockrand-256", "shift-half", "tile-transpose-32"]


def destination(pattern, n, bits):
    """P as a list: element i goes to P[i]."""
    mask = n - 1
    if pattern == "affine-3":
        return [(3 * i + 7) & mask for i in range(n)]
    if pattern == "affine-1025":
        return [(1025 * i + 1) & mask for i in range(n)]
    if pattern == "affine-golden":  # an odd multiplier spreads every warp over the whole array
        return [(0x9E3779B1 * i) & mask for i in range(n)]
    if pattern in ("rotl-5", "rotr-half"):
        r = 5 if pattern == "rotl-5" else bits - (bits // 2 + 1)
        return [((i << r) | (i >> (bits - r))) & mask for i in range(n)]
    if pattern == "xor-spread":  # flips every second bit from bit 1 up
        m = 0x2AAAAAAA & mask
        return [i ^ m for i in range(n)]
    if pattern == "reverse":
        return [mask - i for i in range(n)]
    if pattern == "blockrand-256":  # a random order inside each block of 256, seeded
        rng = random.Random(20261126)
        out = []
        for base in range(0, n, 256):
            block = list(range(base, base + 256))
            rng.shuffle(block)
            out.extend(block)
        return out
    if pattern == "shift-half":
        return [(i + n // 2 + 33) & mask for i in range(n)]
    if pattern == "tile-transpose-32":  # rows of 1024: each 32 x 32 tile transposed in place
        out = []
        for i in range(n):
            r, c = divmod(i, 1024)
            out.append(((r // 32) * 32 + c % 32) * 1024 + (c // 32) * 32 + r % 32)
        return out
    raise ValueError(pattern)


def main():
    def refuse(why):
        print(f"perms.py: {why} (usage: perms.py OUT_DIR [LOG2_N ...] [--only PATTERN])", file=sys.stderr)
        sys.exit(2)

    args = sys.argv[1:]
    only = None
    if "--only" in args:
        k = args.index("--only")
        if k + 1 >= len(args) or args[k + 1] not in PATTERNS:
            refuse("--only takes one of " + ", ".join(PATTERNS))
        only = args[k + 1]
        del args[k:k + 2]
    if not args:
        refuse("OUT_DIR is required")
    out = args[0]
    if not all(b.isdigit() and 15 <= int(b) <= 28 for b in args[1:]):
        refuse("each LOG2_N must be a whole number in [15, 28]")
    sizes = [int(b) for b in args[1:]] or [21, 23, 25]
    for bits in sizes:
        n = 1 << bits
        for pattern in PATTERNS:
            if only is not None and pattern != only:
                continue
            p = destination(pattern, n, bits)
            assert sorted(p) == list(range(n)), pattern  # a permutation
            with open(f"{out}/{pattern}-n{n}.txt", "w") as f:
                f.write("\n".join(map(str, p)))
                f.write("\n")


if __name__ == "__main__":
    main()
