# SPDX-License-Identifier: MIT
"""A whole model response (tests/data/loop) as the API's server-sent-event
stream, in the event shapes each vendor's streaming reference documents:

- OpenAI Chat Completions, platform.openai.com/docs/api-reference/chat-streaming
  (the chat completion chunk object): `data: {"object":
  "chat.completion.chunk", "choices": [{"index", "delta": {"role",
  "content", "tool_calls": [{"index", "id", "type", "function": {"name",
  "arguments"}}]}, "finish_reason"}]}` per chunk, then `data: [DONE]`.
- OpenAI Responses, platform.openai.com/docs/api-reference/responses-streaming:
  response.created, response.output_item.added, response.output_text.delta,
  response.function_call_arguments.delta / .done, response.output_item.done,
  response.completed; each `event: <type>` with `data: {"type": <type>,
  "sequence_number", ...}`.
- Anthropic Messages, docs.anthropic.com/en/docs/build-with-claude/streaming:
  message_start, content_block_start, ping, content_block_delta
  (text_delta / input_json_delta), content_block_stop, message_delta,
  message_stop; each `event: <type>` with `data: {"type": <type>, ...}`.

Text and arguments are cut in pieces of `piece` bytes, so a call's
arguments arrive in fragments, as the references show. Python's standard
library only. Run as a script to print one stream:
    sse.py openai|openai-responses|anthropic FILE.json
"""
import json
import sys


def _pieces(s, n):
    return [s[i:i + n] for i in range(0, len(s), n)] or [""]


def _ev(name, obj):
    return ("event: %s\ndata: %s\n\n" % (name, json.dumps(obj))).encode()


def _data(obj):
    return ("data: %s\n\n" % json.dumps(obj)).encode()


def chat(resp, piece=7):
    ch = resp["choices"][0]
    msg = ch["message"]
    base = {"id": resp.get("id", "chatcmpl-1"), "object": "chat.completion.chunk",
            "created": resp.get("created", 0), "model": resp.get("model", "m"),
            "system_fingerprint": resp.get("system_fingerprint")}

    def chunk(delta, finish=None):
        c = dict(base)
        c["choices"] = [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
        return _data(c)

    out = [chunk({"role": "assistant", "content": "", "refusal": None})]
    for p in _pieces(msg.get("content") or "", piece) if msg.get("content") else []:
        out.append(chunk({"content": p}))
    if msg.get("refusal"):
        for p in _pieces(msg["refusal"], piece):
            out.append(chunk({"refusal": p}))
    for i, tc in enumerate(msg.get("tool_calls") or []):
        out.append(chunk({"tool_calls": [{"index": i, "id": tc["id"], "type": "function",
                                          "function": {"name": tc["function"]["name"],
                                                       "arguments": ""}}]}))
        for p in _pieces(tc["function"]["arguments"], piece):
            out.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": p}}]}))
    out.append(chunk({}, ch.get("finish_reason") or "stop"))
    out.append(b"data: [DONE]\n\n")
    return b"".join(out)


def responses(resp, piece=7):
    seq = [0]
    out = []

    def ev(t, **kw):
        obj = {"type": t, "sequence_number": seq[0]}
        obj.update(kw)
        seq[0] += 1
        out.append(_ev(t, obj))

    start = dict(resp, status="in_progress", output=[])
    ev("response.created", response=start)
    for oi, item in enumerate(resp["output"]):
        if item["type"] == "message":
            ev("response.output_item.added", output_index=oi,
               item=dict(item, content=[], status="in_progress"))
            for ci, part in enumerate(item["content"]):
                kind = part["type"]
                text = part.get("text", part.get("refusal", ""))
                ev("response.content_part.added", item_id=item["id"], output_index=oi,
                   content_index=ci, part=dict(part, **({"text": ""} if kind == "output_text"
                                                        else {"refusal": ""})))
                for p in _pieces(text, piece):
                    if kind == "output_text":
                        ev("response.output_text.delta", item_id=item["id"], output_index=oi,
                           content_index=ci, delta=p, logprobs=[])
                    else:
                        ev("response.refusal.delta", item_id=item["id"], output_index=oi,
                           content_index=ci, delta=p)
                ev("response.content_part.done", item_id=item["id"], output_index=oi,
                   content_index=ci, part=part)
            ev("response.output_item.done", output_index=oi, item=item)
        elif item["type"] == "function_call":
            ev("response.output_item.added", output_index=oi,
               item=dict(item, arguments="", status="in_progress"))
            for p in _pieces(item["arguments"], piece):
                ev("response.function_call_arguments.delta", item_id=item["id"],
                   output_index=oi, delta=p)
            ev("response.function_call_arguments.done", item_id=item["id"], output_index=oi,
               arguments=item["arguments"])
            ev("response.output_item.done", output_index=oi, item=item)
    last = "response.incomplete" if resp.get("status") == "incomplete" else "response.completed"
    ev(last, response=resp)
    return b"".join(out)


def anthropic(resp, piece=7):
    out = []
    usage = resp.get("usage", {})
    start = dict(resp, content=[], stop_reason=None, stop_sequence=None,
                 usage=dict(usage, input_tokens=usage.get("input_tokens", 1), output_tokens=1))
    out.append(_ev("message_start", {"type": "message_start", "message": start}))
    out.append(_ev("ping", {"type": "ping"}))
    for i, b in enumerate(resp["content"]):
        if b["type"] == "text":
            out.append(_ev("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": dict(b, text="")}))
            for p in _pieces(b["text"], piece):
                out.append(_ev("content_block_delta", {
                    "type": "content_block_delta", "index": i,
                    "delta": {"type": "text_delta", "text": p}}))
        elif b["type"] == "tool_use":
            out.append(_ev("content_block_start", {
                "type": "content_block_start", "index": i,
                "content_block": dict(b, input={})}))
            for p in _pieces(json.dumps(b["input"]), piece):
                out.append(_ev("content_block_delta", {
                    "type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": p}}))
        out.append(_ev("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(_ev("message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": resp.get("stop_reason"), "stop_sequence": None,
                  "stop_details": resp.get("stop_details"), "container": resp.get("container")},
        "usage": {"output_tokens": usage.get("output_tokens", 1),
                  "input_tokens": usage.get("input_tokens"),
                  "cache_creation_input_tokens": usage.get("cache_creation_input_tokens"),
                  "cache_read_input_tokens": usage.get("cache_read_input_tokens"),
                  "server_tool_use": usage.get("server_tool_use"),
                  "output_tokens_details": usage.get("output_tokens_details")}}))
    out.append(_ev("message_stop", {"type": "message_stop"}))
    return b"".join(out)


STREAMS = {"openai": chat, "openai-responses": responses, "anthropic": anthropic}


def stream(api, body, piece=7):
    """The stream of the whole response `body` (bytes) of `api`."""
    return STREAMS[api](json.loads(body), piece)


if __name__ == "__main__":
    with open(sys.argv[2], "rb") as f:
        sys.stdout.buffer.write(stream(sys.argv[1], f.read()))
