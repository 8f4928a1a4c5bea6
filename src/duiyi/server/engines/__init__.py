"""Engines on the server: the operator's list (catalog), the driver that plays a hosted seat, and
the engine rounds of an event."""
