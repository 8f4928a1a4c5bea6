"""Stored events as the server reads and changes them: one change at a time, parsed once per
version, pairing steps, result sheets entered from the outbox, CSV names."""
