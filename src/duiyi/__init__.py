"""duiyi (对弈): the Chinese competition rules for Go (2002) and Gomoku (2013).

The package root only carries what every room shares: the two colours and the version.
Everything heavier lives in its own subpackage (``duiyi.go``, ``duiyi.gomoku``, ...).

>>> from duiyi import BLACK, WHITE
>>> BLACK.opponent is WHITE
True
>>> Color.parse("w")
Color.WHITE
"""

from __future__ import annotations

import enum

__all__ = ["BLACK", "WHITE", "Color", "__version__"]

__version__ = "0.1.0"


class Color(enum.Enum):
    """A player's colour. Black always moves first in both games (Go §3, Gomoku §2.2).

    >>> str(Color.BLACK), Color.BLACK.letter, Color.BLACK.zh
    ('black', 'B', '黑')
    """

    BLACK = "black"
    WHITE = "white"

    @property
    def opponent(self) -> Color:
        """The other colour.

        >>> Color.WHITE.opponent
        Color.BLACK
        """
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """The one-letter form used by SGF and GTP ("B" or "W")."""
        return "B" if self is Color.BLACK else "W"

    @property
    def zh(self) -> str:
        """The Chinese name used in results (黑 or 白)."""
        return "黑" if self is Color.BLACK else "白"

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read a colour from "b", "black", "W", "白", ...

        >>> Color.parse("Black")
        Color.BLACK
        """
        key = text.strip().lower()
        if key in ("b", "black", "黑", "x"):
            return cls.BLACK
        if key in ("w", "white", "白", "o"):
            return cls.WHITE
        from duiyi.errors import InvalidInput

        raise InvalidInput(f"not a colour: {text!r} (expected black or white)")

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    def __str__(self) -> str:
        return self.value


BLACK = Color.BLACK
WHITE = Color.WHITE
