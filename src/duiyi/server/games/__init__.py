"""Hosting live games: a game in this process (host) or in another (remote), the manager that finds
them, their requests (spec, typed rulings, action schemas), views, broadcasts and rematches."""
