"""The player's wallet behind a casino session (docs/wallet.md): the built-in one (a ledger
book per account) or the operator's transfer wallet, reached over signed HTTP calls, with the
outbox that retries its credits, the reconciliation of its transfers and a reference wallet
service to test against."""
