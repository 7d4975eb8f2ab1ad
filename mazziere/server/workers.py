"""``mazziere serve --workers N``: N server processes on one port, each with a listening
socket of its own (``SO_REUSEPORT``), so that the kernel spreads new connections evenly over
them; a worker that dies is started again.

Why not uvicorn's own supervisor (``uvicorn.supervisors.Multiprocess``): it binds one socket
in the parent and hands that same socket to every worker. Every worker's event loop then wakes
on each new connection and the first one accepts every connection waiting (asyncio accepts up
to the listen backlog in one go), so under a burst of connections one process gets nearly all
the sockets: every table follows its players to the same process, which stalls past its
leases while the others idle. With a socket
per process the kernel hashes each connection to one of them (Linux's ``SO_REUSEPORT``
balancing), whatever their load. uvicorn has no option for it (as of 0.54), so this module
binds the sockets itself and runs ``uvicorn.Server`` in each process; everything else (the
protocol, the settings, the application factory) is uvicorn's and ours as with one process.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger("mazziere.workers")

RESTART_PAUSE = 1.0
"""Seconds before a dead worker is started again (a crash loop must not spin)."""
STOP_SECONDS = 15.0
"""How long workers have to finish on SIGTERM before they are killed."""


def reuseport_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` that other processes may bind too."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _worker(settings_json: str, host: str, port: int) -> None:
    """One worker process: its own socket, uvicorn, the application from the settings."""
    import uvicorn

    from mazziere.server.context import Settings
    from mazziere.server.transport import uvicorn_config

    os.environ["MAZZIERE_SETTINGS"] = settings_json
    import json

    settings = Settings.from_json(json.loads(settings_json))
    config = uvicorn_config(
        "mazziere.server.app:from_environment", settings, host, port, factory=True
    )
    sock = reuseport_socket(host, port)
    uvicorn.Server(config).run(sockets=[sock])


class Supervisor:
    """Start ``n`` workers, start again any that dies, stop them all on SIGTERM/SIGINT."""

    def __init__(self, settings_json: str, host: str, port: int, n: int) -> None:
        self.args = (settings_json, host, port)
        self.n = n
        self.ctx = multiprocessing.get_context("spawn")
        self.procs: list[BaseProcess] = []
        self.stopping = threading.Event()

    def _start_one(self) -> BaseProcess:
        p = self.ctx.Process(target=_worker, args=self.args, name="mazziere-worker")
        p.start()
        return p

    def _stop(self, *_: Any) -> None:
        self.stopping.set()

    def run(self) -> None:
        # the port is checked here, once, so that a taken port is a clear error at once
        # rather than N workers failing one after another
        probe = reuseport_socket(self.args[1], self.args[2])
        probe.close()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._stop)
        self.procs = [self._start_one() for _ in range(self.n)]
        try:
            while not self.stopping.wait(0.5):
                for i, p in enumerate(self.procs):
                    if not p.is_alive() and not self.stopping.is_set():
                        log.warning("worker %s exited (%s): starting another", p.pid, p.exitcode)
                        time.sleep(RESTART_PAUSE)
                        self.procs[i] = self._start_one()
        finally:
            self.shutdown()

    def shutdown(self) -> None:
        for p in self.procs:
            if p.is_alive() and p.pid is not None:
                with contextlib.suppress(OSError):
                    os.kill(p.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for p in self.procs:
            p.join(max(0.0, deadline - time.monotonic()))
        for p in self.procs:
            if p.is_alive():
                p.kill()
                p.join(5)
