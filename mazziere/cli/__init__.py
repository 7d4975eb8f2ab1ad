"""The ``mazziere`` command line: one Typer app with a sub-app per verb.

``mazziere play uno`` plays in the terminal against bots; ``mazziere sim uno`` runs batch
simulations; ``mazziere position TEXT`` shows a position and its legal actions. Later verbs
(serve, rtp, ledger, replay) and games (``play casino``, ``play poker``, ``sim poker``) are
added the same way: a command on a verb's sub-app, or a new sub-app registered here.
"""

from __future__ import annotations

import typer

from mazziere.cli.admin import admin_app
from mazziere.cli.casino import certify, rtp
from mazziere.cli.fairness import attest, verify
from mazziere.cli.poker import play_poker, sim_poker
from mazziere.cli.position import position
from mazziere.cli.server import ledger_app, serve, server_help
from mazziere.cli.uno import play_uno, sim_uno
from mazziere.cli.wallet import wallet_app, wallet_demo

app = typer.Typer(
    name="mazziere",
    help="Mazziere, the dealer: UNO (every variant), UNO CASINO and five-card draw poker.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

play_app = typer.Typer(help="Play a game in the terminal against bots.", no_args_is_help=True)
sim_app = typer.Typer(help="Simulate many games between bots.", no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(sim_app, name="sim")

play_app.command("uno")(play_uno)
sim_app.command("uno")(sim_uno)
play_app.command("poker")(play_poker)
sim_app.command("poker")(sim_poker)
app.command("serve", help=server_help)(serve)
app.command("rtp")(rtp)
app.command("position")(position)
app.command("verify")(verify)
app.command("attest")(attest)
app.add_typer(ledger_app, name="ledger")
app.add_typer(admin_app, name="admin")
app.add_typer(wallet_app, name="wallet")
app.command("wallet-demo")(wallet_demo)
certify_app = typer.Typer(
    help="Certification reports for a testing laboratory.", no_args_is_help=True
)
app.add_typer(certify_app, name="certify")
certify_app.command("casino")(certify)


def main() -> None:
    """Entry point of the ``mazziere`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
