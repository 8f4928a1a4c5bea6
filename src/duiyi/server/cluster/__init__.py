"""Several processes behind nginx: nginx's consistent-hash ring, who owns a game, misrouting
warnings, and the Redis fan-out between processes."""
