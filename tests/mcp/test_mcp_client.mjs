// SPDX-License-Identifier: MIT
// toolgov-mcp driven by the official MCP TypeScript SDK client over stdio
// (StdioClientTransport), as any MCP host would drive it.
//
//   TOOLGOV_MCP=path/to/toolgov-mcp TOOLGOV_SOURCE_DIR=. node --test test_mcp_client.mjs
//
// Each test starts its own server (its own session, its own data).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, test } from "node:test";
import path from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, McpError, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

const server = process.env.TOOLGOV_MCP;
const source = process.env.TOOLGOV_SOURCE_DIR;
if (!server || !source) throw new Error("set TOOLGOV_MCP and TOOLGOV_SOURCE_DIR");

const PLUGINS = ["calendar", "finance_workflows", "email_workflows", "planner", "system", "research", "code_exec"];

// The manifests, read with Debian's YAML reader (the same the manifest
// schema test uses), as the reference for tools/list.
function manifests() {
  const files = PLUGINS.map((p) => path.join(source, "examples", "plugins", p, p + ".yaml"));
  const out = execFileSync("/usr/bin/python3", ["-c",
    "import json, sys, yaml; print(json.dumps([yaml.safe_load(open(f, encoding='utf-8')) for f in sys.argv[1:]]))",
    ...files]);
  return JSON.parse(out);
}

// Every client made, closed at the end even when a test failed halfway (an
// open server would otherwise keep the test process alive).
const clients = [];
after(async () => {
  for (const c of clients) await c.close().catch(() => {});
});

// A connected client; `answers` is a list of elicitation actions handed out
// in order (null: the client declares no elicitation capability).
async function connect(answers, env = {}) {
  const asked = [];
  const capabilities = answers ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: "toolgov-test", version: "1.0.0" }, { capabilities });
  if (answers) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      const action = answers.shift() ?? "cancel";
      return action === "accept" ? { action, content: {} } : { action };
    });
  }
  const transport = new StdioClientTransport({
    command: server, args: [], stderr: "inherit", env: { ...process.env, ...env },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, asked };
}

function text(result) {
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, "text");
  return result.content[0].text;
}

const reminder = (title) => ({ title, date: "2026-12-02", time: "08:30" });

test("the SDK's protocol revision is the one served", async () => {
  const { client } = await connect([]);
  assert.equal(LATEST_PROTOCOL_VERSION, "2025-11-25");
  assert.equal(client.getServerVersion().name, "toolgov-mcp");
  assert.ok(client.getServerCapabilities().tools);
  await client.ping();
  await client.close();
});

test("tools/list: every pooled manifest tool, with annotations from its effect", async () => {
  const { client } = await connect([]);
  const { tools } = await client.listTools();
  // A tool of a plugin's own loop (loop: own) is never in the pool.
  const want = manifests().flatMap((m) => Object.entries(m.tools).map(([name, t]) => ({ name, ...t })))
    .filter((t) => (t.loop ?? "pool") !== "own");
  assert.ok(!tools.some((t) => t.name === "trash_email"));
  assert.deepEqual(tools.map((t) => t.name), want.map((t) => t.name));
  for (const [i, t] of tools.entries()) {
    const m = want[i];
    assert.equal(t.description, m.description, t.name);
    assert.equal(t.inputSchema.type, "object", t.name);
    if (m.parameters) assert.deepEqual(t.inputSchema.properties ?? {}, m.parameters.properties ?? {}, t.name);
    const hints = m.effect === "read" ? { readOnlyHint: true }
      : { readOnlyHint: false, destructiveHint: m.effect === "destructive", idempotentHint: false };
    assert.deepEqual(t.annotations, hints, t.name);
  }
  await client.close();
});

test("a read runs; bad arguments and an unknown tool are refused", async () => {
  const { client, asked } = await connect([]);
  const r = await client.callTool({ name: "calendar_lookup", arguments: { date: "2026-12-01" } });
  assert.equal(r.isError, false);
  assert.match(text(r), /Team stand-up/);
  const bad = await client.callTool({ name: "calendar_lookup", arguments: { date: "12/03/2026" } });
  assert.equal(bad.isError, true);
  assert.match(text(bad), /date/);
  await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }),
    (e) => e instanceof McpError && e.code === -32602 && /unknown tool 'no_such_tool'/.test(e.message));
  assert.equal(asked.length, 0);
  await client.close();
});

test("two writes in a run: one question, accepted, both run", async () => {
  const { client, asked } = await connect(["accept"]);
  const a = await client.callTool({ name: "create_reminder", arguments: reminder("Pay rent") });
  const b = await client.callTool({ name: "create_reminder", arguments: reminder("Call Ana") });
  assert.equal(a.isError, false);
  assert.equal(b.isError, false);
  assert.equal(asked.length, 1);
  assert.match(asked[0], /calendar\.create_reminder \{[^\n]*"title":"Pay rent"/);
  const day = text(await client.callTool({ name: "calendar_lookup", arguments: { date: "2026-12-02" } }));
  assert.match(day, /reminder: Pay rent/);
  assert.match(day, /reminder: Call Ana/);
  await client.close();
});

test("a declined write never runs, nor does any later write of the run", async () => {
  const { client, asked } = await connect(["decline"]);
  const a = await client.callTool({ name: "create_reminder", arguments: reminder("Pay rent") });
  assert.equal(a.isError, true);
  assert.match(text(a), /declined/);
  const b = await client.callTool({ name: "create_reminder", arguments: reminder("Call Ana") });
  assert.equal(b.isError, true);
  assert.equal(asked.length, 1);
  const day = text(await client.callTool({ name: "calendar_lookup", arguments: { date: "2026-12-02" } }));
  assert.doesNotMatch(day, /reminder:/);
  await client.close();
});

test("a destructive tool asks on every call, for that call", async () => {
  const { client, asked } = await connect(["accept", "accept"]);
  const moved = await client.callTool({ name: "trash_category", arguments: { category: "promotions" } });
  assert.equal(moved.isError, false);
  assert.equal(asked.length, 0); // confirm: never
  const first = await client.callTool({ name: "empty_trash", arguments: {} });
  assert.match(text(first), /Permanently deleted [1-9]/);
  const second = await client.callTool({ name: "empty_trash", arguments: {} });
  assert.match(text(second), /already empty/);
  assert.equal(asked.length, 2);
  for (const q of asked) assert.match(q, /email_workflows\.empty_trash \{\}/);
  await client.close();
});

test("a client without elicitation is told why, and what the operator can do", async () => {
  const { client } = await connect(null);
  const w = await client.callTool({ name: "create_reminder", arguments: reminder("A") });
  assert.equal(w.isError, true);
  assert.match(text(w), /TOOLGOV_CONFIRM_ONCE_TOOLS/);
  const d = await client.callTool({ name: "empty_trash", arguments: {} });
  assert.equal(d.isError, true);
  assert.match(text(d), /Destructive tools cannot run for this client/);
  await client.close();
  // The operator's override lets the write run without asking.
  const op = await connect(null, { TOOLGOV_CONFIRM_ONCE_TOOLS: "none" });
  const ok = await op.client.callTool({ name: "create_reminder", arguments: reminder("A") });
  assert.equal(ok.isError, false);
  await op.client.close();
});
