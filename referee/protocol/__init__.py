"""The public wire layer of the bot protocol (docs/protocol.md)."""
