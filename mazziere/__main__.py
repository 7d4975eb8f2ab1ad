"""``python -m mazziere`` is the ``mazziere`` command."""

from mazziere.cli import main

main()
