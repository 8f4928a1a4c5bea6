"""An event's options are one typed value (:class:`duiyi.tournament.options.EventOptions`): read
once from the JSON form when the event is made or loaded, written back in that same form, and
refused then, with the options check's messages, when one is not what its system reads."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest
from tests.datafiles import OPENGOTHA_FILES

from duiyi.errors import EventFileError, InvalidInput, TournamentError
from duiyi.tournament.event import new_event
from duiyi.tournament.formats.opengotha import from_opengotha
from duiyi.tournament.model import Event
from duiyi.tournament.options import CLIENT_OPTIONS, SYSTEM_KEPT, EventOptions

EVENTS = sorted((Path(__file__).parent.parent / "data" / "events").glob("*.json"))
OPENGOTHA = sorted(OPENGOTHA_FILES.glob("*.xml"))


def test_the_files_are_there() -> None:
    # a glob that found nothing would pass the round trips below without reading a file
    assert len(EVENTS) >= 11 and len(OPENGOTHA) == 19


@pytest.mark.parametrize("path", EVENTS, ids=lambda p: p.stem)
def test_stored_event_files_load_and_write_the_same_options(path: Path) -> None:
    # the JSON form is unchanged: an event file written before loads, and writes back the same
    data = json.loads(path.read_text(encoding="utf-8"))["event"]
    event = Event.from_json(data)
    assert isinstance(event.options, EventOptions)
    assert event.options.to_json() == data["options"]
    assert event.to_json()["options"] == data["options"]


def test_stored_options_are_typed_when_read() -> None:
    # Go appendix 四 (the groups drawn), 六 (the eliminated): what the systems wrote, as values
    groups = Event.from_json(json.loads((EVENTS[0].parent / "groups-go.json").read_text())["event"])
    assert groups.options.group_members == ((1, 4, 5, 10, 7), (2, 3, 6, 8, 9))
    assert groups.options.final_players == (10, 2, 1, 9)
    assert (groups.options.groups, groups.options.final) == (2, "knockout")
    path = EVENTS[0].parent / "swiss-elim-gomoku.json"
    swiss = Event.from_json(json.loads(path.read_text())["event"])
    assert swiss.options.eliminated == {3: (9, 7)} and swiss.options.start_after == 2


@pytest.mark.parametrize("path", OPENGOTHA, ids=lambda p: p.stem)
def test_imported_opengotha_events_keep_their_options_through_the_event_file(path: Path) -> None:
    # what an import kept (the parameter sets, the rules) survives the event file both ways
    event, _ = from_opengotha(path.read_bytes())
    assert event.options.placement is not None and event.options.opengotha is not None
    back = Event.from_json(json.loads(json.dumps(event.to_json())))
    assert back.options == event.options
    assert back.to_json()["options"] == event.to_json()["options"]


def test_every_option_of_the_schema_is_a_typed_field() -> None:
    # an option added to the schema without a field would land in ``extra``, never read
    names = {f.name for f in fields(EventOptions)}
    assert set(CLIENT_OPTIONS) | SYSTEM_KEPT <= names
    typed = EventOptions.from_json({"seeds": [2, 1], "team": True})
    assert (typed.seeds, typed.team, typed.extra) == ((2, 1), True, {})


def test_unknown_keys_are_kept_verbatim_and_never_typed() -> None:
    # an option duiyi does not read (a later version's, a tool's) is written back as it came
    options = EventOptions.from_json({"cycles": 2, "later": {"x": [1]}, "location": "Paris"})
    assert options.cycles == 2 and options.location == "Paris"
    assert options.extra == {"later": {"x": [1]}}
    assert options.to_json() == {"cycles": 2, "location": "Paris", "later": {"x": [1]}}


def test_new_event_refuses_a_wrong_option_with_the_checks_message() -> None:
    # refused when the event is made (422 form / 409 meaning), never at the next pairing
    with pytest.raises(InvalidInput, match=r"^options\.cycles is the number of cycles"):
        new_event("R", "go", "round-robin", options={"cycles": 0})
    with pytest.raises(TournamentError, match=r"^options\.tiebreaks: "):
        new_event("S", "go", "swiss", 3, options={"tiebreaks": ["nonsense"]})


def test_a_request_may_not_set_unknown_or_kept_options() -> None:
    with pytest.raises(InvalidInput, match=r"^unknown option 'later' \(the options are"):
        EventOptions.from_json({"later": 1}, client=True)
    with pytest.raises(InvalidInput, match=r"^options\.eliminated is kept by the system"):
        EventOptions.from_json({"eliminated": {"1": [2]}}, client=True)


def test_a_loaded_event_file_with_a_wrong_option_is_refused_when_read() -> None:
    data = new_event("R", "go", "round-robin").to_json()
    data["options"] = {"cycles": "two"}
    with pytest.raises(EventFileError, match=r"options\.cycles"):
        Event.from_json(data)
    data["options"] = {"group_members": "abc"}
    with pytest.raises(EventFileError, match=r"options\.group_members"):
        Event.from_json(data)


def test_options_are_frozen_and_changed_by_a_new_value() -> None:
    options = EventOptions(groups=2)
    with pytest.raises(AttributeError):
        options.groups = 3  # type: ignore[misc]
    assert options.updated(groups=3).groups == 3 and options.groups == 2
