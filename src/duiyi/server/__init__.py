"""The duiyi web server: live games and tournament events over HTTP and WebSocket.

An adapter around the cores: every rule is decided by ``duiyi.session`` and ``duiyi.tournament``;
this package only times, stores, authorises and fans out.

>>> from duiyi.server import create_app  # doctest: +SKIP
"""

from duiyi.server.app import create_app
from duiyi.server.settings import Settings

__all__ = ["Settings", "create_app"]
