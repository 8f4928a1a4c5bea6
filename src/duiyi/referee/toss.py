"""The coin toss and the winner's choice of colours (Gomoku §5.3)."""

from __future__ import annotations

from duiyi import BLACK, WHITE, Color
from duiyi.errors import InvalidInput, RefereeError
from duiyi.referee.base import _FACES, _check_color
from duiyi.referee.corrections import Corrections
from duiyi.referee.kinds import RulingKind
from duiyi.referee.ruling import Ruling


class Toss(Corrections):
    """The coin toss and the winner's choice of colours (Gomoku §5.3)."""

    # ------------------------------------------------------------------ colours (Gomoku §5.3)

    def coin_toss(
        self,
        caller: Color,
        face: str,
        *,
        call: str,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """Gomoku §5.3(2): the arbiter tosses the 挑边器 and the player of seat ``caller`` calls
        ``call``; ``face`` came up (the caller of this method draws it: the server with its own
        random source, an arbiter from the real coin). The winner of the call then chooses
        (:meth:`colours_chosen`). Only before the game starts (the session checks).

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> ref.coin_toss(BLACK, "tails", call="heads").color   # the caller ...
        Color.BLACK
        >>> ref.toss_winner()                                  # ... lost the call
        Color.WHITE
        """
        _check_color(caller)
        article = self.article("coin_toss")
        # the faces and choices of duiyi.gomoku.colours (Face, CoinChoice), as plain text here:
        # the referee does not import a game
        if face not in _FACES or call not in _FACES:
            raise InvalidInput(f"a coin shows heads or tails, got {call!r} / {face!r}", article)
        if self._open_toss() is not None:
            raise RefereeError("the coin was tossed already; the winner chooses now", article)
        winner = caller if face == call else caller.opponent
        text = note or f"{caller} called {call}, {face} came up: {winner} chooses"
        return self.record(
            Ruling(RulingKind.COIN_TOSS, caller, article, at, None, text, toss=(call, face))
        )

    def _open_toss(self) -> Ruling | None:
        """The coin toss whose winner has not chosen yet."""
        for r in reversed(self._rulings):
            if r.kind is RulingKind.COLOURS_CHOSEN:
                return None
            if r.kind is RulingKind.COIN_TOSS:
                return r
        return None

    def toss_winner(self) -> Color | None:
        """The seat that won the call of the open coin toss (Gomoku §5.3(2) 中猜者), or None."""
        toss = self._open_toss()
        if toss is None or toss.toss is None or toss.color is None:
            return None
        call, face = toss.toss
        return toss.color if call == face else toss.color.opponent

    def colours_chosen(
        self,
        choice: str,
        *,
        opponent_takes: Color | None = None,
        at: float | None = None,
        note: str = "",
    ) -> Ruling:
        """Gomoku §5.3(2): the winner of the call chooses A Black, B White, or C "要求对方先行选择，
        则对方必须先选择" (then ``opponent_takes`` is the colour the opponent chose). When the
        seat that was to play White takes Black the ruling swaps the seats (``swap``): the
        session exchanges them before the first move.

        >>> from duiyi.referee import Referee
        >>> from duiyi.games import GOMOKU
        >>> ref = Referee(GOMOKU)
        >>> _ = ref.coin_toss(BLACK, "heads", call="heads")
        >>> ref.colours_chosen("white").swap     # Black's seat won and took White
        True
        """
        article = self.article("colours_chosen")
        winner = self.toss_winner()
        if winner is None:
            raise RefereeError("toss the coin first (Gomoku §5.3(2))", article)
        if choice not in ("black", "white", "opponent_first"):
            raise InvalidInput(
                f"the winner takes 'black', 'white' or 'opponent_first', not {choice!r}", article
            )
        if choice == "opponent_first":
            if not isinstance(opponent_takes, Color):
                raise InvalidInput(
                    "the winner asked the opponent to choose first: the opponent must choose "
                    "black or white (Gomoku §5.3(2)C)",
                    article,
                )
            takes = opponent_takes.opponent
        else:
            if opponent_takes is not None:
                raise InvalidInput("the winner chose a colour: the opponent has none to choose")
            takes = BLACK if choice == "black" else WHITE
        swap = takes is not winner  # the seat that was to play White takes Black
        text = note or (
            f"{winner} chose {choice}"
            + (f", {winner.opponent} took {opponent_takes.value}" if opponent_takes else "")
            + ("; the seats are exchanged" if swap else "")
        )
        return self.record(
            Ruling(RulingKind.COLOURS_CHOSEN, winner, article, at, None, text, swap=swap)
        )
