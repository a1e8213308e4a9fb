"""Upstream's ``ctx.fs`` and ``ctx.email`` over a real world (workspace + SMTP/IMAP mail service).

The semantics are upstream's (contents-of-folder uploads, "into this folder" trailing slashes, ""
for a missing file, mail dicts with the raw ``From`` header); the state is ours, read back through
the admin planes and the agent's own IMAP account.
"""

from __future__ import annotations

import asyncio
import imaplib
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_clawmark.upstream.email_adapter import UnknownMailUser, UpstreamEmail, mail_users
from pytest_clawmark.upstream.format import load
from pytest_clawmark.upstream.fs_adapter import UpstreamFs
from pytest_clawmark.upstream.paths import OutsideWorkspace, workspace_rel
from pytest_clawmark.world import World

WARD = Path(__file__).parent / "upstream_fixtures" / "clinical_assistant" / "ward_round"


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    users = mail_users(load(WARD / "task.py").metadata)
    w = World({"fs", "mail"}, tmp_path / "world", user=users["ines"], people=[users["pharmacy"]], task_dir=WARD).start()
    yield w
    w.stop()


def run(coro):  # upstream's stages and checkers are coroutines
    return asyncio.run(coro)


@pytest.mark.parametrize(
    "remote, rel",
    [
        ("/workspace", ""),
        ("/workspace/", ""),
        ("/workspace/input/", "input/"),
        ("/workspace/outputs/a.csv", "outputs/a.csv"),
        ("outputs/x", "outputs/x"),
    ],
)
def test_upstream_paths_map_into_the_workspace(remote: str, rel: str) -> None:
    assert workspace_rel(remote) == rel


@pytest.mark.parametrize("remote", ["/etc/passwd", "/workspace/../etc", "/work"])
def test_paths_outside_the_workspace_are_refused(remote: str) -> None:
    with pytest.raises(OutsideWorkspace, match="workspace"):
        workspace_rel(remote)


def test_fs_uploads_read_and_delete_like_upstream(world: World) -> None:
    fs = UpstreamFs(world)
    run(fs.upload_dir(WARD / "assets", "/workspace"))
    assert world.fs.read_text("input/round_list.txt").startswith("Bed 4")
    assert world.fs.exists("USER.md")
    run(fs.upload_file(WARD / "assets" / "input" / "round_list.txt", "/workspace/later/"))
    run(fs.upload_file(WARD / "assets" / "USER.md", "/workspace/docs/user_copy.md"))
    assert world.fs.exists("later/round_list.txt") and world.fs.exists("docs/user_copy.md")
    assert run(fs.exists("/workspace/later/round_list.txt")) and not run(fs.exists("/workspace/nothing.txt"))
    assert run(fs.read_file("/workspace/input/round_list.txt")).startswith("Bed 4")
    assert run(fs.read_file("/workspace/missing.txt")) == ""
    run(fs.delete_file("/workspace/later"))
    assert not world.fs.exists("later/round_list.txt")
    with pytest.raises(FileNotFoundError, match="not a folder"):
        run(fs.upload_dir(WARD / "nope", "/workspace"))


def test_email_is_delivered_as_the_logical_user_and_read_in_upstreams_shape(world: World) -> None:
    users = mail_users(load(WARD / "task.py").metadata)
    email = UpstreamEmail(world, users)
    assert run(
        email.send_email(
            from_user="pharmacy", to="ines.marlow@ward.example", subject="Round list", body="Bed 4 needs a recheck."
        )
    )
    run(
        email.send_email(
            from_user="pharmacy",
            to="ines.marlow@ward.example",
            subject="Formulary",
            body="<p>new</p>",
            content_type="html",
            sender_name="Pharmacy Desk",
        )
    )
    mails = run(email.get_emails("ines"))
    assert [m["subject"] for m in mails] == ["Round list", "Formulary"]
    first = mails[0]
    # upstream's client writes formataddr((name or address, address)): the raw header checkers parse
    assert (
        first["from"] == '"pharmacy@ward.example" <pharmacy@ward.example>' and first["to"] == "ines.marlow@ward.example"
    )
    assert first["body"].strip() == "Bed 4 needs a recheck." and first["date"]
    assert mails[1]["from"] == "Pharmacy Desk <pharmacy@ward.example>" and "new" in mails[1]["body"]
    assert [m["subject"] for m in run(email.find_emails("ines", sender="desk"))] == ["Formulary"]
    assert run(email.get_emails("pharmacy")) == []

    # the agent sees the same mail through its own IMAP account
    env = world.mail.agent_env()
    password = next(v for k, v in env.items() if "PASS" in k)
    imap = imaplib.IMAP4("127.0.0.1", int(env["CLAWMARK_IMAP_PORT"]))
    imap.login(env["CLAWMARK_MAIL_USER"], password)
    imap.select("INBOX")
    assert len(imap.search(None, "ALL")[1][0].split()) == 2
    imap.logout()

    with pytest.raises(UnknownMailUser, match="defines: ines, pharmacy"):
        run(email.get_emails("nobody"))
