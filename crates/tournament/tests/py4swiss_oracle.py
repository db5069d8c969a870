"""Pairs TRF files with py4swiss's FIDE Dutch engine, for tests/dutch_oracle.rs.

Reads one TRF path per line on stdin and answers one line per path:
`ok W-B W-B ...` (start numbers; `N-0` is the pairing-allocated bye) or
`error <why>`. One process for every file: starting Python and pydantic
costs more than pairing a small round.
"""

import sys
from pathlib import Path

from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser


def pair(path: str) -> str:
    try:
        # strict: a line py4swiss would skip as malformed is an error here.
        trf = TrfParser.parse(Path(path), strict=True)
        pairings = DutchEngine.generate_pairings(trf)
    except Exception as e:  # the test reports any refusal as it is
        return f"error {type(e).__name__}: {e}".replace("\n", " ")
    return "ok " + " ".join(f"{p.white}-{p.black}" for p in pairings)


for line in sys.stdin:
    print(pair(line.strip()), flush=True)
