"""The scripted model server over real HTTP: both dialects, JSON and SSE, tool calls, replay rules.

Raw httpx on purpose: these tests pin the wire format that OpenAI/Anthropic clients (and
OpenClaw) parse, not our own client's reading of it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pytest_clawmark.agents.scripted_model import ScriptedModelServer, ScriptError, choose, parse_script
from pytest_clawmark.agents.scripted_model.conversation import ANTHROPIC, OPENAI, parse

SCRIPT: dict[str, Any] = {
    "model": "scripted-test",
    "fallback": "Nothing more to do.",
    "days": [
        {
            "when": "DAY-ONE",
            "steps": [
                {"text": "Looking.", "tool": "exec", "arguments": {"command": "ls inbox"}},
                {
                    "tool_calls": [
                        {"tool": "read", "arguments": {"path": "a.txt"}},
                        {"tool": "write", "arguments": {"path": "b.txt", "content": "x" * 120}},
                    ]
                },
                {"text": "Day one done."},
            ],
        },
        {
            "when": "DAY-TWO",
            "steps": [{"tool": "exec", "arguments": {"command": "cat b.txt"}}],
            "final": "Day two done.",
        },
        {"when": "OUTAGE", "steps": [{"error": {"status": 503, "message": "scripted outage"}}]},
    ],
}
TOOLS = ["exec", "read", "write"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScriptedModelServer]:
    path = tmp_path_factory.mktemp("script") / "script.json"
    path.write_text(json.dumps(SCRIPT))
    with ScriptedModelServer(path, record=path.parent / "requests.jsonl") as srv:
        yield srv


# -- request builders ----------------------------------------------------------------------------
def openai_body(messages: list[dict[str, Any]], stream: bool = False, tools: list[str] = TOOLS) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": "scripted-test",
        "messages": [{"role": "system", "content": "You are a test."}, *messages],
        "stream": stream,
    }
    if tools:
        body["tools"] = [{"type": "function", "function": {"name": t, "parameters": {"type": "object"}}} for t in tools]
    return body


def anthropic_body(messages: list[dict[str, Any]], stream: bool = False) -> dict[str, Any]:
    return {
        "model": "scripted-test",
        "system": "You are a test.",
        "max_tokens": 1024,
        "messages": messages,
        "stream": stream,
        "tools": [{"name": t, "input_schema": {"type": "object"}} for t in TOOLS],
    }


def post(server: ScriptedModelServer, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(server.base_url + path, json=body, headers={"authorization": "Bearer sk-anything"}, timeout=10)


def sse_data(response: httpx.Response) -> list[dict[str, Any]]:
    out = []
    for block in response.text.split("\n\n"):
        for line in block.splitlines():
            if line.startswith("data: ") and line != "data: [DONE]":
                out.append(json.loads(line[6:]))
    return out


# -- OpenAI dialect --------------------------------------------------------------------------------
def test_openai_tool_call_then_parallel_calls_then_text(server: ScriptedModelServer) -> None:
    user = {"role": "user", "content": "[Mon] DAY-ONE: reconcile the invoices"}
    r1 = post(server, "/chat/completions", openai_body([user]))
    assert r1.status_code == 200
    c1 = r1.json()
    assert c1["object"] == "chat.completion" and c1["model"] == "scripted-test"
    choice = c1["choices"][0]
    assert choice["finish_reason"] == "tool_calls" and choice["message"]["content"] == "Looking."
    (call,) = choice["message"]["tool_calls"]
    assert call["type"] == "function" and call["function"]["name"] == "exec"
    assert json.loads(call["function"]["arguments"]) == {"command": "ls inbox"}
    usage = c1["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]

    history = [user, choice["message"], {"role": "tool", "tool_call_id": call["id"], "content": "a.txt"}]
    # a framework's own user-role context message inside the exchange does not start a new day
    history.append({"role": "user", "content": [{"type": "text", "text": "<internal context>"}]})
    c2 = post(server, "/chat/completions", openai_body(history)).json()
    calls = c2["choices"][0]["message"]["tool_calls"]
    assert [c["function"]["name"] for c in calls] == ["read", "write"] and len({c["id"] for c in calls}) == 2
    history += [c2["choices"][0]["message"]] + [
        {"role": "tool", "tool_call_id": c["id"], "content": "ok"} for c in calls
    ]
    c3 = post(server, "/chat/completions", openai_body(history)).json()
    assert c3["choices"][0]["finish_reason"] == "stop" and c3["choices"][0]["message"]["content"] == "Day one done."
    assert "tool_calls" not in c3["choices"][0]["message"]
    # after the last step: the day's final text or the fallback, never a derailing tool call
    history += [c3["choices"][0]["message"], {"role": "user", "content": "anything else?"}]
    c4 = post(server, "/chat/completions", openai_body(history)).json()
    assert c4["choices"][0]["message"]["content"] == "Nothing more to do."


def test_openai_streaming_reassembles_to_the_same_answer(server: ScriptedModelServer) -> None:
    messages = [
        {"role": "user", "content": "DAY-ONE"},
        {
            "role": "assistant",
            "content": "Looking.",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "exec", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]
    plain = post(server, "/chat/completions", openai_body(messages)).json()
    r = post(server, "/chat/completions", openai_body(messages, stream=True))
    assert r.headers["content-type"].startswith("text/event-stream")
    assert r.text.rstrip().endswith("data: [DONE]")
    chunks = sse_data(r)
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    calls: dict[int, dict[str, str]] = {}
    finish = None
    for c in chunks:
        for ch in c["choices"]:
            finish = ch["finish_reason"] or finish
            for tc in ch["delta"].get("tool_calls", []):
                slot = calls.setdefault(tc["index"], {"name": "", "arguments": ""})
                slot["name"] += tc.get("function", {}).get("name", "")
                slot["arguments"] += tc.get("function", {}).get("arguments", "")
    assert finish == "tool_calls"
    expected = [
        {"name": c["function"]["name"], "arguments": c["function"]["arguments"]}
        for c in plain["choices"][0]["message"]["tool_calls"]
    ]
    assert [calls[i] for i in sorted(calls)] == expected
    assert len(chunks) > 4  # the 120-char content argument arrives in pieces
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"] == plain["usage"]


def test_openai_provider_error_and_side_requests(server: ScriptedModelServer) -> None:
    r = post(server, "/chat/completions", openai_body([{"role": "user", "content": "OUTAGE"}]))
    assert r.status_code == 503 and r.json()["error"]["type"] == "server_error"
    # a title/summary request (no tools offered) gets the harmless fallback, whatever the history
    side = post(server, "/chat/completions", openai_body([{"role": "user", "content": "DAY-ONE"}], tools=[])).json()
    assert (
        side["choices"][0]["message"]["content"] == "Nothing more to do."
        and side["choices"][0]["finish_reason"] == "stop"
    )
    # an unscripted conversation too
    other = post(server, "/chat/completions", openai_body([{"role": "user", "content": "hello?"}])).json()
    assert other["choices"][0]["message"]["content"] == "Nothing more to do."


def test_step_calling_a_tool_that_is_not_offered_answers_with_text(server: ScriptedModelServer) -> None:
    r = post(server, "/chat/completions", openai_body([{"role": "user", "content": "DAY-ONE"}], tools=["read"])).json()
    msg = r["choices"][0]["message"]
    assert "tool_calls" not in msg and "['exec']" in msg["content"] and "offered: ['read']" in msg["content"]


# -- Anthropic dialect -----------------------------------------------------------------------------
def test_anthropic_tool_use_and_day_two(server: ScriptedModelServer) -> None:
    day1 = {"role": "user", "content": "DAY-ONE"}
    m1 = post(server, "/messages", anthropic_body([day1])).json()
    assert m1["type"] == "message" and m1["role"] == "assistant" and m1["stop_reason"] == "tool_use"
    text, use = m1["content"]
    assert text == {"type": "text", "text": "Looking."}
    assert (
        use["type"] == "tool_use"
        and use["name"] == "exec"
        and use["input"] == {"command": "ls inbox"}
        and use["id"].startswith("toolu_")
    )
    assert set(m1["usage"]) >= {
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
    }
    # day two: the history of day one precedes the new day message
    history = [
        day1,
        {"role": "assistant", "content": m1["content"]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use["id"], "content": "ok"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Day one done."}]},
        {"role": "user", "content": [{"type": "text", "text": "DAY-TWO please"}]},
    ]
    m2 = post(server, "/messages", anthropic_body(history)).json()
    assert [b["name"] for b in m2["content"] if b["type"] == "tool_use"] == ["exec"]
    history += [
        {"role": "assistant", "content": m2["content"]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": m2["content"][0]["id"], "content": "x"}]},
    ]
    m3 = post(server, "/messages", anthropic_body(history)).json()
    assert m3["stop_reason"] == "end_turn" and m3["content"] == [{"type": "text", "text": "Day two done."}]


def test_anthropic_streaming_event_sequence(server: ScriptedModelServer) -> None:
    body = anthropic_body([{"role": "user", "content": "DAY-ONE"}], stream=True)
    r = post(server, "/messages", body)
    events = [line[7:] for line in r.text.splitlines() if line.startswith("event: ")]
    data = sse_data(r)
    assert events[0] == "message_start" and events[-2:] == ["message_delta", "message_stop"]
    assert [d["type"] for d in data] == events
    blocks: dict[int, dict[str, Any]] = {}
    for d in data:
        if d["type"] == "content_block_start":
            blocks[d["index"]] = {**d["content_block"], "partial": ""}
        elif d["type"] == "content_block_delta":
            delta = d["delta"]
            if delta["type"] == "text_delta":
                blocks[d["index"]]["text"] += delta["text"]
            else:
                blocks[d["index"]]["partial"] += delta["partial_json"]
    assert blocks[0]["text"] == "Looking."
    assert blocks[1]["name"] == "exec" and json.loads(blocks[1]["partial"]) == {"command": "ls inbox"}
    delta = next(d for d in data if d["type"] == "message_delta")
    plain = post(server, "/messages", {**body, "stream": False}).json()
    assert (
        delta["delta"]["stop_reason"] == "tool_use"
        and delta["usage"]["output_tokens"] == plain["usage"]["output_tokens"]
    )


def test_anthropic_error_shape(server: ScriptedModelServer) -> None:
    r = post(server, "/messages", anthropic_body([{"role": "user", "content": "OUTAGE"}]))
    assert r.status_code == 503 and r.json() == {
        "type": "error",
        "error": {"type": "api_error", "message": "scripted outage"},
    }


# -- determinism, models, the log, auth ------------------------------------------------------------
@pytest.mark.parametrize(
    "path,body",
    [
        ("/chat/completions", openai_body([{"role": "user", "content": "DAY-ONE"}], stream=True)),
        ("/messages", anthropic_body([{"role": "user", "content": "DAY-ONE"}], stream=True)),
    ],
)
def test_identical_requests_get_identical_bytes(server: ScriptedModelServer, path: str, body: dict[str, Any]) -> None:
    first, second = post(server, path, body), post(server, path, body)
    assert first.content == second.content


def test_models_and_request_log(server: ScriptedModelServer, tmp_path: Path) -> None:
    models = httpx.get(server.base_url + "/models").json()
    assert [m["id"] for m in models["data"]] == ["scripted-test"]
    log = httpx.get(server.url + "/_scripted/requests").json()
    assert log and all({"seq", "dialect", "kind", "input_tokens", "output_tokens", "body"} <= set(e) for e in log)
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert server.log.path is not None and len(server.log.path.read_text().splitlines()) == len(log)


def test_expected_api_key_is_enforced(tmp_path: Path) -> None:
    with ScriptedModelServer(parse_script(SCRIPT), api_key="sk-right") as srv:
        body = openai_body([{"role": "user", "content": "DAY-ONE"}])
        assert (
            httpx.post(
                srv.base_url + "/chat/completions", json=body, headers={"authorization": "Bearer sk-wrong"}
            ).status_code
            == 401
        )
        assert (
            httpx.post(
                srv.base_url + "/chat/completions", json=body, headers={"authorization": "Bearer sk-right"}
            ).status_code
            == 200
        )
        assert (
            httpx.post(
                srv.base_url + "/messages",
                json=anthropic_body([{"role": "user", "content": "DAY-ONE"}]),
                headers={"x-api-key": "sk-right"},
            ).status_code
            == 200
        )


def test_bad_bodies_are_refused_not_fatal(server: ScriptedModelServer) -> None:
    r = httpx.post(
        server.base_url + "/chat/completions", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and "error" in r.json()
    assert post(server, "/chat/completions", {"messages": "nope", "tools": 3}).status_code == 200


# -- the replay rule, without HTTP -----------------------------------------------------------------
def test_positional_days_without_when() -> None:
    script = parse_script(
        {"days": [{"steps": [{"tool": "exec", "arguments": {"command": "one"}}]}, {"steps": [{"text": "two"}]}]}
    )

    def conv(messages: list[dict[str, Any]]) -> Any:
        return parse(OPENAI, openai_body(messages))

    first = [{"role": "user", "content": "anything"}]
    assert choose(script, conv(first)).tool_calls[0].arguments == '{"command": "one"}'
    day1 = first + [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "a", "type": "function", "function": {"name": "exec", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "a", "content": ""},
        {"role": "user", "content": "context"},
        {"role": "assistant", "content": "done"},
    ]
    reply = choose(
        script, conv(day1 + [{"role": "user", "content": "next day"}, {"role": "user", "content": "context"}])
    )
    assert (reply.day, reply.step, reply.text) == (2, 0, "two")
    assert (
        parse(ANTHROPIC, {"messages": [{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]})
        .turns[0]
        .role
        == "tool"
    )


@pytest.mark.parametrize(
    "bad,message",
    [
        ({}, "'days' must be a non-empty list"),
        ({"days": [{"steps": [{}]}]}, "days[0].steps[0]: a step needs"),
        ({"days": [{"steps": [{"tool": "exec", "arguments": "ls"}]}]}, "'arguments' must be a JSON object"),
        ({"days": [{"steps": [{"error": {"status": 200}}]}]}, "'error' must be"),
        ({"days": [], "extra": 1}, "unknown keys"),
    ],
)
def test_script_errors_name_the_place(bad: dict[str, Any], message: str) -> None:
    with pytest.raises(ScriptError, match=re.escape(message)):
        parse_script(bad)


def test_cli_prints_its_url_and_stops_on_sigterm(tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps(SCRIPT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest_clawmark.cli", "scripted-model", "--script", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = []
        while not lines or lines[-1] != "}":
            line = proc.stdout.readline()  # type: ignore[union-attr]
            assert line, proc.stderr.read()  # type: ignore[union-attr]
            lines.append(line.rstrip("\n"))
        info = json.loads("\n".join(lines))
        assert info["model"] == "scripted-test" and info["base_url"].endswith("/v1")
        assert httpx.get(info["base_url"] + "/models").status_code == 200
    finally:
        proc.terminate()
    assert proc.wait(10) == 0
    assert "stopped after 0 requests" in proc.stderr.read()  # GET /models is not a model request  # type: ignore[union-attr]
