// SPDX-License-Identifier: MIT
// Every message toolgov-mcp sends in a session, validated against MCP's
// published JSON Schema (revision 2025-11-25, tests/data/mcp-schema) with
// Ajv's draft 2020-12 validator: the initialize result, the tools/list
// result, tool results (plain, refused, invalid arguments), the
// elicitation/create requests it makes, and the JSON-RPC errors.
//
//   TOOLGOV_MCP=path/to/toolgov-mcp TOOLGOV_SOURCE_DIR=. node --test test_mcp_schema.mjs
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { test } from "node:test";

import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const server = process.env.TOOLGOV_MCP;
const source = process.env.TOOLGOV_SOURCE_DIR;
const schema = JSON.parse(readFileSync(path.join(source, "tests/data/mcp-schema/schema-2025-11-25.json"), "utf8"));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(schema, "mcp");
const check = (def, value) => {
  const validate = ajv.getSchema(`mcp#/$defs/${def}`);
  assert.ok(validate, def);
  assert.ok(validate(value), `${def}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value)}`);
};

// A session over raw stdio: send() writes one message, next() waits for the
// server's next one.
function session() {
  const child = spawn(server, [], { stdio: ["pipe", "pipe", "inherit"] });
  const queue = [];
  const waiting = [];
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    const msg = JSON.parse(line);
    if (waiting.length) waiting.shift()(msg);
    else queue.push(msg);
  });
  return {
    send: (msg) => child.stdin.write(JSON.stringify(msg) + "\n"),
    sendRaw: (text) => child.stdin.write(text + "\n"),
    next: () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiting.push(r))),
    close: () => new Promise((r) => { child.on("exit", r); child.stdin.end(); }),
    kill: () => child.kill(),
  };
}

test("every message of a session is valid MCP 2025-11-25", async () => {
  const s = session();
  try {
    await converse(s);
    await s.close();
  } finally {
    s.kill(); // a failed check must not leave the server holding the test open
  }
});

async function converse(s) {
  const req = (id, method, params) => s.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });

  req(1, "initialize", { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } },
                         clientInfo: { name: "schema-test", version: "1" } });
  let m = await s.next();
  check("JSONRPCResponse", m);
  check("InitializeResult", m.result);
  s.send({ jsonrpc: "2.0", method: "notifications/initialized" });

  req(2, "tools/list", {});
  m = await s.next();
  check("JSONRPCResponse", m);
  check("ListToolsResult", m.result);
  assert.ok(m.result.tools.length >= 10);

  req(3, "ping");
  check("JSONRPCResponse", await s.next());

  req(4, "tools/call", { name: "calendar_lookup", arguments: { date: "2026-12-01" } });
  m = await s.next();
  check("CallToolResult", m.result);
  assert.equal(m.result.isError, false);

  req(5, "tools/call", { name: "calendar_lookup", arguments: { date: "12/03/2026" } });
  m = await s.next();
  check("CallToolResult", m.result);
  assert.equal(m.result.isError, true);

  // A write asks: the request is a valid elicitation/create.
  req(6, "tools/call", { name: "create_reminder", arguments: { title: "A", date: "2026-12-02", time: "08:30" } });
  m = await s.next();
  check("JSONRPCRequest", m);
  check("ElicitRequest", m);
  s.send({ jsonrpc: "2.0", id: m.id, result: { action: "accept", content: {} } });
  m = await s.next();
  assert.equal(m.id, 6);
  check("CallToolResult", m.result);

  // A destructive call asks, and a declined one is a valid refusal.
  req(7, "tools/call", { name: "empty_trash", arguments: {} });
  m = await s.next();
  check("ElicitRequest", m);
  s.send({ jsonrpc: "2.0", id: m.id, result: { action: "decline" } });
  m = await s.next();
  check("CallToolResult", m.result);
  assert.equal(m.result.isError, true);

  // Cancelling a call that waits withdraws the question with a valid notification.
  req(8, "tools/call", { name: "empty_trash", arguments: {} });
  m = await s.next();
  check("ElicitRequest", m);
  s.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 8, reason: "stop" } });
  m = await s.next();
  check("JSONRPCNotification", m);
  check("CancelledNotification", m);

  // Errors: an unknown tool, an unknown method, a parse error.
  req(9, "tools/call", { name: "no_such_tool", arguments: {} });
  m = await s.next();
  check("JSONRPCErrorResponse", m);
  req(10, "resources/list", {});
  m = await s.next();
  check("JSONRPCErrorResponse", m);
  assert.equal(m.error.code, -32601);
  s.sendRaw("{not json");
  m = await s.next();
  check("JSONRPCErrorResponse", m);
  assert.equal(m.error.code, -32700);
  assert.ok(!("id" in m)); // MCP: no id when it cannot be read
}
