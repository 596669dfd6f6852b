"""A stand-in peer for ``gridlang bench dataset``'s tests, so that they need no puzzlekit.

Called as ``python dataset_peer.py TYPE PROBLEM SOLUTION SECONDS``, as the
benchmark calls a peer: it answers an Akari with the published solution
(``matches`` true) and runs out of time on every other genre (no answer).
"""

import json
import sys

kind = sys.argv[1]
if kind == "akari":
    print(json.dumps({"status": "Optimal", "matches": True}))
else:
    print(json.dumps({"status": "Timeout", "matches": None}))
