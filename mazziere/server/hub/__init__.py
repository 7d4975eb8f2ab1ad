"""Connections: authentication by the first message, one WebSocket per account (a second one
closes the first, with a named close code and a message), token revocation and expiry reaching
open sockets, inactivity warning and disconnection, frame validation, rate limits with a
flood cut-off, silent-socket time-outs, and dispatch of client messages to table actors.

- :mod:`.connection`: a socket's queue, its writer and how it closes (:class:`Close`);
- :mod:`.guards`: rate limit and flood, silence, token expiry, inactivity;
- :mod:`.routing`: parsing a frame and taking it to the table's actor, here or elsewhere;
- :mod:`.hub`: :class:`Hub`, every connection of this process and each one's life.

Transport timers (authentication, silence, flood grace, token expiry) run on the event loop's
real time; game timers (inactivity, seats, decisions) on the server's clock, which tests drive.
"""

from mazziere.server.hub.connection import Close
from mazziere.server.hub.hub import Hub

__all__ = ["Close", "Hub"]
