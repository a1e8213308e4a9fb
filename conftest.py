"""Repo-level pytest configuration only (the plugin itself is installed via its pytest11 entry point)."""
