"""The HTTP and WebSocket routes, one module per part of the API: games, events (players, rounds,
results, standings, prints, knockout), the director's desk, the engines' and the UI's extras."""
