// SPDX-License-Identifier: MIT
// toolgov-mcp over MCP's Streamable HTTP transport (--http), driven by the
// official MCP TypeScript SDK client (StreamableHTTPClientTransport) on
// 127.0.0.1, and by plain fetch for what the SDK never sends (a foreign
// Origin, an unknown session, an oversized body).
//
//   TOOLGOV_MCP=path/to/toolgov-mcp node --test test_mcp_http.mjs
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import { after, before, test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = process.env.TOOLGOV_MCP;
if (!server) throw new Error("set TOOLGOV_MCP");

let child;
let url;
let stderr = "";
const clients = [];

// One server for the file, on a free port it announces on stderr.
before(async () => {
  child = spawn(server, ["--http", "127.0.0.1:0", "--max-message", "65536"], { stdio: ["ignore", "ignore", "pipe"] });
  url = await new Promise((resolve, reject) => {
    child.stderr.on("data", (b) => {
      stderr += b.toString();
      const m = /serving MCP over Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error("toolgov-mcp exited with " + code + ":\n" + stderr)));
  });
});
after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  child.kill("SIGTERM");
  await new Promise((r) => child.on("exit", r));
});

async function connect(answers) {
  const asked = [];
  const client = new Client({ name: "toolgov-http-test", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    const action = answers.shift() ?? "cancel";
    return action === "accept" ? { action, content: {} } : { action };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  clients.push(client);
  return { client, asked, transport };
}

const text = (r) => r.content.map((c) => c.text).join("\n");
const reminder = (title) => ({ title, date: "2026-12-02", time: "08:30" });

test("a session: initialize gives an Mcp-Session-Id; tools are listed and called under the gate", async () => {
  const { client, asked, transport } = await connect(["accept", "accept"]);
  assert.match(transport.sessionId, /^[0-9a-f]{32}$/);
  assert.equal(client.getServerVersion().name, "toolgov-mcp");
  const names = (await client.listTools()).tools.map((t) => t.name);
  assert.ok(names.includes("calendar_lookup") && names.includes("empty_trash"));
  const day = await client.callTool({ name: "calendar_lookup", arguments: { date: "2026-12-01" } });
  assert.equal(day.isError, false);
  // A write asks once (elicitation carried on the call's SSE stream), runs.
  const w = await client.callTool({ name: "create_reminder", arguments: reminder("Pay rent") });
  assert.equal(w.isError, false, text(w));
  assert.equal(asked.length, 1);
  assert.match(asked[0], /calendar\.create_reminder \{[^\n]*"title":"Pay rent"/);
  // A destructive call asks for its own approval.
  const d = await client.callTool({ name: "empty_trash", arguments: {} });
  assert.equal(asked.length, 2);
  assert.match(asked[1], /email_workflows\.empty_trash \{\}/);
  assert.equal(d.isError, false, text(d));
  // Bad arguments are refused before anything runs.
  const bad = await client.callTool({ name: "calendar_lookup", arguments: { date: "12/03/2026" } });
  assert.equal(bad.isError, true);
  await transport.terminateSession();
  await client.close();
});

test("sessions are apart: one run each", async () => {
  const a = await connect(["decline"]);
  const b = await connect(["accept"]);
  assert.notEqual(a.transport.sessionId, b.transport.sessionId);
  const ra = await a.client.callTool({ name: "create_reminder", arguments: reminder("A") });
  assert.equal(ra.isError, true);
  assert.match(text(ra), /declined/);
  const rb = await b.client.callTool({ name: "create_reminder", arguments: reminder("B") });
  assert.equal(rb.isError, false, text(rb));
  await a.client.close();
  await b.client.close();
});

async function post(body, headers = {}) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fetch", version: "1" } } };

test("DNS rebinding: a foreign Origin or Host is refused", async () => {
  const o = await post(init, { origin: "http://evil.example" });
  assert.equal(o.status, 403);
  assert.match(o.text, /DNS rebinding is refused/);
  // fetch will not set Host: node:http does, as a rebinding page's browser would.
  const h = await new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: "/mcp", method: "POST",
      headers: { host: "evil.example", "content-type": "application/json" } }, (res) => {
      let t = "";
      res.on("data", (b) => { t += b; });
      res.on("end", () => resolve({ status: res.statusCode, text: t }));
    });
    req.on("error", reject);
    req.end(JSON.stringify(init));
  });
  assert.equal(h.status, 403);
  const ok = await post(init, { origin: "http://localhost:3000" });
  assert.equal(ok.status, 200);
  assert.match(ok.headers.get("mcp-session-id"), /^[0-9a-f]{32}$/);
  assert.equal(ok.headers.get("content-type"), "application/json");
  assert.equal(JSON.parse(ok.text).result.serverInfo.name, "toolgov-mcp");
});

test("sessions: none, unknown or ended is refused; DELETE ends one", async () => {
  const none = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  assert.equal(none.status, 400);
  assert.match(none.text, /no Mcp-Session-Id/);
  const unknown = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": "0".repeat(32) });
  assert.equal(unknown.status, 404);
  const s = (await post(init)).headers.get("mcp-session-id");
  const listed = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": s });
  assert.equal(listed.status, 200);
  assert.ok(JSON.parse(listed.text).result.tools.length > 10);
  const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": s });
  assert.equal(note.status, 202);
  const del = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": s } });
  assert.equal(del.status, 200);
  const gone = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": s });
  assert.equal(gone.status, 404);
});

test("bad requests: each refused with its status and a JSON-RPC error", async () => {
  const big = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { pad: "x".repeat(70000) } });
  assert.equal(big.status, 413);
  assert.match(big.text, /the limit is 65536/);
  const notJson = await post("{not json");
  assert.equal(notJson.status, 400);
  assert.match(notJson.text, /-32700/);
  const batch = await post([init]);
  assert.equal(batch.status, 400);
  assert.match(batch.text, /batches are not accepted/);
  const type = await post(init, { "content-type": "text/plain" });
  assert.equal(type.status, 415);
  const get = await fetch(url, { headers: { accept: "text/event-stream" } });
  assert.equal(get.status, 400);
  assert.match(await get.text(), /a GET opens the stream of a session/);
  const put = await fetch(url, { method: "PUT", body: "{}" });
  assert.equal(put.status, 405);
  assert.equal(put.headers.get("allow"), "GET, POST, DELETE");
  const path = await fetch(url.replace("/mcp", "/other"), { method: "POST", body: "{}" });
  assert.equal(path.status, 404);
  // Still serving.
  assert.equal((await post(init)).status, 200);
});
