"""Chunks of simulation work on a Ray cluster: the other backend of
:func:`mazziere.sim.pool.run_chunks` (``mazziere rtp --ray``, ``mazziere sim uno|poker --ray``).

The jobs are the same as on the process pool, each carrying its own seeds, and the results
are put back in job order, so a run on Ray gives exactly what the local pool gives for the
same seed; only the wall time changes. Ray is imported when a cluster is opened, so the rest
of the package works without it (``pip install 'mazziere[ray]'``).

Where the tasks run:

* no address: a local Ray started here with ``num_cpus`` CPUs (no dashboard), stopped at the
  end;
* ``auto``: the cluster already running on this machine (``ray start --head``);
* ``HOST:PORT`` (the head's GCS port, 6379 by default) or ``ray://HOST:PORT`` (Ray Client):
  that cluster. This package's source is shipped to its workers (``py_modules``); the nodes
  need the same Python and the ``sim`` extra (NumPy, numba). Only the connection is closed at
  the end, never the cluster.

If this process is already connected to Ray (``ray.init`` called before, as the tests do),
that connection is used as it is and left open.

>>> check_address("auto"), check_address("head.local:6379"), check_address("ray://h:10001")
('auto', 'head.local:6379', 'ray://h:10001')
"""

from __future__ import annotations

import logging
import re
import socket
from collections.abc import Callable, Sequence
from types import ModuleType, TracebackType
from typing import Any, TypeVar

from mazziere.errors import OptionError

J = TypeVar("J")
R = TypeVar("R")

INSTALL_HINT = "--ray needs Ray: pip install 'mazziere[ray]'"
CONNECT_TIMEOUT = 3.0
"""Seconds to wait for the head's port before refusing an address (Ray itself retries for
minutes)."""
_ADDRESS = re.compile(
    r"^(?:ray://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})$"
)


def import_ray() -> ModuleType:
    """The ``ray`` module, or a typed error naming the extra to install (exit 2 on the
    command line)."""
    try:
        import ray
    except ImportError:
        raise OptionError(INSTALL_HINT, "no_ray") from None
    return ray


def check_address(address: str) -> str:
    """``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``, stripped; anything else is refused."""
    a = address.strip()
    if a == "auto":
        return a
    m = _ADDRESS.match(a)
    if m is None or not 0 < int(m["port"]) < 65536:
        raise OptionError(
            f"--address is auto, HOST:PORT or ray://HOST:PORT (e.g. 10.0.0.5:6379), "
            f"not {address!r}",
            "bad_ray_address",
        )
    return a


def _reachable(address: str) -> None:
    """Refuse at once an address where nothing listens (Ray would retry for minutes)."""
    m = _ADDRESS.match(address)
    assert m is not None
    host, port = m["host"].strip("[]"), int(m["port"])
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
    except OSError as e:
        raise OptionError(
            f"no Ray cluster answers at {address} ({e.strerror or e}); start one with "
            "`ray start --head` or check --address",
            "bad_ray_address",
        ) from None


class RayCluster:
    """A connection to Ray for the length of a ``with`` block (see the module's text).
    ``cpus`` is what the cluster offers, for cutting the run into chunks."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        self.address = None if address is None else check_address(address)
        self.num_cpus = num_cpus
        self._ray: ModuleType | None = None
        self._close = False
        self._task: Any = None

    def __enter__(self) -> RayCluster:
        ray = import_ray()
        if self.address not in (None, "auto"):
            _reachable(self.address)
        if not ray.is_initialized():
            self._connect(ray)
            self._close = True
        self._ray = ray
        return self

    def _connect(self, ray: ModuleType) -> None:
        quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
        if self.address is None:
            ray.init(num_cpus=self.num_cpus, include_dashboard=False, **quiet)
            return
        import mazziere

        try:
            ray.init(address=self.address, runtime_env={"py_modules": [mazziere]}, **quiet)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise OptionError(
                f"could not join the Ray cluster at {self.address}: {e}", "bad_ray_address"
            ) from None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        err: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._ray is not None and self._close:
            self._ray.shutdown()  # stops a local Ray started here; else only disconnects
        self._ray = None

    @property
    def cpus(self) -> int:
        """CPUs the cluster offers (at least 1)."""
        return max(1, int(self._module().cluster_resources().get("CPU", 1)))

    def _module(self) -> ModuleType:
        if self._ray is None:
            raise RuntimeError("use the cluster inside `with RayCluster(...)`")
        return self._ray

    def run(
        self,
        work: Callable[[J], R],
        jobs: Sequence[J],
        arrived: Callable[[R], None],
    ) -> list[R]:
        """``work(job)`` for every job as Ray tasks, in job order; ``arrived(result)`` as
        each finishes (:func:`ray.wait`, so a progress bar moves). A job's error is raised
        here as it was raised in the worker (as on the process pool), and the tasks not yet
        finished are cancelled."""
        ray = self._module()
        if self._task is None:
            self._task = ray.remote(_call)
        pending = {self._task.remote(work, job): i for i, job in enumerate(jobs)}
        results: dict[int, R] = {}
        waiting = list(pending)
        try:
            while waiting:
                ready, waiting = ray.wait(waiting, num_returns=1)
                for ref in ready:
                    result: R = ray.get(ref)
                    results[pending[ref]] = result
                    arrived(result)
        except BaseException as e:
            for ref in waiting:
                ray.cancel(ref)
            cause = getattr(e, "cause", None)
            if isinstance(e, ray.exceptions.RayTaskError) and isinstance(cause, Exception):
                raise cause from None
            raise
        return [results[i] for i in range(len(jobs))]


def _call(work: Callable[[J], R], job: J) -> R:
    """One Ray task: a chunk. A numba kernel compiles, or loads its cache, on its first call
    in each worker process."""
    return work(job)


__all__ = ["CONNECT_TIMEOUT", "INSTALL_HINT", "RayCluster", "check_address", "import_ray"]
