"""The shared backend client: typed, async access to every gateway interface (no UI code)."""
