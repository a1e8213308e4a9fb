"""Running the published ClawMark corpus unmodified (issue 10): a loader for upstream task folders.

The upstream corpus is licensed CC BY-NC: nothing of it is part of this package. The loader reads a
user's own checkout; the tests use fixture tasks written for this project in the same format.
"""
