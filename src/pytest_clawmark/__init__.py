"""pytest-clawmark: a living-world benchmark for coworker agents, as a pytest plugin."""
