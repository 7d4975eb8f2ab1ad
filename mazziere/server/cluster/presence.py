"""Who is where across the processes: the process holding each account's one socket, and the
tables where each account sits.

- ``<prefix>conn:<account>`` is ``<proc>|<serial>``, the process and connection holding the
  account's socket. A second login elsewhere overwrites it and tells the first process to close
  the old socket (4001): the single-connection rule across processes.
- ``<prefix>seat:<account>`` is the set of tables where the account sits, so a reconnecting
  player on any process rejoins them all.

A table's owner also remembers, for the accounts seated at its tables and connected elsewhere,
the process holding their socket (learned from the messages they send), so that updates go
straight there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mazziere.server.cluster.bus import Bus, text
from mazziere.server.cluster.messages import Gone, Replace

if TYPE_CHECKING:
    from mazziere.server.cluster.runtime import Runtime


class Presence:
    """This process's view of the sockets and seats of every process."""

    def __init__(self, bus: Bus, server: Runtime) -> None:
        self.bus = bus
        self.server = server
        self.where: dict[int, str] = {}
        """Account -> the process holding its socket, for accounts seated at this process's
        tables and connected elsewhere (learned from the messages they send)."""
        self._conn_serial = 0

    # ------------------------------------------------------------------------- sockets
    async def claim_connection(self, account: int) -> str:
        """Record that this process holds ``account``'s socket; the connection holding it
        elsewhere is told to close (4001). Returns this connection's presence value."""
        self._conn_serial += 1
        mine = f"{self.bus.proc}|{self._conn_serial}"
        old = await self.bus.redis.set(self.bus.key(f"conn:{account}"), mine, get=True)
        self.where.pop(account, None)
        if old is not None:
            proc, _, serial = text(old).partition("|")
            if proc != self.bus.proc:
                self.bus.tell(proc, Replace(account=account, serial=serial))
        return mine

    def release_connection(self, account: int, mine: str) -> None:
        """``account``'s socket here (presence ``mine``) closed: its entry goes, unless a
        newer login already replaced it."""
        self.bus.send_script(self.bus.release_script, [self.bus.key(f"conn:{account}")], [mine])

    @staticmethod
    def serial_of(presence: str) -> str:
        """The connection's number in a presence value.

        >>> Presence.serial_of("host.12.ab|3")
        '3'
        """
        return presence.partition("|")[2]

    async def where_is(self, account: int) -> str | None:
        """The process holding ``account``'s socket, if any other than this one."""
        proc = self.where.get(account)
        if proc is not None:
            return proc
        raw = await self.bus.redis.get(self.bus.key(f"conn:{account}"))
        if raw is None:
            return None
        proc = text(raw).partition("|")[0]
        if proc == self.bus.proc:
            return None
        self.where[account] = proc
        return proc

    async def connected(self, account: int) -> bool:
        """``account`` has a socket on this process, or on another one that is alive (a
        socket's entry stays behind a process that died)."""
        if account in self.server.hub.conns:
            return True
        raw = await self.bus.redis.get(self.bus.key(f"conn:{account}"))
        if raw is None:
            return False
        proc = text(raw).partition("|")[0]
        if proc == self.bus.proc:
            return False
        return bool(await self.bus.redis.exists(self.bus.key("alive:" + proc)))

    def heard_from(self, account: int, proc: str) -> None:
        """A message from ``account`` came through ``proc``: its socket is there."""
        self.where[account] = proc

    def gone(self, account: int, owners: set[str]) -> None:
        """``account``'s socket here closed: tell the ``owners`` of its tables elsewhere."""
        for proc in owners - {self.bus.proc}:
            self.bus.tell(proc, Gone(account=account, from_=self.bus.proc))

    def disconnected(self, account: int, proc: str) -> None:
        """``account``'s socket on ``proc`` closed (or ``proc`` died): its seats at this
        process's tables are held, as after any disconnection."""
        if self.where.get(account) != proc or account in self.server.hub.conns:
            return
        del self.where[account]
        for t in self.server.seating.tables_of(account):
            actor = self.server.tables.get(t)
            if actor is not None:
                actor.on_disconnect(account)

    def forget_processes(self, dead: set[str]) -> None:
        """The players whose socket was on a ``dead`` process are disconnected from this
        process's tables."""
        for account, proc in list(self.where.items()):
            if proc in dead:
                self.disconnected(account, proc)

    # ------------------------------------------------------------------------- seating
    def seat(self, account: int, table: int) -> None:
        self.bus.send("sadd", self.bus.key(f"seat:{account}"), table)

    def unseat(self, account: int, table: int) -> None:
        self.bus.send("srem", self.bus.key(f"seat:{account}"), table)

    async def tables_of(self, account: int) -> list[int]:
        """The tables where ``account`` sits, on every process."""
        await self.bus.flush()  # this process's own seating writes first
        raw = await self.bus.redis.smembers(self.bus.key(f"seat:{account}"))
        return sorted(int(t) for t in raw)
