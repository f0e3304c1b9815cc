#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""toolgov-agent through the real HTTP path.

usage: run_agent_tests.py TOOLGOV_AGENT FIXTURES_DIR [NAME...]

For each case a fake endpoint of one API listens on 127.0.0.1 (a port the
system picks), replays recorded responses in the shapes the vendors
document (FIXTURES_DIR is tests/data/loop, whose README names the API
reference of each shape) and asserts every request toolgov-agent sends:
the path and headers of the API, the model, the tools in the API's format,
each tool call answered by exactly one result with its id, the question
restated after the first step, no schema twice. The seed's scenarios run
through the program (the user's answers on its standard input), and so do
the network's failures: 429 with Retry-After, a 500 then success, an error
body, a body cut short, a tool that does not exist, arguments that are not
JSON, ten calls at once, a repeated call. Python's standard library only.
"""
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sse  # noqa: E402  (the vendors' stream shapes)

AGENT = sys.argv[1]
FIX = sys.argv[2]
ONLY = sys.argv[3:]

CHAT, RESPONSES, ANTHROPIC = "openai", "openai-responses", "anthropic"
DIRS = {CHAT: "openai-chat", RESPONSES: "openai-responses", ANTHROPIC: "anthropic"}
PATHS = {CHAT: "/v1/chat/completions", RESPONSES: "/v1/responses", ANTHROPIC: "/v1/messages"}
KEY = "sk-test-0123456789"
DUES = "Find my bills due in the next two weeks and set a reminder for each."


def fixture(api, name):
    with open(os.path.join(FIX, DIRS[api], name + ".json"), "rb") as f:
        return f.read()


class Step:
    """One answer of the fake endpoint: status, headers, body; `cut` sends
    a Content-Length larger than the body and closes the connection.
    `stream`: the body is an event stream, sent chunked (HTTP/1.1) in
    pieces of 50 bytes; with `cut_at`, the connection closes after that
    many bytes of it, without the last chunk."""

    def __init__(self, body, status=200, headers=None, cut=False, stream=False, cut_at=None):
        self.body = body
        self.status = status
        self.headers = headers or {}
        self.cut = cut
        self.stream = stream
        self.cut_at = cut_at


def streamed(api, name, **kw):
    """A recorded whole response replayed as the API's event stream."""
    return Step(sse.stream(api, fixture(api, name)), stream=True, **kw)


class Fake:
    def __init__(self, api, steps):
        self.api = api
        self.steps = list(steps)
        self.requests = []  # (path, headers, parsed JSON body, time)
        self.errors = []
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(n)
                try:
                    body = json.loads(raw)
                except ValueError as e:
                    fake.errors.append("request is not JSON: %s" % e)
                    body = None
                fake.requests.append((self.path, dict(self.headers), body, time.time()))
                if not fake.steps:
                    fake.errors.append("an unexpected request %d" % len(fake.requests))
                    step = Step(b'{"error":{"message":"no more answers"}}', 500)
                else:
                    step = fake.steps.pop(0)
                self.send_response(step.status)
                if step.stream:
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    body = step.body if step.cut_at is None else step.body[:step.cut_at]
                    for i in range(0, len(body), 50):
                        piece = body[i:i + 50]
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                        self.wfile.flush()
                    if step.cut_at is None:
                        self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.send_header("Content-Type", "application/json")
                for k, v in step.headers.items():
                    self.send_header(k, v)
                if step.cut:
                    self.send_header("Content-Length", str(len(step.body) + 1000))
                    self.end_headers()
                    self.wfile.write(step.body[: len(step.body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.send_header("Content-Length", str(len(step.body)))
                self.end_headers()
                self.wfile.write(step.body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *a):
        self.server.shutdown()
        self.server.server_close()

    @property
    def base(self):
        return "http://127.0.0.1:%d/v1" % self.port


def run_agent(args, stdin="", env_extra=None, timeout=60):
    env = dict(os.environ)
    env.pop("TOOLGOV_CONFIRM_ONCE_TOOLS", None)
    env.pop("TOOLGOV_CONFIRM_SCOPE", None)
    env["OPENAI_API_KEY"] = KEY
    env["ANTHROPIC_API_KEY"] = KEY
    env.update(env_extra or {})
    return subprocess.run([AGENT] + args, input=stdin.encode(), capture_output=True,
                          env=env, timeout=timeout)


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


# ---- what every request must be ---------------------------------------------

def check_request(api, path, headers, body):
    """Shape, headers, pairing; returns (number of calls, last user text)."""
    h = {k.lower(): v for k, v in headers.items()}
    check(path == PATHS[api], "request to %s, not %s" % (path, PATHS[api]))
    check(h.get("content-type") == "application/json", "no JSON content type")
    if api == ANTHROPIC:
        check(h.get("x-api-key") == KEY, "no x-api-key")
        check(h.get("anthropic-version") == "2023-06-01", "no anthropic-version")
        check(isinstance(body.get("max_tokens"), int), "no max_tokens")
    else:
        check(h.get("authorization") == "Bearer " + KEY, "no bearer key")
    check(body.get("model") == "test-model", "model %r" % body.get("model"))
    tools = body.get("tools", [])
    check(len(tools) > 10, "only %d tools" % len(tools))
    pending, answered, last_user = [], set(), None

    def call(i):
        check(i and i not in pending and i not in answered, "bad or reused call id %r" % i)
        pending.append(i)

    def result(i):
        check(i in pending, "a result for %r, which waits for none" % i)
        pending.remove(i)
        answered.add(i)

    if api == CHAT:
        msgs = body["messages"]
        check(msgs[0]["role"] == "system", "no system message first")
        system = msgs[0]["content"]
        for t in tools:
            check(t["type"] == "function" and "parameters" in t["function"], "chat tool shape")
        for m in msgs[1:]:
            if m["role"] == "assistant":
                check(not pending, "calls without results: %s" % pending)
                for c in m.get("tool_calls") or []:
                    check(isinstance(c["function"]["arguments"], str), "arguments not a string")
                    call(c["id"])
            elif m["role"] == "tool":
                result(m["tool_call_id"])
            else:
                check(m["role"] == "user" and not pending, "user message while calls wait")
                last_user = m["content"]
    elif api == RESPONSES:
        system = body["instructions"]
        for t in tools:
            check(t["type"] == "function" and "name" in t and "parameters" in t,
                  "responses tool shape")
        for item in body["input"]:
            if item.get("type") == "function_call":
                call(item["call_id"])
            elif item.get("type") == "function_call_output":
                result(item["call_id"])
            elif item.get("role") == "user":
                check(not pending, "user message while calls wait")
                last_user = item["content"]
    else:
        system = body["system"]
        for t in tools:
            check("input_schema" in t and "name" in t, "anthropic tool shape")
        for i, m in enumerate(body["messages"]):
            check(m["role"] == ("assistant" if i % 2 else "user"), "roles must alternate")
            if isinstance(m["content"], str):
                last_user = m["content"]
                continue
            if i % 2:
                check(not pending, "calls without results")
            for b in m["content"]:
                if b["type"] == "tool_use":
                    check(isinstance(b["input"], dict), "input not an object")
                    call(b["id"])
                elif b["type"] == "tool_result":
                    result(b["tool_use_id"])
                elif b["type"] == "text" and i % 2 == 0:
                    last_user = b["text"]
    check(not pending, "calls without results at the end: %s" % pending)
    check("Arguments (JSON Schema)" not in system, "the schemas are sent twice")
    return len(answered), last_user


def check_all(fake, stream=False):
    check(not fake.errors, "; ".join(fake.errors))
    for _, _, body, _ in fake.requests:
        check((body.get("stream") is True) == stream, "stream %r in a request" % body.get("stream"))
    check(not fake.steps, "%d answers never asked for" % len(fake.steps))
    out = []
    for i, (path, headers, body, _) in enumerate(fake.requests):
        n, last = check_request(fake.api, path, headers, body)
        if i > 0:
            check(last and last.startswith("The user's request, restated: "),
                  "request %d does not restate the question" % (i + 1))
        out.append((n, last))
    return out


def agent_args(fake, question, extra=()):
    return ["--base-url", fake.base, "--model", "test-model", "--api", fake.api,
            "--once", question, "--retries", "2", "--timeout", "20"] + list(extra)


def expect(p, code, out_has=(), err_has=()):
    so, se = p.stdout.decode(), p.stderr.decode()
    check(p.returncode == code, "exit %d, not %d\nstdout: %s\nstderr: %s" %
          (p.returncode, code, so, se))
    for w in out_has:
        check(w in so, "stdout lacks %r:\n%s" % (w, so))
    for w in err_has:
        check(w in se, "stderr lacks %r:\n%s" % (w, se))
    return so, se


# ---- cases ------------------------------------------------------------------

def dues(api):
    steps = [Step(fixture(api, "dues-%d" % i)) for i in (1, 2, 3)]
    with Fake(api, steps) as f:
        p = run_agent(agent_args(f, DUES), stdin="y\n")
    so, _ = expect(p, 0, ["Make these 4 changes?", "Done: I created 4 reminders"])
    check(so.count("[y/N]") == 1, "asked %d times" % so.count("[y/N]"))
    reqs = check_all(f)
    check([n for n, _ in reqs] == [0, 2, 6], "calls answered per request: %s" % reqs)
    check("1. upcoming_dues" in reqs[1][1] and ": ran" in reqs[1][1], "scratchpad")


def case_dues_openai():
    dues(CHAT)


def case_dues_responses():
    dues(RESPONSES)


def case_dues_anthropic():
    dues(ANTHROPIC)


def case_dues_declined():
    steps = [Step(fixture(CHAT, "dues-%d" % i)) for i in (1, 2)]
    steps.append(Step(json.dumps({"choices": [{"index": 0, "finish_reason": "stop", "message": {
        "role": "assistant", "content": "Understood: I created no reminders."}}]}).encode()))
    with Fake(CHAT, steps) as f:
        p = run_agent(agent_args(f, DUES), stdin="n\n")
    expect(p, 0, ["Make these 4 changes?", "I created no reminders"])
    reqs = check_all(f)
    check("not run: the user said no" in reqs[2][1], "the no is in the scratchpad")


def case_digest():
    for api in (CHAT, ANTHROPIC, RESPONSES):
        with Fake(api, [Step(fixture(api, "digest-1"))]) as f:
            p = run_agent(agent_args(f, "Summarize my latest emails."))
        expect(p, 0, ["You have 25 emails in your inbox"])
        check(len(f.requests) == 1, "%s: %d requests, not one" % (api, len(f.requests)))
        check_all(f)


def case_answer_is_text_shown():
    """The model's answer reaches the terminal escaped (toolgov_text_shown),
    whole or streamed: no raw escape sequence, bidi control or invisible
    character; its line breaks stay."""
    body = json.loads(fixture(CHAT, "dues-3"))  # an answer in text, no call
    body["choices"][0]["message"]["content"] = (
        "Inbox \x1b[2J\x1b]0;owned\x07cleared\nnext line \u202egnp.exe\u200b end")
    raw = json.dumps(body).encode()
    for step in (Step(raw), Step(sse.stream(CHAT, raw), stream=True)):
        extra = ["--stream"] if step.stream else []
        with Fake(CHAT, [step]) as f:
            p = run_agent(agent_args(f, "What is in my inbox?", extra))
        so, _ = expect(p, 0, ["Inbox \\x1b[2J\\x1b]0;owned\\x07cleared\n",
                              "next line \\u202egnp.exe\\u200b end"])
        for bad in ("\x1b", "\x07", "\u202e", "\u200b"):
            check(bad not in so, "a raw %r in the answer shown (stream=%s)" % (bad, step.stream))


def case_empty_trash():
    with Fake(CHAT, [Step(fixture(CHAT, "empty-1")), Step(fixture(CHAT, "empty-2"))]) as f:
        p = run_agent(agent_args(f, "Now empty the trash."), stdin="n\n")
    expect(p, 0, ["Approve this call? It cannot be undone.\n  empty_trash {}",
                  "I left the Trash as it is."])
    reqs = check_all(f)
    check("empty_trash {}: not run: the user did not approve it" in reqs[1][1], "refused")
    with Fake(CHAT, [Step(fixture(CHAT, "empty-3")), Step(fixture(CHAT, "empty-4"))]) as f:
        p = run_agent(agent_args(f, "Empty the trash, I am sure."), stdin="y\n")
    expect(p, 0, ["Approve this call?", "The Trash is empty."])
    reqs = check_all(f)
    check("empty_trash {}: ran" in reqs[1][1], "granted")


def case_promos_repeat():
    steps = [Step(fixture(CHAT, "promos-%d" % i)) for i in (1, 2, 3, 4)]
    with Fake(CHAT, steps) as f:
        p = run_agent(agent_args(f, "What promotions do I have? Trash them."))
    expect(p, 0, ["Your 13 promotions are in the Trash."])
    reqs = check_all(f)
    check(": replayed" in reqs[3][1], "the repeat replays: %s" % reqs[3][1])
    outs = [m["content"] for m in f.requests[3][2]["messages"] if m["role"] == "tool"]
    check(outs[1] == outs[2], "a replay gives the first result again")


def stream_dues(api):
    steps = [streamed(api, "dues-%d" % i) for i in (1, 2, 3)]
    with Fake(api, steps) as f:
        p = run_agent(agent_args(f, DUES, ["--stream"]), stdin="y\n")
    so, _ = expect(p, 0, ["Make these 4 changes?", "Done: I created 4 reminders"])
    check(so.count("[y/N]") == 1, "asked %d times" % so.count("[y/N]"))
    check(so.count("Done: I created 4 reminders") == 1, "the answer shown twice:\n" + so)
    reqs = check_all(f, stream=True)
    check([n for n, _ in reqs] == [0, 2, 6], "calls answered per request: %s" % reqs)
    # The arguments came in fragments; the history carries them whole.
    if api != ANTHROPIC:
        body = f.requests[2][2]
        items = body["messages"] if api == CHAT else body["input"]
        args = [c["function"]["arguments"] for m in items for c in (m.get("tool_calls") or [])
                if m.get("role") == "assistant"] if api == CHAT else \
            [i["arguments"] for i in items if i.get("type") == "function_call"]
        check(all(json.loads(a) for a in args) and len(args) == 6, "arguments: %s" % args)


def case_stream_dues_openai():
    stream_dues(CHAT)


def case_stream_dues_responses():
    stream_dues(RESPONSES)


def case_stream_dues_anthropic():
    stream_dues(ANTHROPIC)


def case_stream_cut():
    """A stream cut in the middle of an event (the third reminder's first),
    and one that stops between events before its last two: a clear
    error, exit 1, and none of its calls runs (no question, no request
    after it)."""
    for api in (CHAT, RESPONSES, ANTHROPIC):
        whole = sse.stream(api, fixture(api, "dues-2"))
        mid = whole.index(b"Rem3" if api == ANTHROPIC else b"rem_3")  # inside an event
        ends = [i + 2 for i in range(len(whole)) if whole[i:i + 2] == b"\n\n"]
        before_last = ends[-3]  # every event but the last two
        for cut, err in ((mid, "the stream was cut in the middle of an event"),
                         (before_last, "the stream ended before its last event")):
            with tempfile.TemporaryDirectory() as d:
                log = os.path.join(d, "audit.jsonl")
                with Fake(api, [streamed(api, "dues-1"), Step(whole, stream=True, cut_at=cut)]) as f:
                    p = run_agent(agent_args(f, DUES, ["--stream", "--audit", log]), stdin="y\n")
                so, se = expect(p, 1, [], [err, "nothing of this response is used"])
                check("Make these" not in so, "%s: a call of the cut stream was asked about" % api)
                check(len(f.requests) == 2, "%s: %d requests" % (api, len(f.requests)))
                with open(log) as fh:
                    tools = [json.loads(x).get("tool") for x in fh]
                check("create_reminder" not in tools, "%s: a reminder reached the gate" % api)


def case_stream_error_event():
    """An error event in the middle of a stream: the API's message, exit 1."""
    ev = (b'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1",'
          b'"type":"message","role":"assistant","content":[],"model":"m","stop_reason":null,'
          b'"usage":{"input_tokens":1,"output_tokens":1}}}\n\n'
          b'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", '
          b'"message": "Overloaded"}}\n\n')
    with Fake(ANTHROPIC, [Step(ev, stream=True)]) as f:
        p = run_agent(agent_args(f, DUES, ["--stream"]))
    expect(p, 1, [], ["Anthropic API error (overloaded_error): Overloaded"])
    body = b'{"error":{"message":"Incorrect API key provided: sk-test","type":"invalid_request_error"}}'
    with Fake(CHAT, [Step(body, 401)]) as f:
        p = run_agent(agent_args(f, DUES, ["--stream"]))
    expect(p, 1, [], ["Incorrect API key provided"])


# The response types of the official SDKs each fixture is checked against
# (sdk_types): a whole body, an error body, one event of a stream. The
# Responses API's `output_text` is the SDK's own convenience (its reference:
# "the `output_text` property where supported in SDKs"), not on the wire,
# so a body is a Response without it (also inside the events that carry
# one). Anthropic's `ping` event has no type in the SDK (its stream reader
# passes it over) and is left out.
RESPONSE_TYPES = {CHAT: ("ChatCompletion", "OpenAIErrorBody", "ChatCompletionChunk"),
                  RESPONSES: ("WireResponse", "OpenAIErrorBody", "WireResponseEvent"),
                  ANTHROPIC: ("Message", "ErrorResponse", "RawMessageStreamEvent")}
RESPONSE_IMPORTS = [
    'import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";',
    'import type { Response, ResponseStreamEvent } from "openai/resources/responses/responses";',
    'import type { ErrorObject } from "openai/resources/shared";',
    'import type { Message, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";',
    'import type { ErrorResponse } from "@anthropic-ai/sdk/resources/shared";',
    "type OpenAIErrorBody = { error: ErrorObject };",
    'type WireResponse = Omit<Response, "output_text">;',
    "type Wire<E> = E extends { response: Response } ? Omit<E, \"response\"> & "
    "{ response: WireResponse } : E;",
    "type WireResponseEvent = Wire<ResponseStreamEvent>;",
]


def stream_events(raw):
    """The JSON of each `data:` line of an event stream (not [DONE])."""
    for line in raw.decode("utf-8").split("\n"):
        if line.startswith("data: ") and line[6:] != "[DONE]":
            yield json.loads(line[6:])


def response_lines():
    """One typed constant per response the fake endpoint serves: every
    fixture of tests/data/loop whole (error.json as the API's error body),
    every other one as the stream `streamed()` makes of it, and the
    recorded .sse streams. Returns the lines and how many files."""
    lines, files, n = [], 0, 0
    for api, (whole, error, event) in RESPONSE_TYPES.items():
        d = os.path.join(FIX, DIRS[api])
        for name in sorted(os.listdir(d)):
            if not name.endswith((".json", ".sse")):
                continue
            with open(os.path.join(d, name), "rb") as fh:
                raw = fh.read()
            files += 1
            if name.endswith(".json"):
                t = error if name == "error.json" else whole
                lines.append("// %s/%s\nexport const w%d: %s = %s;"
                             % (DIRS[api], name, n, t, json.dumps(json.loads(raw))))
                n += 1
                if name == "error.json":
                    continue
                raw = sse.stream(api, raw)
                name += " streamed"
            for ev in stream_events(raw):
                if ev.get("type") != "ping":
                    lines.append("// %s/%s\nexport const w%d: %s = %s;"
                                 % (DIRS[api], name, n, event, json.dumps(ev)))
                    n += 1
    return lines, files


def case_sdk_types():
    """The requests toolgov-agent sends and the responses the fake endpoint
    serves, type-checked in one `tsc --noEmit` against the official SDKs'
    types (tests/agent/types, pinned in its package-lock.json; installed by
    .ci/run when missing, else this case says it is skipped). Requests:
    ChatCompletionCreateParams and ResponseCreateParams of `openai`,
    MessageCreateParams of `@anthropic-ai/sdk`; the dues of each API, whole
    and streamed, and with --strict for the OpenAI ones. Responses
    (RESPONSE_TYPES): ChatCompletion and ChatCompletionChunk, the Responses
    API's Response and its stream events, Anthropic's Message and
    RawMessageStreamEvent, and each API's error body. An object literal with
    a key the type does not have, a missing required key, or a value of the
    wrong shape, fails the check."""
    here = os.path.dirname(os.path.abspath(__file__))
    types = os.path.join(here, "types")
    tsc = os.path.join(types, "node_modules", "typescript", "bin", "tsc")
    node = shutil.which("node")
    if not node or not os.path.exists(tsc):
        print("skip sdk_types: no node or no tests/agent/types/node_modules (npm ci there)")
        return
    kinds = {CHAT: ("ChatCompletionCreateParams", "openai/resources/chat/completions"),
             RESPONSES: ("ResponseCreateParams", "openai/resources/responses/responses"),
             ANTHROPIC: ("MessageCreateParams", "@anthropic-ai/sdk/resources/messages")}
    lines = ['import type { %s } from "%s";' % kinds[a] for a in (CHAT, RESPONSES, ANTHROPIC)]
    lines += RESPONSE_IMPORTS
    n = 0
    for api in (CHAT, RESPONSES, ANTHROPIC):
        for extra in ([], ["--stream"], ["--strict"]):
            if extra == ["--strict"] and api == ANTHROPIC:
                continue
            stream = extra == ["--stream"]
            mk = (lambda i: streamed(api, "dues-%d" % i)) if stream else \
                (lambda i: Step(fixture(api, "dues-%d" % i)))
            with Fake(api, [mk(i) for i in (1, 2, 3)]) as f:
                p = run_agent(agent_args(f, DUES, extra), stdin="y\n")
            expect(p, 0, ["Done: I created 4 reminders"])
            for _, _, body, _ in f.requests:
                lines.append("export const r%d: %s = %s;" % (n, kinds[api][0], json.dumps(body)))
                n += 1
    responses, files = response_lines()
    lines += responses
    d = tempfile.mkdtemp(prefix="requests-", dir=types)
    try:
        with open(os.path.join(d, "requests.mts"), "w") as fh:
            fh.write("\n".join(lines) + "\n")
        with open(os.path.join(d, "tsconfig.json"), "w") as fh:
            json.dump({"extends": "../tsconfig.json", "files": ["requests.mts"]}, fh)
        p = subprocess.run([node, tsc, "-p", d], capture_output=True, timeout=240)
        out = (p.stdout + p.stderr).decode()
        check(p.returncode == 0, "tsc --noEmit refuses %d requests or %d responses:\n%s"
              % (n, len(responses), out[:4000]))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    check(n == 24, "%d requests checked, not 24" % n)
    check(files >= 36 and len(responses) > 600,
          "%d responses of %d files checked, expected every fixture" % (len(responses), files))


def case_retry_after():
    steps = [Step(b'{"error":{"message":"Rate limit reached","type":"requests"}}', 429,
                  {"Retry-After": "1"}),
             Step(fixture(CHAT, "digest-1"))]
    with Fake(CHAT, steps) as f:
        p = run_agent(agent_args(f, "Summarize my latest emails."))
    expect(p, 0, ["You have 25 emails"], ["HTTP 429, retrying in 1000 ms (Retry-After)"])
    check(len(f.requests) == 2, "two requests")
    waited = f.requests[1][3] - f.requests[0][3]
    check(waited >= 0.9, "waited only %.2f s" % waited)
    check(f.requests[0][2] == f.requests[1][2], "the retry sends the same request")


def case_500_then_success():
    steps = [Step(b'{"error":{"message":"The server had an error","type":"server_error"}}', 500),
             Step(fixture(CHAT, "digest-1"))]
    with Fake(CHAT, steps) as f:
        p = run_agent(agent_args(f, "Summarize my latest emails."))
    expect(p, 0, ["You have 25 emails"], ["HTTP 500, retrying"])
    check(len(f.requests) == 2, "two requests")


def case_500_gives_up():
    body = b'{"error":{"message":"The server had an error","type":"server_error"}}'
    with Fake(CHAT, [Step(body, 503)] * 3) as f:
        p = run_agent(agent_args(f, "Summarize my latest emails."))
    expect(p, 1, [], ["The server had an error", "HTTP 503"])
    check(len(f.requests) == 3, "%d requests, not 3" % len(f.requests))


def case_error_body():
    for api in (CHAT, ANTHROPIC):
        with Fake(api, [Step(fixture(api, "error"), 401 if api == CHAT else 529)] *
                  (1 if api == CHAT else 3)) as f:
            p = run_agent(agent_args(f, DUES))
        expect(p, 1, [], ["Incorrect API key provided" if api == CHAT else "Overloaded"])
        check(p.stdout.decode().strip() == "", "nothing on stdout after an API error")


def case_body_cut():
    with Fake(CHAT, [Step(fixture(CHAT, "digest-1"), cut=True),
                     Step(fixture(CHAT, "digest-1"))]) as f:
        p = run_agent(agent_args(f, "Summarize my latest emails."))
    expect(p, 0, ["You have 25 emails"], ["retrying"])
    check(len(f.requests) == 2, "two requests")


def case_bad_calls():
    done = Step(json.dumps({"choices": [{"index": 0, "finish_reason": "stop", "message": {
        "role": "assistant", "content": "Sorry about that."}}]}).encode())
    with Fake(CHAT, [Step(fixture(CHAT, "bad-calls")), done]) as f:
        p = run_agent(agent_args(f, DUES))
    expect(p, 0, ["Sorry about that."])
    reqs = check_all(f)
    check(reqs[1][0] == 4, "four results")
    outs = {m["tool_call_id"]: m["content"] for m in f.requests[1][2]["messages"]
            if m["role"] == "tool"}
    check("there is no tool 'send_money' here" in outs["call_x_1"], "unknown tool")
    check("not JSON" in outs["call_x_2"] or "JSON" in outs["call_x_2"], outs["call_x_2"])
    check("/days" in outs["call_x_3"], outs["call_x_3"])


def case_ten_parallel():
    calls = [{"id": "call_%d" % i, "type": "function", "function": {
        "name": "calendar_lookup", "arguments": json.dumps({"date": "2026-12-%02d" % (i + 1)})}}
        for i in range(10)]
    first = {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": calls}}]}
    done = {"choices": [{"index": 0, "finish_reason": "stop", "message": {
        "role": "assistant", "content": "Ten days looked up."}}]}
    with Fake(CHAT, [Step(json.dumps(first).encode()), Step(json.dumps(done).encode())]) as f:
        p = run_agent(agent_args(f, "What is on my calendar each day of the first ten?"))
    expect(p, 0, ["Ten days looked up."])
    reqs = check_all(f)
    check(reqs[1][0] == 10, "%d results, not ten" % reqs[1][0])
    check(reqs[1][1].count(": ran\n") == 10, "ten calls ran")


def case_no_key_on_argv():
    p = run_agent(["--api-key", "sk-secret", "--once", "hi"])
    expect(p, 2, [], ["never taken on the command line"])
    p = run_agent(["--api", "gemini", "--once", "hi"])
    expect(p, 2, [], ["--api takes openai, openai-responses or anthropic"])


def case_key_file():
    with tempfile.NamedTemporaryFile("w", suffix=".key", delete=False) as k:
        k.write(KEY + "\n")
    try:
        with Fake(CHAT, [Step(fixture(CHAT, "digest-1"))]) as f:
            p = run_agent(agent_args(f, "Summarize my latest emails.", ["--api-key-file", k.name]),
                          env_extra={"OPENAI_API_KEY": "wrong"})
        expect(p, 0)
        check_all(f)
    finally:
        os.unlink(k.name)


def case_unreachable():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    p = run_agent(["--base-url", "http://127.0.0.1:%d/v1" % port, "--once", DUES,
                   "--retries", "1", "--connect-timeout", "2"])
    expect(p, 1, [], ["no answer from http://127.0.0.1:%d/v1/chat/completions" % port])


def case_plugin_errors_name_the_agent():
    """Plugin-load problems name toolgov-agent, the program that reports them."""
    missing = "/nonexistent/libnot_a_plugin.so"
    p = run_agent(["--plugin", missing, "--once", DUES])
    expect(p, 2, [], ["toolgov-agent: %s: cannot load" % missing])
    check(b"toolgov-mcp" not in p.stderr, "a toolgov-mcp prefix in toolgov-agent's message")
    p = run_agent(["--plugin", missing, "--plugin-config-file", "/nonexistent/config.json",
                   "--once", DUES])
    expect(p, 2, [], ["toolgov-agent: /nonexistent/config.json: cannot read the plugin "
                      "configuration"])


def case_scripted():
    p = run_agent(["--once", DUES], stdin="y\n")
    expect(p, 0, ["Make these 4 changes?", "Done: I created 4 reminders"])


def case_audit():
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "audit.jsonl")
        p = run_agent(["--once", DUES, "--audit", log], stdin="y\n")
        expect(p, 0)
        with open(log) as f:
            events = [json.loads(line)["event"] for line in f]
        check(events.count("executed") == 6, "six executions logged: %s" % events)
        check("confirm_answered" in events, "the answer is logged")


def case_grants_always():
    """`a` at a question: yes, and always. The grant is kept in the sealed
    --grants file, and the next process does not ask; a destructive tool is
    kept only for the call approved; another user's file is refused."""
    with tempfile.TemporaryDirectory() as d:
        grants = os.path.join(d, "grants")
        env = {"TOOLGOV_STATE_KEY_FILE": os.path.join(d, "key")}
        args = ["--grants", grants, "--grants-user", "ana"]
        p = run_agent(["--once", DUES] + args, stdin="a\n", env_extra=env)
        so, _ = expect(p, 0, ["Make these 4 changes?", "[y/N/a: yes, and always]",
                              "(kept: create_reminder runs without asking from now on)",
                              "Done: I created 4 reminders"])
        with open(grants, "rb") as fh:
            text = fh.read()
        check(text.startswith(b"toolgov-grants 1\nbound 3:ana\n"), "sealed for ana: %r" % text)
        check(b" 8:calendar 15:create_reminder - 3:ana\n" in text, "the tool's grant: %r" % text)
        p = run_agent(["--once", DUES] + args, stdin="", env_extra=env)
        so, _ = expect(p, 0, ["Done: I created 4 reminders"])
        check("Make these 4 changes?" not in so, "asked again:\n" + so)
        # The destructive call: kept for exactly that call.
        p = run_agent(["--once", "Empty the trash, I am sure."] + args, stdin="a\n",
                      env_extra=env)
        expect(p, 0, ["Approve this call?",
                      "(kept: empty_trash with exactly these arguments runs without asking"])
        p = run_agent(["--once", "Empty the trash, I am sure."] + args, stdin="",
                      env_extra=env)
        so, _ = expect(p, 0)
        check("Approve this call?" not in so, "asked again:\n" + so)
        # Another user, or the file changed in a byte: refused at start.
        p = run_agent(["--once", DUES, "--grants", grants, "--grants-user", "bob"],
                      env_extra=env)
        expect(p, 2, [], ["refused: the grants are not sealed with this key for user 'bob'"])
        bad = bytearray(text)
        bad[len(bad) // 3] ^= 1
        with open(grants, "wb") as fh:
            fh.write(bytes(bad))
        p = run_agent(["--once", DUES] + args, env_extra=env)
        expect(p, 2, [], ["refused"])
        p = run_agent(["--once", DUES, "--grants", grants])
        expect(p, 2, [], ["TOOLGOV_STATE_KEY_FILE"])


def case_save_resume():
    """A turn stopped at its question (--state) and resumed by a second
    process; a text changed in a byte, or copied to another state file, is
    refused."""
    with tempfile.TemporaryDirectory() as d:
        state = os.path.join(d, "turn.state")
        env = {"TOOLGOV_STATE_KEY_FILE": os.path.join(d, "key")}
        with Fake(CHAT, [Step(fixture(CHAT, "dues-1")), Step(fixture(CHAT, "dues-2"))]) as f:
            p = run_agent(agent_args(f, DUES, ["--state", state]), env_extra=env)
        so, _ = expect(p, 4, ["Make these 4 changes?", "saved in"])
        check("[y/N]" not in so, "the first process does not wait for an answer")
        check_all(f)
        check(os.path.exists(state), "no state file")
        with open(state, "rb") as fh:
            text = fh.read()
        # Another state file with the same text: another run.
        other = os.path.join(d, "other.state")
        with open(other, "wb") as fh:
            fh.write(text)
        p = run_agent(["--state", other], stdin="y\n", env_extra=env)
        expect(p, 2, [], ["refused"])
        # One byte changed.
        bad = bytearray(text)
        bad[len(bad) // 2] ^= 1
        with open(state, "wb") as fh:
            fh.write(bytes(bad))
        p = run_agent(["--state", state], stdin="y\n", env_extra=env)
        expect(p, 2, [], ["refused"])
        with open(state, "wb") as fh:
            fh.write(text)
        with Fake(CHAT, [Step(fixture(CHAT, "dues-3"))]) as f:
            p = run_agent(["--base-url", f.base, "--model", "test-model", "--state", state],
                          stdin="y\n", env_extra=env)
        expect(p, 0, ["Make these 4 changes?", "Done: I created 4 reminders"])
        reqs = check_all(f)
        check(reqs[0][0] == 6, "the resumed request answers all six calls: %s" % (reqs,))
        check(not os.path.exists(state), "the state file is used up")


def case_host_example():
    """The host of docs/agent-host.md: the dues' reminders through its loop."""
    host = os.environ.get("TOOLGOV_HOST_EXAMPLE")
    if not host:
        return
    calls = [{"id": "call_%d" % i, "type": "function", "function": {
        "name": "create_reminder", "arguments": json.dumps(
            {"title": "Pay %s" % t, "date": d, "time": "08:30"})}}
        for i, (t, d) in enumerate([("rent", "2026-12-07"), ("power", "2026-12-03")])]
    first = {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": calls}}]}
    with Fake(CHAT, [Step(json.dumps(first).encode()),
                     Step(fixture(CHAT, "dues-3"))]) as f:
        env = dict(os.environ, OPENAI_API_KEY=KEY)
        p = subprocess.run([host, f.base, "Remind me of the rent and the power bill."],
                           input=b"y\n", capture_output=True, env=env, timeout=60)
    expect(p, 0, ["Make these 2 changes?", "Done: I created"])
    check(len(f.requests) == 2, "two requests")
    outs = [m["content"] for m in f.requests[1][2]["messages"] if m["role"] == "tool"]
    check(len(outs) == 2 and all("Created reminder" in o for o in outs), outs)


CASES = {k[5:]: v for k, v in sorted(globals().items()) if k.startswith("case_")}


def main():
    failed = 0
    for name, fn in CASES.items():
        if ONLY and name not in ONLY:
            continue
        try:
            fn()
            print("ok   %s" % name)
        except Failure as e:
            failed += 1
            print("FAIL %s: %s" % (name, e))
        except Exception as e:  # a crash of the harness is a failure too
            failed += 1
            print("FAIL %s: %s: %s" % (name, type(e).__name__, e))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
