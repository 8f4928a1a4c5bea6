"""One pairing step for the server: the desk's pairing, the play request and the engine rounds'
next round all pair through :func:`pair_round` and keep the explanation the same way.

>>> import random
>>> from duiyi.tournament import event as ops
>>> from duiyi.tournament.model import Player
>>> e = ops.add_players(ops.new_event("Club", "go", "swiss", 3), [Player(0, "A"), Player(0, "B")])
>>> meta: dict = {}
>>> e, answer = pair_round(e, meta, seed=7)
>>> answer["round"], list(meta["explanations"])
(1, ['1'])
"""

from __future__ import annotations

import random
from typing import Any

from duiyi.tournament import event as ops
from duiyi.tournament.model import Event

__all__ = ["pair_round"]


def pair_round(e: Event, meta: dict[str, Any], seed: int) -> tuple[Event, dict[str, Any]]:
    """Pair the next round of ``e`` with the lots of ``seed``: the event and the pairing with
    every board's reason, which is also kept in ``meta["explanations"]`` under the round's
    number (the document's parts beside the event, see :func:`_change`)."""
    e, paired = ops.pair_next_round(e, random.Random(seed))
    answer = paired.to_json(explain=True)
    meta["explanations"] = {**meta.get("explanations", {}), str(answer["round"]): answer}
    return e, answer
