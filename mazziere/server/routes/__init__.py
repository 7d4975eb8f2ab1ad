"""HTTP and WebSocket routes, one router per area (accounts, lobby, history, live, operations);
each reaches the running server through :func:`deps.server_of`."""
