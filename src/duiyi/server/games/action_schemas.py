"""The body of ``POST /api/games/{id}/actions`` as the OpenAPI document shows it: one schema per
action a client may send, told apart by ``type`` (a discriminated union), each made from its
class in :mod:`duiyi.actions` (its ``type``, its fields, its docstring), so that a new action
appears in the document without a second description of it here.

Only the document changes: the server still reads the body once, with
:func:`duiyi.server.schemas.parse_action` after the seat is authorised (an unknown ``type`` or
a missing field is a 422 problem, an action of the wrong sender a 403).

>>> sorted(ACTION_MODELS)[:3]
['accept', 'accept_draw', 'accept_takeback']
>>> ACTION_MODELS["open"].model_json_schema()["required"]
['type', 'moves']
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model

from duiyi import actions
from duiyi.actions import SESSION_ACTIONS, GameAction

__all__ = [
    "ACTION_MODELS",
    "ARBITER_ACTIONS",
    "CLIENT_ACTIONS",
    "DOCUMENTED_AS_ACTIONS",
    "PLAYER_ACTIONS",
    "POINT_PATTERN",
    "ActionBody",
]

# Players send the game's own actions plus adjourning (sealing their move), arriving late,
# asking for the Go §22.5 pass on overtime (in advance or at the overrun) and, in a casual
# game, a takeback by agreement (issue 21).
PLAYER_ACTIONS = (
    actions.Adjourn,
    actions.Arrive,
    actions.RequestOvertimePass,
    actions.RequestTakeback,
    actions.AcceptTakeback,
    actions.DeclineTakeback,
)
ARBITER_ACTIONS = (actions.Pause, actions.Resume, actions.SplitPool)
#: the actions a client sends beside its game's own (the others are the session's own log)
CLIENT_ACTIONS: tuple[type, ...] = PLAYER_ACTIONS + ARBITER_ACTIONS

_ACTION_ID = Field(
    None,
    min_length=1,
    max_length=64,
    description="the client's id of this action: a retry with the same id is applied once",
)


#: a point as the books write it (Go "D4", Gomoku "h8"; a leading zero before a single digit
#: is read too, "D04"; "A010" is no point): a point off the game's board is the board's
#: refusal (409), a malformed one a 422
POINT_PATTERN = r"^[A-Za-z](?:0?[1-9]|[1-9][0-9])$"
POINT = Annotated[str, Field(pattern=POINT_PATTERN, max_length=4)]
# list fields of a fixed length by the books: the designated opening's three stones (Gomoku §3.2)
_LISTS: dict[tuple[str, str], dict[str, int]] = {
    ("open", "moves"): {"min_length": 3, "max_length": 3}
}


def _model(cls: type, sealed: Any) -> type[BaseModel]:
    """The request schema of the action class ``cls``: its ``type`` constant and its fields
    as the session's log reads them (points as lists of text, a stone's point the book's text
    and no colour, a sealed move as one of the game's actions)."""
    cls = typing.get_origin(cls) or cls  # the stone, Move[str]
    kind = SESSION_ACTIONS.name_of(cls)
    hints = typing.get_type_hints(cls, vars(actions), {"P": str})
    fields: dict[str, Any] = {"type": (Literal[kind], ...)}
    for f in dataclasses.fields(cls):
        if f.name in SESSION_ACTIONS.ignored:
            continue
        hint = hints[f.name]
        if hint == tuple[str, ...]:
            bounds = _LISTS.get((kind, f.name), {})
            hint = Annotated[
                list[POINT],
                Field(min_length=bounds.get("min_length"), max_length=bounds.get("max_length")),
            ]
        elif hint == tuple[str, ...] | None:
            hint = list[POINT] | None
        elif f.name == "point" and hint is str:
            hint = POINT
        elif hint == GameAction:
            hint = sealed
        # a field the session's log never guesses is required (a marking's points)
        required = f.default is dataclasses.MISSING or f.name in SESSION_ACTIONS.required
        default = ... if required else f.default
        fields[f.name] = (hint, default)
    fields["action_id"] = (str | None, _ACTION_ID)
    doc = " ".join((cls.__doc__ or "").split(">>>")[0].split())
    # named by its JSON type ("claim": ClaimAction, the class being the game's ClaimFoul)
    name = "".join(w.capitalize() for w in kind.split("_")) + "Action"
    model: type[BaseModel] = create_model(
        name,
        __config__=ConfigDict(extra="allow", title=name),
        __doc__=doc,
        **fields,
    )
    return model


def _union(models: list[type[BaseModel]]) -> Any:
    return Annotated[Union[tuple(models)], Field(discriminator="type")]  # noqa: UP007


_GAME = {
    SESSION_ACTIONS.name_of(typing.get_origin(c) or c): _model(c, None)
    for c in typing.get_args(GameAction)
}
_SEALED = _union(list(_GAME.values()))

#: each action a client may send, by its JSON ``type``
ACTION_MODELS: dict[str, type[BaseModel]] = {
    **_GAME,
    **{SESSION_ACTIONS.name_of(c): _model(c, _SEALED) for c in CLIENT_ACTIONS},
}

#: the discriminated union of :data:`ACTION_MODELS` (the document's body of an action)
ActionBody: Any = _union(list(ACTION_MODELS.values()))


#: ``Annotated[Body, DOCUMENTED_AS_ACTIONS]``: the lenient ``Body`` the route validates, shown
#: in the document as :data:`ActionBody` (the validation stays ``Body``'s)
DOCUMENTED_AS_ACTIONS = BeforeValidator(lambda v: v, json_schema_input_type=ActionBody)
