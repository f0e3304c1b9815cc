// SPDX-License-Identifier: MIT
// toolgov-mcp's standing grants (--grants FILE) driven by the official MCP
// TypeScript SDK client over stdio: the form field the question carries,
// an answer kept "always" that the next session finds in the sealed file,
// and the file refused for another user, another key or any altered byte.
//
//   TOOLGOV_MCP=path/to/toolgov-mcp TOOLGOV_SOURCE_DIR=. node --test test_mcp_grants.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = process.env.TOOLGOV_MCP;
if (!server) throw new Error("set TOOLGOV_MCP");

const dir = mkdtempSync(path.join(tmpdir(), "toolgov-grants-"));
const clients = [];
after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

const reminder = (title) => ({ title, date: "2026-12-02", time: "08:30" });

// A client of a server started with `args`; each question is answered with
// the next of `answers` ({action, content}), and its params are kept.
async function connect(args, answers) {
  const asked = [];
  const client = new Client({ name: "toolgov-grants-test", version: "1.0.0" },
                            { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params);
    return answers.shift() ?? { action: "cancel" };
  });
  const transport = new StdioClientTransport({ command: server, args, stderr: "inherit" });
  await client.connect(transport);
  clients.push(client);
  return { client, asked };
}

function text(result) {
  assert.equal(result.content.length, 1);
  return result.content[0].text;
}

// Start the server, send nothing, and return how it ended (a file it
// refuses stops it before the session starts).
function refused(args) {
  const r = spawnSync(server, args, { input: "", encoding: "utf8" });
  return { status: r.status, stderr: r.stderr };
}

const grants = path.join(dir, "grants");
const key = path.join(dir, "key");
const asAna = ["--grants", grants, "--state-key", key, "--grants-user", "ana"];

test("the question's form offers once / this session / always", async () => {
  const { client, asked } = await connect(asAna, [{ action: "cancel" }]);
  const r = await client.callTool({ name: "create_reminder", arguments: reminder("A") });
  assert.equal(r.isError, true);
  assert.equal(asked.length, 1);
  const field = asked[0].requestedSchema.properties.remember;
  assert.equal(field.type, "string");
  assert.deepEqual(field.oneOf.map((o) => o.const), ["once", "session", "always"]);
  assert.equal(field.default, "once");
  assert.match(asked[0].message, /for the rest of this session, or always/);
  await client.close();
  // The key was made, the owner's alone.
  assert.equal(statSync(key).mode & 0o777, 0o600);
  assert.equal(readFileSync(key).length, 32);
});

test("always: kept in the sealed file, and the next session does not ask", async () => {
  const first = await connect(asAna, [
    { action: "accept", content: { remember: "always" } },
    { action: "accept", content: { remember: "always" } },
  ]);
  const a = await first.client.callTool({ name: "create_reminder", arguments: reminder("A") });
  assert.equal(a.isError, false);
  const d = await first.client.callTool({ name: "empty_trash", arguments: {} });
  assert.equal(d.isError, false);
  assert.equal(first.asked.length, 2);
  await first.client.close();
  const kept = readFileSync(grants, "utf8");
  assert.match(kept, /^toolgov-grants 1\nbound 3:ana\nnext 3\n/);
  assert.match(kept, /\ngrant 1 allow \d+ 0 8:calendar 15:create_reminder - 3:ana\n/);
  assert.match(kept, /\ngrant 2 allow \d+ 0 15:email_workflows 11:empty_trash 2:\{\} 3:ana\n/);
  assert.match(kept, /\nmac [0-9a-f]{64}\n$/);
  assert.equal(statSync(grants).mode & 0o777, 0o600);

  const second = await connect(asAna, []);
  const b = await second.client.callTool({ name: "create_reminder", arguments: reminder("B") });
  assert.equal(b.isError, false);
  const e = await second.client.callTool({ name: "empty_trash", arguments: {} });
  assert.equal(e.isError, false);
  assert.equal(second.asked.length, 0);
  await second.client.close();
});

test("session: holds in the session, never written to the file", async () => {
  const file = path.join(dir, "grants-cy");
  const s = await connect(["--grants", file, "--state-key", key, "--grants-user", "cy"],
                          [{ action: "accept", content: { remember: "session" } }]);
  const a = await s.client.callTool({ name: "create_reminder", arguments: reminder("A") });
  assert.equal(a.isError, false);
  // A new run of the session: the grant answers, nothing is asked.
  const b = await s.client.callTool({ name: "create_reminder", arguments: reminder("B"),
                                      _meta: { "toolgov/new_run": true } });
  assert.equal(b.isError, false);
  assert.equal(s.asked.length, 1);
  await s.client.close();
  assert.throws(() => statSync(file), /ENOENT/);
});

test("the file of another user, under another key, or altered is refused whole", () => {
  const other = refused(["--grants", grants, "--state-key", key, "--grants-user", "bob"]);
  assert.equal(other.status, 2);
  assert.match(other.stderr, /refused: the grants are not sealed with this key for user 'bob'/);

  const key2 = path.join(dir, "key2");
  const k = refused(["--grants", grants, "--state-key", key2, "--grants-user", "ana"]);
  assert.equal(k.status, 2);
  assert.match(k.stderr, /refused/);

  const good = readFileSync(grants);
  const copy = path.join(dir, "altered");
  for (let i = 0; i < good.length; i += 7) {
    const bad = Buffer.from(good);
    bad[i] ^= 0x01;
    writeFileSync(copy, bad, { mode: 0o600 });
    const r = refused(["--grants", copy, "--state-key", key, "--grants-user", "ana"]);
    assert.equal(r.status, 2, `byte ${i}`);
    assert.match(r.stderr, /refused/, `byte ${i}`);
  }

  // A key file others may read is refused; --grants without a key is misuse.
  writeFileSync(path.join(dir, "open-key"), readFileSync(key), { mode: 0o644 });
  const open = refused(["--grants", grants, "--state-key", path.join(dir, "open-key")]);
  assert.equal(open.status, 2);
  assert.match(open.stderr, /chmod 600/);
  const nokey = spawnSync(server, ["--grants", grants], {
    input: "", encoding: "utf8", env: { ...process.env, TOOLGOV_STATE_KEY_FILE: "" } });
  assert.equal(nokey.status, 2);
  assert.match(nokey.stderr, /--state-key FILE/);
});
