"""Table actors: one per table, applying one action at a time (docs/architecture.md "Server").

An actor owns its table's seats, the game in progress, the hand record and the timers. Every
change runs under the actor's lock (FIFO), is written to the database in one transaction with
the money it moves, and is then sent to each seated player as that player's own view.
Time-outs, held seats and session closing are timers of the server's clock that come back into
the actor as ordinary messages.

The actor is built in layers, each module adding to the one below it:

- :mod:`.seats`: a seat and a spectator, and what each has been sent;
- :mod:`.updates`: every ``table`` update, for a seat, a spectator or a leaver;
- :mod:`.state`: the table's state, its seats and notes, fencing, sending the updates;
- :mod:`.money`: the casino session's credit: top-up, the stake's checks, closing it;
- :mod:`.play`: applying steps, the computer players, the commit, pacing and time-outs;
- :mod:`.recovery`: resuming an unfinished hand after a restart;
- :mod:`.actor`: :class:`~.actor.TableActor`, the lock and the verbs;
- :mod:`.verbs`: the one table of what a client may ask of a table, used by the hub, the
  lobby's REST routes and the processes of a cluster.

This package's ``__init__`` imports nothing, so the hub reads :mod:`.verbs` without loading
the actor.
"""
