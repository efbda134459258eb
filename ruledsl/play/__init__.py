"""Playing games: agents, transcripts, replay and divergences, simulation and
comparison, the terminal and HTML views, rule diagrams."""
