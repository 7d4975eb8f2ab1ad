"""Several server processes, on one machine or many, against one PostgreSQL and one Redis
(docs/scaling.md has the picture).

- **Tables.** Each table lives in exactly one process: the one holding its Redis *lease*
  (``SET NX PX``, renewed every third of its life). Taking a lease also draws a *fencing
  token* (``INCR``), which the process writes into the table's row; every write of the table's
  actor checks it in the same transaction (:func:`~mazziere.server.store.table_rows.check_fence`),
  so a process that paused past its lease and lost the table cannot write a thing
  (:mod:`~mazziere.server.cluster.leases`, :mod:`~mazziere.server.cluster.ownership`).
- **Messages.** A client may connect to any process. A message for a table that lives
  elsewhere is forwarded to the owner over Redis pub/sub (each process listens on its own
  channel); the owner applies it and sends the updates back the same way to the process
  holding each player's socket. REST calls on a table (join, leave, start, top-up) go the same
  way and wait for the owner's answer (:mod:`~mazziere.server.cluster.rpc`).
- **Presence.** ``<prefix>conn:<account>`` names the process and connection holding an
  account's one socket. A second login elsewhere overwrites it and tells the first process to
  close the old socket (4001), which is the seed's single-connection rule across processes.
- **Seating.** ``<prefix>seat:<account>`` lists the tables where an account sits, so a
  reconnecting player on any process rejoins them all
  (:mod:`~mazziere.server.cluster.presence`).
- **Failover.** A process that dies stops renewing its leases; when they expire, any other
  process takes its tables (it scans for orphans as soon as it finds the process dead, and
  takes one on demand when a message arrives for it) and resumes them from the database
  exactly as after a restart (:mod:`~mazziere.server.cluster.node`).
  Its players' sockets broke; their clients reconnect to a live process on their own.

Messages on the bus are typed Structs, each encoded once by its sender and decoded once by its
receiver (:mod:`~mazziere.server.cluster.messages`); writes that need no answer (publishes,
seating, presence releases) are queued and sent in one pipeline per event-loop turn
(:mod:`~mazziere.server.cluster.bus`).
"""

from mazziere.server.cluster.leases import RENEW_CHUNK
from mazziere.server.cluster.messages import BusError
from mazziere.server.cluster.node import FULL_SCAN_EVERY, Cluster
from mazziere.server.cluster.rpc import CALL_SECONDS, ClusterError

__all__ = ["CALL_SECONDS", "FULL_SCAN_EVERY", "RENEW_CHUNK", "BusError", "Cluster", "ClusterError"]
