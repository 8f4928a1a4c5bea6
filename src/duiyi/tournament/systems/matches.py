"""Matches between two players (best of N, Go §26.5) and relays between teams (擂台赛,
Go §26.6, Gomoku §17.5)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from duiyi import Color
from duiyi.errors import PairingError
from duiyi.tournament.model import Event, Game, RoundRecord
from duiyi.tournament.systems.base import PairedRound, System, register

__all__ = ["Match", "Relay", "relay_state", "winners"]


def winners(event: Event) -> list[int | None]:
    """The winner of each round's (single) game; None for a draw or a game nobody won."""
    out: list[int | None] = []
    for rnd in event.history:
        g = rnd.games[0] if rnd.games else None
        if g is None or g.result is None:
            continue
        w = g.result.winner
        out.append(None if w is None else (g.black if w is Color.BLACK else g.white))
    return out


class Match(System):
    """A best-of-N match between players 1 and 2 (``options.games``, default 3)."""

    name = "match"
    family = "match"
    rounds_from_field = True

    def total_rounds(self, event: Event) -> int:
        return event.options.games or 3

    def pair_players(
        self, event: Event, number: int, rng: random.Random
    ) -> tuple[Event, PairedRound]:
        """Game ``number``: colours guessed in game 1 (Go §10 nigiri, Gomoku §5.3(1) hand
        count; or ``options.first_black``), then alternating (Gomoku §5.1(2)); refused once the
        match is decided (the event's book: Go §26.5, Gomoku §17.6)."""
        from duiyi.tournament.pairing.matches import match_schedule, match_status

        if len(event.players) != 2:
            raise PairingError(
                f"a match is played by two players, the event has {len(event.players)}",
                code="match-two-players",
                values={"players": str(len(event.players))},
            )
        games = event.options.games or 3
        status = match_status(1, 2, games, winners(event), event.game)
        if status.decided:
            # a tie is played off under the event's own rules (Go §27.3 on a Go event)
            playoff = "play-off, Go §27.3" if event.game.name == "go" else "play-off"
            who = f"won by {status.winner}" if status.winner else f"tied ({playoff})"
            raise PairingError(
                f"the match is decided: {who}", event.game.match_article, code="match-decided"
            )
        if event.history:
            first_black: int | None = event.history[0].games[0].black
        else:
            first_black = event.options.first_black
        schedule = match_schedule(1, 2, games, first_black=first_black, rng=rng, game=event.game)
        g = schedule[number - 1]
        guessed = event.game.colour_method
        why = guessed if number == 1 and first_black is None else "colours alternate"
        reason = f"game {number} of best of {games}: {why}"
        return event, PairedRound(number, ((1, g.black, g.white, reason),), (), ())


def relay_state(event: Event, rng: random.Random | None = None) -> Any:
    """The relay (擂台赛, Go §26.6, Gomoku §17.5) after the results so far: the teams' lineups
    in playing order are the team members in entry order."""
    from duiyi.tournament.pairing.relay import relay

    lineups = [list(t.members) for t in event.teams]
    draw = event.options.draw or "both_out"
    return relay(lineups, winners(event), draw=draw, rng=rng, game=event.game)


class Relay(System):
    """擂台赛: the holder stays on stage until beaten; the team with players left wins."""

    name = "relay"
    family = "match"
    rounds_from_field = True

    def total_rounds(self, event: Event) -> int:
        if event.is_team_event:
            return len(event.players)  # every game puts at least one player out
        return event.rounds

    def pair(self, event: Event, number: int, rng: random.Random) -> tuple[Event, PairedRound]:
        if not event.is_team_event:
            raise PairingError(
                "a relay is played between teams: give the players a team column",
                code="relay-needs-teams",
            )
        state = relay_state(event, rng)
        if state.next_game is None:
            winner = event.teams[state.winner].name if state.winner is not None else "nobody"
            raise PairingError(
                f"the relay is over: {winner} has players left",
                "Gomoku §17.5" if event.game.name == "gomoku" else "Go §26.6",
                code="relay-over",
                values={"team": winner},
            )
        holder, challenger = state.next_game
        black, white = state.next_colours or (challenger, holder)
        reason = f"{holder} holds the stage (守擂), {challenger} challenges"
        record = RoundRecord(number, (Game(1, black, white),), ())
        paired = PairedRound(number, ((1, black, white, reason),), (), ())
        return replace(event, history=(*event.history, record)), paired


MATCH = register(Match())
RELAY = register(Relay())
