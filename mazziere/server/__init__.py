"""The game server: accounts, wallets and ledger, lobby, live tables, timers, recovery."""
