// SPDX-License-Identifier: MIT
// MCP servers toolgov did not write, governed behind toolgov-mcp
// (--upstreams): the official reference servers from npm
// (@modelcontextprotocol/server-filesystem and -memory, pinned in
// tests/upstream/package-lock.json) behind it, the official SDK client in
// front of it, as an MCP host would drive it. Their tools are declared by
// the operator's manifests in tests/upstream/manifests/.
//
//   TOOLGOV_MCP=path/to/toolgov-mcp TOOLGOV_SOURCE_DIR=. node --test test_upstream.mjs
//
// CTest skips it (run_node.sh, TOOLGOV_NODE_NEEDS) when the servers are not
// installed (npm ci in tests/upstream, which .ci/run does).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const server = process.env.TOOLGOV_MCP;
const source = process.env.TOOLGOV_SOURCE_DIR;
if (!server || !source) throw new Error("set TOOLGOV_MCP and TOOLGOV_SOURCE_DIR");

const upstreamDir = path.join(source, "tests", "upstream");
const serverJs = (name) =>
  path.join(upstreamDir, "node_modules", "@modelcontextprotocol", "server-" + name, "dist", "index.js");
if (!fs.existsSync(serverJs("filesystem")) || !fs.existsSync(serverJs("memory")))
  throw new Error("the reference MCP servers are not installed: run 'npm ci' in tests/upstream");
const manifest = (name) => path.join(upstreamDir, "manifests", name + ".yaml");
const gen = process.env.TOOLGOV_GEN;

// What toolgov-gen validate says of a manifest file (when it is built).
function validates(file) {
  if (!gen) return;
  const v = spawnSync(gen, ["validate", file], { encoding: "utf8" });
  assert.equal(v.status, 0, file + ":\n" + v.stderr);
}

const clients = [];
const temps = [];
after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

// A fresh directory: root/ for the filesystem server, memory.jsonl for the
// memory server, and the upstreams file naming both.
function world(extra = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolgov-upstream-"));
  temps.push(dir);
  const root = path.join(dir, "root");
  fs.mkdirSync(root);
  const servers = {
    files: { command: process.execPath, args: [serverJs("filesystem"), root], manifest: manifest("files") },
    memory: {
      command: process.execPath, args: [serverJs("memory")],
      env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") }, manifest: manifest("memory"),
    },
    ...extra,
  };
  const config = path.join(dir, "upstreams.json");
  fs.writeFileSync(config, JSON.stringify({ mcpServers: servers }, null, 2));
  return { dir, root: fs.realpathSync(root), config };
}

// A connected client over the upstreams; `answers` are elicitation actions
// handed out in order. stderr is collected.
async function connect(w, answers) {
  return connectWith(w, [], answers);
}

async function connectWith(w, extraArgs, answers = []) {
  const asked = [];
  const client = new Client({ name: "toolgov-upstream-test", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    const action = answers.shift() ?? "cancel";
    return action === "accept" ? { action, content: {} } : { action };
  });
  const transport = new StdioClientTransport({
    command: server, args: ["--no-examples", ...extraArgs, "--upstreams", w.config], stderr: "pipe",
  });
  const err = { text: "" };
  transport.stderr.on("data", (b) => { err.text += b.toString(); });
  await client.connect(transport);
  clients.push(client);
  return { client, asked, err };
}

function text(result) {
  return result.content.map((c) => c.text).join("\n");
}

test("tools/list: the declared tools the servers offer, as reviewed; drift on stderr", async () => {
  const w = world();
  const { client, err } = await connect(w, []);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), [
    "list_allowed_directories", "list_directory", "read_text_file", "write_file", "create_directory",
    "edit_file", "move_file",
    "read_graph", "search_nodes", "create_entities", "add_observations", "delete_entities",
  ]);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  // The model sees the manifest's description, not the server's.
  assert.equal(byName.write_file.description, "Create a new file or overwrite an existing one with new content.");
  // The owner's review decides the effect, not the server's hints (it calls
  // write_file destructive).
  assert.deepEqual(byName.write_file.annotations, { readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  assert.deepEqual(byName.move_file.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: false });
  assert.deepEqual(byName.read_graph.annotations, { readOnlyHint: true });
  assert.deepEqual(byName.read_text_file.inputSchema.required, ["path"]);
  await client.close();
  assert.match(err.text, /upstream 'files': drift: tool 'read_media_file' is offered by the server but not declared in its manifest .*files\.yaml; it is not served/);
  assert.match(err.text, /upstream 'memory': drift: tool 'open_nodes' is offered by the server but not declared/);
  assert.match(err.text, /upstream 'memory': drift: tool 'purge_graph' is declared in .*memory\.yaml:\d+:3 but the server does not offer it; it is not served/);
});

test("filesystem: reads run, a path outside its roots is refused by the server and reported", async () => {
  const w = world();
  fs.writeFileSync(path.join(w.root, "notes.txt"), "one\ntwo\nthree\n");
  const { client, asked } = await connect(w, []);
  const r = await client.callTool({ name: "read_text_file", arguments: { path: path.join(w.root, "notes.txt"), head: 2 } });
  assert.equal(r.isError, false);
  assert.equal(text(r), "one\ntwo");
  const ls = await client.callTool({ name: "list_directory", arguments: { path: w.root } });
  assert.match(text(ls), /\[FILE\] notes\.txt/);
  const out = await client.callTool({ name: "read_text_file", arguments: { path: "/etc/hostname" } });
  assert.equal(out.isError, true);
  assert.match(text(out), /Access denied - path outside allowed directories/);
  assert.equal(asked.length, 0);
  await client.close();
});

test("filesystem: writes ask once for the session; a move waits for its own approval", async () => {
  const w = world();
  const { client, asked } = await connect(w, ["accept", "decline", "accept"]);
  const a = await client.callTool({ name: "write_file", arguments: { path: path.join(w.root, "a.txt"), content: "A" } });
  assert.equal(a.isError, false, text(a));
  const b = await client.callTool({ name: "create_directory", arguments: { path: path.join(w.root, "sub") } });
  assert.equal(b.isError, false, text(b));
  assert.equal(asked.length, 1);
  assert.match(asked[0], /files\.write_file \{"path":"[^"]*a\.txt","content":"A"\}/);
  assert.equal(fs.readFileSync(path.join(w.root, "a.txt"), "utf8"), "A");
  assert.ok(fs.statSync(path.join(w.root, "sub")).isDirectory());

  const move = { source: path.join(w.root, "a.txt"), destination: path.join(w.root, "sub", "b.txt") };
  const no = await client.callTool({ name: "move_file", arguments: move });
  assert.equal(no.isError, true);
  assert.match(text(no), /did not approve/);
  assert.ok(fs.existsSync(move.source), "a declined move must not run");
  const yes = await client.callTool({ name: "move_file", arguments: move });
  assert.equal(yes.isError, false, text(yes));
  assert.equal(asked.length, 3);
  assert.match(asked[2], /Approve this destructive call\?[^]*files\.move_file \{"source":"[^"]*a\.txt","destination":"[^"]*b\.txt"\}/);
  assert.ok(!fs.existsSync(move.source));
  assert.equal(fs.readFileSync(move.destination, "utf8"), "A");
  await client.close();
});

test("memory: creating entities asks; deleting them needs approval each time", async () => {
  const w = world();
  const { client, asked } = await connect(w, ["accept", "decline", "accept"]);
  const ent = { entities: [{ name: "Ana", entityType: "person", observations: ["likes tea"] }] };
  const c = await client.callTool({ name: "create_entities", arguments: ent });
  assert.equal(c.isError, false, text(c));
  assert.equal(asked.length, 1);
  // Canonical arguments reach the server: its own file holds the entity.
  assert.match(fs.readFileSync(path.join(w.dir, "memory.jsonl"), "utf8"), /"name":"Ana"/);
  const g = await client.callTool({ name: "read_graph", arguments: {} });
  assert.match(text(g), /likes tea/);

  const del = { entityNames: ["Ana"] };
  const no = await client.callTool({ name: "delete_entities", arguments: del });
  assert.equal(no.isError, true);
  assert.match(text(await client.callTool({ name: "read_graph", arguments: {} })), /"Ana"/);
  const yes = await client.callTool({ name: "delete_entities", arguments: del });
  assert.equal(yes.isError, false, text(yes));
  assert.equal(asked.length, 3);
  assert.match(asked[1], /memory\.delete_entities \{"entityNames":\["Ana"\]\}/);
  assert.doesNotMatch(text(await client.callTool({ name: "read_graph", arguments: {} })), /"Ana"/);
  await client.close();
});

test("undeclared, gone and badly called tools never reach the server", async () => {
  const w = world();
  const { client, asked } = await connect(w, ["accept"]);
  // Offered by the server, not declared: not a tool of this server at all.
  await assert.rejects(client.callTool({ name: "read_multiple_files", arguments: { paths: ["/etc/hostname"] } }),
    (e) => e instanceof McpError && e.code === -32602 && /unknown tool 'read_multiple_files'/.test(e.message));
  await assert.rejects(client.callTool({ name: "delete_relations", arguments: { relations: [] } }),
    (e) => e instanceof McpError && e.code === -32602);
  // Declared, not offered: refused before any question.
  const gone = await client.callTool({ name: "purge_graph", arguments: {} });
  assert.equal(gone.isError, true);
  assert.match(text(gone), /purge_graph is not available: it is declared for the MCP server 'memory', which does not offer it/);
  // Arguments the declared parameters refuse: the decoder's message, no question.
  const bad = await client.callTool({ name: "create_entities", arguments: { entities: [{ name: "", entityType: "x" }] } });
  assert.equal(bad.isError, true);
  assert.match(text(bad), /create_entities: .*\/entities\/0/);
  assert.equal(asked.length, 0);
  assert.ok(!fs.existsSync(path.join(w.dir, "memory.jsonl")), "nothing may reach the memory server");
  await client.close();
});

test("a server that does not start leaves its tools unavailable; the others serve on", async () => {
  const w = world({ broken: { command: path.join(os.tmpdir(), "no-such-mcp-server"), manifest: manifest("memory") } });
  // Both entries would use the manifest name memory: refused before start.
  const r = spawnSync(server, ["--no-examples", "--upstreams", w.config], { input: "", encoding: "utf8" });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /servers 'memory' and 'broken' both use manifest name 'memory'/);

  const w2 = world();
  const cfg = JSON.parse(fs.readFileSync(w2.config, "utf8"));
  cfg.mcpServers.memory.command = path.join(w2.dir, "no-such-mcp-server");
  fs.writeFileSync(w2.config, JSON.stringify(cfg));
  const { client, err } = await connect(w2, []);
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === "read_text_file"));
  assert.ok(!tools.some((t) => t.name === "read_graph"));
  const g = await client.callTool({ name: "read_graph", arguments: {} });
  assert.equal(g.isError, true);
  assert.match(text(g), /the MCP server 'memory' is not serving \(it did not start: cannot run '[^']*no-such-mcp-server': No such file or directory\)/);
  await client.close();
  assert.match(err.text, /upstream 'memory': not serving: it did not start: cannot run/);
});

test("a bad upstreams file is refused at its place, and nothing starts", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolgov-upstream-"));
  temps.push(dir);
  const file = path.join(dir, "upstreams.json");
  const cases = [
    ['{"mcpServers": {"x": {"command": "true", "manifest": "m.yaml", "enviroment": {}}}}',
      /upstreams\.json:1:64: error: unknown key 'enviroment' in server 'x'/],
    ['{"mcpServers": {"x": {"command": "true"}}}', /upstreams\.json:1:22: error: server 'x' needs "manifest"/],
    ['{"mcpServers": {"x": {"url": "http://127.0.0.1:1/mcp", "args": [], "manifest": "m.yaml"}}}',
      /upstreams\.json:1:\d+: error: server 'x' is reached by "url" \(Streamable HTTP\): "args" is for a server started with "command"/],
    ['{"mcpServers": {"x": {"command": "true", "manifest": "m.yaml"}},}', /upstreams\.json:1:\d+: error: the upstreams file is not valid JSON/],
    ['{"servers": {}}', /error: the upstreams file must be an object with "mcpServers"/],
    ['{"mcpServers": {"x": {"command": "true", "manifest": "missing.yaml"}}}', /missing\.yaml.*(cannot|No such)/],
  ];
  for (const [body, want] of cases) {
    fs.writeFileSync(file, body);
    const r = spawnSync(server, ["--no-examples", "--upstreams", file], { input: "", encoding: "utf8" });
    assert.equal(r.status, 2, body);
    assert.match(r.stderr, want, body);
    assert.equal(r.stdout, "");
  }
});

test("import writes a manifest to review that serves as written; pins hold", () => {
  const w = world();
  const cfg = JSON.parse(fs.readFileSync(w.config, "utf8"));
  delete cfg.mcpServers.memory.manifest;
  fs.writeFileSync(w.config, JSON.stringify(cfg));
  const r = spawnSync(server, ["--import", "memory", "--upstreams", w.config], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const y = r.stdout;
  assert.match(y, /^name: memory\nprovides:\n {2}- tool\ntools:\n/m);
  // Effects suggested from the annotations, marked for review.
  assert.match(y, / {2}delete_entities:\n {4}# SUGGESTED from the server's annotations \(destructiveHint: true\):\n[^\n]*\n {4}effect: destructive\n/);
  assert.match(y, / {2}create_entities:\n[^]*?effect: write\n/);
  assert.match(y, / {2}read_graph:\n[^]*?effect: read\n/);
  // The server's description, its inputSchema as parameters, and a pin.
  assert.match(y, /description: "Create multiple new entities in the knowledge graph"\n {4}parameters: \{"\$schema": "http:\/\/json-schema.org\/draft-07\/schema#", "type": "object", "properties": \{"entities": /);
  assert.equal((y.match(/\n {4}pin: sha256:[0-9a-f]{64};a=[0-9a-f]{12};d=[0-9a-f]{12};i=[0-9a-f]{12};o=[0-9a-f]{12}\n/g) ?? []).length, 9);
  // Served as imported: no drift, no unpinned tool.
  fs.writeFileSync(path.join(w.dir, "memory.yaml"), y);
  validates(path.join(w.dir, "memory.yaml"));
  cfg.mcpServers.memory.manifest = "memory.yaml";
  fs.writeFileSync(w.config, JSON.stringify(cfg));
  const s = spawnSync(server, ["--no-examples", "--upstreams", w.config], {
    encoding: "utf8",
    input: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}\n' +
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_graph","arguments":{}}}\n',
  });
  assert.equal(s.status, 0, s.stderr);
  assert.doesNotMatch(s.stderr, /upstream 'memory'/);
  assert.match(s.stdout, /"id":2,"result":\{"content":\[\{"type":"text","text":"\{\\n  \\"entities\\": \[\]/);
});

test("import: names that are not tool names keep the server's as upstream_name", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolgov-upstream-"));
  temps.push(dir);
  const config = path.join(dir, "upstreams.json");
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { everything: {
    command: process.execPath, args: [serverJs("everything"), "stdio"] } } }));
  const r = spawnSync(server, ["--import", "everything", "--upstreams", config], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, / {2}get_sum:\n[^]*?upstream_name: "get-sum"\n/);
  fs.writeFileSync(path.join(dir, "everything.yaml"), r.stdout);
  validates(path.join(dir, "everything.yaml"));
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { everything: {
    command: process.execPath, args: [serverJs("everything"), "stdio"], manifest: "everything.yaml" } } }));
  const s = spawnSync(server, ["--no-examples", "--upstreams", config], {
    encoding: "utf8",
    input: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}\n' +
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_sum","arguments":{"a":2,"b":3}}}\n',
  });
  assert.match(s.stdout, /"id":2,"result":\{"content":\[\{"type":"text","text":"The sum of 2 and 3 is 5\."\}\],"isError":false\}/);
});

test("a rug pull: a description changed after review is refused with its row; a tool appearing later is never offered", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolgov-upstream-"));
  temps.push(dir);
  const config = path.join(dir, "upstreams.json");
  const entry = { command: process.execPath, args: [path.join(path.dirname(new URL(import.meta.url).pathname), "rugpull_server.mjs")] };
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: entry } }));
  const r = spawnSync(server, ["--import", "dict", "--upstreams", config], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  fs.writeFileSync(path.join(dir, "dict.yaml"), r.stdout);
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: { ...entry, manifest: "dict.yaml" } } }));
  const audit = path.join(dir, "audit.jsonl");
  const { client, err } = await connectWith({ config }, ["--audit", audit]);
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed++; });
  assert.equal(client.getServerCapabilities().tools.listChanged, true);
  assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["lookup", "flip"]);
  assert.equal(text(await client.callTool({ name: "lookup", arguments: { word: "tea" } })), "tea: a word");
  assert.equal(changed, 0);
  assert.equal(text(await client.callTool({ name: "flip", arguments: {} })), "flipped");
  // The server's own list_changed is read within a second of quiet input,
  // and the client is told the governed list changed.
  for (let i = 0; i < 40 && changed === 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(changed, 1);
  const pulled = await client.callTool({ name: "lookup", arguments: { word: "tea" } });
  assert.equal(pulled.isError, true);
  assert.match(text(pulled), /lookup is refused: the MCP server 'dict' changed its definition since it was reviewed/);
  const after = (await client.listTools()).tools.map((t) => t.name);
  assert.deepEqual(after, ["flip"]);
  await assert.rejects(client.callTool({ name: "exfiltrate", arguments: { path: "/etc/passwd" } }),
    (e) => e instanceof McpError && e.code === -32602);
  await client.close();
  assert.match(err.text, /upstream 'dict': drift: tool 'lookup' changed its description since toolgov-mcp started; it does not match its pin and is refused until the manifest is reviewed again/);
  assert.match(err.text, /upstream 'dict': drift: tool 'exfiltrate' is offered by the server but not declared in its manifest/);
  // Each row is an audit event too, beside the runs' events.
  const rows = fs.readFileSync(audit, "utf8").trim().split("\n").map((l) => JSON.parse(l))
    .filter((e) => e.event === "upstream_drift");
  assert.deepEqual(rows.map((e) => [e.server, e.tool, e.drift, e.changed]), [
    ["dict", "lookup", "pin_mismatch", "description"],
    ["dict", "exfiltrate", "undeclared", ""],
  ]);
  assert.match(rows[0].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
});

test("drift at start names the part that changed; --drift reports it and exits 1", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolgov-upstream-"));
  temps.push(dir);
  const config = path.join(dir, "upstreams.json");
  const script = path.join(path.dirname(new URL(import.meta.url).pathname), "rugpull_server.mjs");
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: { command: process.execPath, args: [script] } } }));
  const r = spawnSync(server, ["--import", "dict", "--upstreams", config], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  fs.writeFileSync(path.join(dir, "dict.yaml"), r.stdout);
  // As reviewed: no drift.
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: { command: process.execPath, args: [script], manifest: "dict.yaml" } } }));
  const clean = spawnSync(server, ["--drift", "--upstreams", config], { encoding: "utf8" });
  assert.equal(clean.status, 0, clean.stderr);
  assert.equal(clean.stdout, "# server\ttool\tdrift\tchanged\tmessage\n");
  // The server was changed before this start: the pin's part digests say which part.
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: { command: process.execPath, args: [script, "pulled"], manifest: "dict.yaml" } } }));
  const d = spawnSync(server, ["--drift", "--upstreams", config], { encoding: "utf8" });
  assert.equal(d.status, 1, d.stderr);
  const lines = d.stdout.trim().split("\n").slice(1).map((l) => l.split("\t"));
  assert.deepEqual(lines.map((l) => l.slice(0, 4)), [
    ["dict", "lookup", "pin_mismatch", "description, inputSchema"],
    ["dict", "exfiltrate", "undeclared", "-"],
  ]);
  assert.match(d.stderr, /upstream 'dict': drift: tool 'lookup' does not match its pin in .*dict\.yaml:\d+:\d+: its description, inputSchema changed since it was reviewed/);
  // A pin of the whole definition only (as written before part digests):
  // refused all the same, saying the part cannot be named.
  fs.writeFileSync(path.join(dir, "dict.yaml"), r.stdout.replace(/(pin: sha256:[0-9a-f]{64});[^\n]*/g, "$1"));
  const old = spawnSync(server, ["--drift", "--upstreams", config], { encoding: "utf8" });
  assert.equal(old.status, 1, old.stderr);
  assert.match(old.stdout, /dict\tlookup\tpin_mismatch\t-\t.*the pin holds no part digests/);
});

// toolgov-mcp in front of hostile_server.mjs in `mode` (and an unrelated
// memory server beside it, which must keep serving).
function hostile(mode, extra = {}) {
  const w = world({
    bad: { command: process.execPath, args: [path.join(path.dirname(new URL(import.meta.url).pathname), "hostile_server.mjs"), mode, ...(extra.args ?? [])],
      manifest: "bad.yaml", ...(extra.entry ?? {}) },
  });
  const cfg = JSON.parse(fs.readFileSync(w.config, "utf8"));
  delete cfg.mcpServers.files;
  fs.writeFileSync(w.config, JSON.stringify(cfg));
  fs.writeFileSync(path.join(w.dir, "bad.yaml"),
    "name: bad\nprovides: [tool]\ntools:\n  act:\n    effect: read\n    description: Act.\n");
  return w;
}

test("failures of a server fail its calls closed, and nothing else", async (t) => {
  for (const [mode, entry, want] of [
    ["hang", { timeout: 700 }, /act failed: the server did not answer within 700 ms \(MCP server 'bad'\); whether it changed anything is not known/],
    ["flood", { timeout: 700 }, /act failed: the server did not answer within 700 ms \(MCP server 'bad'\)/],
    ["crash", {}, /act failed: the server exited with status 3 \(MCP server 'bad'\)/],
    ["garbage", {}, /act failed: the server sent a message that is not JSON/],
    ["huge", {}, /act failed: the server sent a message over 65536 bytes/],
  ]) {
    await t.test(mode, async () => {
      const w = hostile(mode, { entry });
      const transportArgs = mode === "huge" ? ["--max-message", "65536"] : [];
      const { client, err } = await connectWith(w, transportArgs);
      const r = await client.callTool({ name: "act", arguments: {} });
      assert.equal(r.isError, true);
      assert.match(text(r), want);
      // The other server is untouched.
      const g = await client.callTool({ name: "read_graph", arguments: {} });
      assert.equal(g.isError, false, text(g));
      if (mode !== "hang" && mode !== "flood") {
        const again = await client.callTool({ name: "act", arguments: {} });
        assert.match(text(again), /act is not available: the MCP server 'bad' is not serving \(.*\); a restart is tried in 1 s/);
        assert.match(err.text, /upstream 'bad': not serving: .*; its tools are unavailable, a restart is tried in 1 s/);
      }
      await client.close();
    });
  }
});

test("a server that crashed is started again after its backoff", async () => {
  const w = hostile("crash", { args: [path.join(os.tmpdir(), "toolgov-hostile-" + process.pid + "-" + Date.now())] });
  temps.push(JSON.parse(fs.readFileSync(w.config, "utf8")).mcpServers.bad.args[2]);
  const { client, err } = await connect(w, []);
  assert.match(text(await client.callTool({ name: "act", arguments: {} })), /exited with status 3/);
  await new Promise((r) => setTimeout(r, 1100));
  const r = await client.callTool({ name: "act", arguments: {} });
  assert.equal(r.isError, false, text(r));
  assert.equal(text(r), "acted (start 2)");
  await client.close();
  assert.match(err.text, /upstream 'bad': starting it again/);
});

test("progress: only the call's own token is relayed, under the client's token, and only when asked", async () => {
  const w = hostile("progress");
  const { client } = await connect(w, []);
  const seen = [];
  const r = await client.callTool({ name: "act", arguments: {} }, undefined, { onprogress: (p) => seen.push(p) });
  assert.match(text(r), /^acted with token \d+$/);
  assert.deepEqual(seen, [{ progress: 1, total: 2, message: "half \u001b[31mway" }, { progress: 2, total: 2 }]);
  // A call that asks for none: the server gets no token, nothing comes.
  const raw = [];
  client.fallbackNotificationHandler = async (n) => { raw.push(n); };
  const q = await client.callTool({ name: "act", arguments: {} });
  assert.equal(text(q), "acted with token undefined");
  assert.deepEqual(raw.filter((n) => n.method === "notifications/progress"), []);
  await client.close();
});

test("a server's own sampling and elicitation requests are refused, never passed on", async () => {
  const w = hostile("sample");
  const { client, asked } = await connect(w, ["accept"]);
  const r = await client.callTool({ name: "act", arguments: {} });
  assert.equal(text(r), "refused with -32601 and -32601");
  assert.equal(asked.length, 0);
  await client.close();
});

// --drift and --import in front of hostile_server.mjs whose tools/list is
// `mode`: [status, stdout, stderr] of each.
function hostileList(mode) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolgov-upstream-"));
  temps.push(dir);
  const entry = { command: process.execPath, args: [path.join(path.dirname(new URL(import.meta.url).pathname), "hostile_server.mjs"), mode] };
  fs.writeFileSync(path.join(dir, "bad.yaml"),
    "name: bad\nprovides: [tool]\ntools:\n  act:\n    effect: read\n    description: Act.\n");
  fs.writeFileSync(path.join(dir, "u.json"), JSON.stringify({ mcpServers: { bad: { ...entry, manifest: "bad.yaml" } } }));
  fs.writeFileSync(path.join(dir, "i.json"), JSON.stringify({ mcpServers: { bad: entry } }));
  const d = spawnSync(server, ["--drift", "--no-examples", "--upstreams", path.join(dir, "u.json")], { encoding: "utf8" });
  const i = spawnSync(server, ["--import", "bad", "--upstreams", path.join(dir, "i.json")], { encoding: "utf8" });
  for (const r of [d, i]) assert.equal(r.signal, null, mode + ": " + r.stderr.slice(-2000));
  if (i.status === 0) {
    fs.writeFileSync(path.join(dir, "imported.yaml"), i.stdout);
    validates(path.join(dir, "imported.yaml"));
  }
  const rows = d.stdout.trim().split("\n").slice(1).map((l) => l.split("\t"));
  return { d, i, rows };
}

test("hostile tool lists: each gets a clear row or error, bounded, and an import that reads", async (t) => {
  await t.test("5,000 tools: 32 rows, one that counts the rest, the server refused", () => {
    const { d, i, rows } = hostileList("many");
    assert.equal(d.status, 1);
    assert.equal(rows.filter((r) => r[2] === "undeclared").length, 32);
    assert.match(d.stdout, /\tmore\t-\t4064 more drift rows of this tools\/list not shown \(over 32\)/);
    assert.match(d.stdout, /\tunavailable\t-\tit offers more than 4096 tools\n/);
    assert.ok(d.stderr.split("\n").length < 40, "stderr is bounded");
    assert.equal(i.status, 1);
    assert.match(i.stderr, /--import bad: more than 4096 tools/);
    assert.equal(i.stdout, "");
  });
  await t.test("pages: all are read; a cursor that never ends is refused", () => {
    const paged = hostileList("paged");
    assert.deepEqual(paged.rows.map((r) => [r[1], r[2]]), [["one", "undeclared"], ["two", "undeclared"]]);
    assert.match(paged.i.stdout, /\n {2}one:\n[^]*\n {2}two:\n[^]*\n {2}act:\n/);
    const endless = hostileList("endless");
    assert.match(endless.d.stdout, /\tunavailable\t-\tits tools\/list has more than 256 pages\n/);
    assert.equal(endless.i.status, 1);
    assert.match(endless.i.stderr, /more than 256 pages of tools/);
  });
  await t.test("a name offered twice: the first is judged, the second left out of the import", () => {
    const { d, i, rows } = hostileList("dupes");
    assert.deepEqual(rows.map((r) => r.slice(0, 3)), [["bad", "act", "duplicate"]]);
    assert.equal(d.status, 1);
    assert.match(i.stdout, /# LEFT OUT: the server's tool 'act': it is offered twice; the first is imported\./);
    assert.match(i.stdout, /description: "Act\."\n/);
    assert.doesNotMatch(i.stdout, /act_2/);
  });
  await t.test("control characters and overlong names: escaped in rows, left out of the import", () => {
    const { i, rows } = hostileList("names");
    assert.deepEqual(rows[0].slice(1, 3), ["evil\\x0aname\\x07\\x27", "undeclared"]);
    assert.equal(rows[1][1], "x".repeat(120) + "...");
    assert.match(i.stderr, /tool 'evil\\x0aname\\x07\\x27': its name holds a blank or a control character, so no manifest can name it; left out/);
    assert.match(i.stderr, /its name is not 1 to 128 bytes/);
    assert.equal(i.status, 0);
    assert.doesNotMatch(i.stdout, /upstream_name/);
  });
  await t.test("names that collide once governed: the second renamed, said so", () => {
    const { i } = hostileList("collide");
    assert.match(i.stderr, /tools 'get-sum' and 'get_sum' make the same name here; the second is get_sum_2/);
    assert.match(i.stdout, / {2}get_sum:\n[^]*?upstream_name: "get-sum"\n/);
    assert.match(i.stdout, / {2}# RENAMED: the server's 'get_sum' is get_sum_2 here[^]*\n {2}get_sum_2:\n[^]*?upstream_name: "get_sum"\n/);
  });
  await t.test("a byte that is not UTF-8: the list is refused, saying where", () => {
    const { d, i } = hostileList("nonutf8");
    assert.match(d.stdout, /\tunavailable\t-\ttools\/list failed: the server sent a message that is not JSON \(invalid UTF-8 in a string at byte \d+\)\n/);
    assert.equal(i.status, 1);
    assert.match(i.stderr, /invalid UTF-8/);
  });
  await t.test("no inputSchema: commented out, saying so; the manifest still reads", () => {
    const { i } = hostileList("noschema");
    assert.equal(i.status, 0);
    assert.match(i.stderr, /tool 'act': it gives no inputSchema; written commented out/);
    assert.match(i.stdout, /\ntools: \{\}\n {2}# NOT IMPORTED: 'act' gives no inputSchema/);
  });
  await t.test("schemas nested too deep, and a bomb of 100,000 brackets: refused, bounded", () => {
    for (const mode of ["deep", "bomb"]) {
      const { d, i } = hostileList(mode);
      assert.match(d.stdout, /\tunavailable\t-\ttools\/list failed: the server sent a message that is not JSON \(nested deeper than the limit at byte \d+\)\n/, mode);
      assert.equal(i.status, 1, mode);
    }
  });
});

test("everything server: a long call completes within its timeout, one past it fails closed and the server serves on", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolgov-upstream-"));
  temps.push(dir);
  const config = path.join(dir, "upstreams.json");
  const entry = { command: process.execPath, args: [serverJs("everything"), "stdio"] };
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { everything: entry } }));
  const r = spawnSync(server, ["--import", "everything", "--upstreams", config], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  fs.writeFileSync(path.join(dir, "everything.yaml"), r.stdout);
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { everything: { ...entry, manifest: "everything.yaml", timeout: 2500 } } }));
  const { client, err } = await connect({ config }, []);
  const names = (await client.listTools()).tools.map((t) => t.name);
  assert.ok(names.includes("trigger_long_running_operation"), names.join(" "));
  // The client asks for progress: the server's is relayed under the
  // client's token; the call runs its 1.2 s to the end.
  const progress = [];
  const ok = await client.callTool({ name: "trigger_long_running_operation", arguments: { duration: 1.2, steps: 3 } },
    undefined, { onprogress: (p) => progress.push(p) });
  // (The last step's may be dropped by the SDK client: it comes right
  // before the response, test_upstream_http.mjs says why.)
  assert.deepEqual(progress, [{ progress: 1, total: 3 }, { progress: 2, total: 3 }, { progress: 3, total: 3 }]
    .slice(0, Math.max(2, progress.length)));
  assert.equal(ok.isError, false, text(ok));
  assert.equal(text(ok), "Long running operation completed. Duration: 1.2 seconds, Steps: 3.");
  // Past the entry's timeout: failed closed, the server's state unknown.
  const late = await client.callTool({ name: "trigger_long_running_operation", arguments: { duration: 6, steps: 2 } });
  assert.equal(late.isError, true);
  assert.match(text(late), /trigger_long_running_operation failed: the server did not answer within 2500 ms \(MCP server 'everything'\); whether it changed anything is not known/);
  // Its other tools answer again once it is back.
  let sum;
  for (let i = 0; i < 30; i++) {
    sum = await client.callTool({ name: "get_sum", arguments: { a: 2, b: 3 } });
    if (!sum.isError) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  assert.equal(text(sum), "The sum of 2 and 3 is 5.");
  await client.close();
  assert.doesNotMatch(err.text, /drift/);
});
