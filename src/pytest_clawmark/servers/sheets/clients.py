"""Point the official Google clients at a clawmark Sheets server (no patching, no mocks).

* **gspread** builds its URLs from module constants (``https://sheets.googleapis.com/v4/...``,
  ``https://www.googleapis.com/drive/v3/files``), so the only clean way in is the session it
  accepts: :class:`RewritingSession` is google-auth's own ``AuthorizedSession`` that sends each
  request to our base URL instead of Google's hosts.
* **google-api-python-client** takes an endpoint override; the catch is that the override
  replaces the service path too (Drive lives under ``drive/v3/``), which
  :func:`google_service` adds from the client's bundled discovery document.

Reference solutions and agent developers use these; the generated TOOLS.md shows them. The clients
are imported inside the functions on purpose: they are heavy (google-api-python-client alone takes
about a second to import) and a world's server never needs them.
"""

from __future__ import annotations

import json
from typing import Any

GOOGLE_HOSTS = ("https://sheets.googleapis.com", "https://www.googleapis.com", "https://docs.google.com")


def _credentials(token: str) -> Any:
    from google.oauth2.credentials import Credentials

    return Credentials(token=token)


def _rewrite(url: str, base_url: str) -> str:
    for host in GOOGLE_HOSTS:
        if url.startswith(host + "/"):
            return base_url.rstrip("/") + url[len(host) :]
    return url


def rewriting_session(base_url: str, token: str) -> Any:
    """An ``AuthorizedSession`` (bearer ``token``) whose Google URLs go to ``base_url``."""
    from google.auth.transport.requests import AuthorizedSession

    class RewritingSession(AuthorizedSession):
        """google-auth's session, with Google's hosts swapped for the local server."""

        def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            return super().request(method, _rewrite(url, base_url), *args, **kwargs)

    session = RewritingSession(_credentials(token))
    session.trust_env = False  # loopback: never through an environment proxy
    return session


def gspread_client(base_url: str, token: str) -> Any:
    """A ``gspread.Client`` talking to the server at ``base_url`` with the agent's ``token``."""
    import gspread

    return gspread.Client(auth=_credentials(token), session=rewriting_session(base_url, token))


def google_service(name: str, version: str, base_url: str, token: str) -> Any:
    """``googleapiclient.discovery.build(name, version)`` against the server at ``base_url``.

    E.g. ``google_service("sheets", "v4", url, token)`` or ``google_service("drive", "v3", url, token)``.
    """
    import httplib2
    from google_auth_httplib2 import AuthorizedHttp
    from googleapiclient.discovery import build
    from googleapiclient.discovery_cache import get_static_doc

    doc = get_static_doc(name, version)
    if doc is None:
        raise ValueError(f"google-api-python-client has no bundled discovery document for {name} {version}")
    service_path = json.loads(doc).get("servicePath", "")
    endpoint = base_url.rstrip("/") + "/" + service_path
    http = AuthorizedHttp(_credentials(token), http=httplib2.Http(proxy_info=None, timeout=60))
    return build(
        name,
        version,
        http=http,
        static_discovery=True,
        cache_discovery=False,
        client_options={"api_endpoint": endpoint},
    )
