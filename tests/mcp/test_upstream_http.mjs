// SPDX-License-Identifier: MIT
// Upstream MCP servers reached over Streamable HTTP ("url" entries of
// toolgov-mcp --upstreams): the official reference server
// @modelcontextprotocol/server-everything in its streamableHttp mode (pinned
// in tests/upstream/package-lock.json, bound to 127.0.0.1 by loopback.mjs),
// the rug pull server on the SDK's StreamableHTTPServerTransport, a server
// that is gone and one that answers garbage; the official SDK client drives
// toolgov-mcp in front of them over stdio.
//
//   TOOLGOV_MCP=path/to/toolgov-mcp TOOLGOV_SOURCE_DIR=. node --test test_upstream_http.mjs
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const server = process.env.TOOLGOV_MCP;
const source = process.env.TOOLGOV_SOURCE_DIR;
if (!server || !source) throw new Error("set TOOLGOV_MCP and TOOLGOV_SOURCE_DIR");
const gen = process.env.TOOLGOV_GEN;
const here = path.dirname(new URL(import.meta.url).pathname);
const everythingJs = path.join(source, "tests", "upstream", "node_modules", "@modelcontextprotocol",
  "server-everything", "dist", "index.js");

const children = [];
const clients = [];
const temps = [];
const webs = [];
after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const c of children) c.kill();
  for (const w of webs) w.close();
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolgov-upstream-http-"));
  temps.push(dir);
  return dir;
}

// Start a server process; resolve with its port once `pattern` (with the
// port as its group) shows on the stream named. Its output is kept in .log.
function startServer(args, env, streamName, pattern) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  child.log = { stdout: "", stderr: "" };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not start: " + child.log.stderr)), 15000);
    for (const name of ["stdout", "stderr"]) {
      child[name].on("data", (b) => {
        child.log[name] += b.toString();
        const m = name === streamName && child.log[name].match(pattern);
        if (m && !child.port) {
          child.port = Number(m[1]);
          clearTimeout(timer);
          resolve(child);
        }
      });
    }
    child.on("exit", (code) => reject(new Error("the server exited with " + code + ": " + child.log.stderr)));
  });
}

function importManifest(config, name) {
  return spawnSync(server, ["--import", name, "--upstreams", config], { encoding: "utf8", timeout: 30000 });
}

function validates(file) {
  if (!gen) return;
  const v = spawnSync(gen, ["validate", file], { encoding: "utf8" });
  assert.equal(v.status, 0, file + ":\n" + v.stderr);
}

async function connect(config, extraArgs = []) {
  const client = new Client({ name: "toolgov-upstream-http-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: server, args: ["--no-examples", ...extraArgs, "--upstreams", config], stderr: "pipe",
  });
  const err = { text: "" };
  transport.stderr.on("data", (b) => { err.text += b.toString(); });
  await client.connect(transport);
  clients.push(client);
  return { client, err };
}

function text(result) {
  return result.content.map((c) => c.text).join("\n");
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test("everything server over Streamable HTTP: import by url, calls forwarded, timeouts fail closed, the session ended with DELETE", async () => {
  if (!fs.existsSync(everythingJs)) throw new Error("server-everything is not installed: run 'npm ci' in tests/upstream");
  const ev = await startServer(["--import", path.join(here, "loopback.mjs"), everythingJs, "streamableHttp"],
    { PORT: "0" }, "stderr", /toolgov-test: listening on 127\.0\.0\.1:(\d+)/);
  const dir = tempDir();
  const config = path.join(dir, "upstreams.json");
  const entry = { type: "http", url: `http://127.0.0.1:${ev.port}/mcp`, headers: { "X-Toolgov-Test": "1" } };
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { everything: entry } }));
  const r = importManifest(config, "everything");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^  get_sum:$/m);
  fs.writeFileSync(path.join(dir, "everything.yaml"), r.stdout);
  validates(path.join(dir, "everything.yaml"));
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { everything: { ...entry, manifest: "everything.yaml", timeout: 2500 } } }));
  const { client, err } = await connect(config);
  const names = (await client.listTools()).tools.map((t) => t.name);
  assert.ok(names.includes("get_sum") && names.includes("trigger_long_running_operation"), names.join(" "));
  assert.equal(text(await client.callTool({ name: "get_sum", arguments: { a: 2, b: 3 } })), "The sum of 2 and 3 is 5.");
  // Its answer comes as an SSE stream carrying the server's progress first,
  // relayed under the client's own token when the client asked for it.
  const progress = [];
  const ok = await client.callTool({ name: "trigger_long_running_operation", arguments: { duration: 1, steps: 2 } },
    undefined, { onprogress: (p) => progress.push(p) });
  assert.equal(text(ok), "Long running operation completed. Duration: 1 seconds, Steps: 2.");
  // The last step's progress comes right before the response, and the SDK
  // client handles a notification a tick after a response read with it
  // (then drops it, its request ended): the first step's always arrives.
  assert.deepEqual(progress, [{ progress: 1, total: 2 }, { progress: 2, total: 2 }].slice(0, Math.max(1, progress.length)));
  // Without a token, none.
  const quiet = await client.callTool({ name: "trigger_long_running_operation", arguments: { duration: 0.2, steps: 2 } });
  assert.equal(quiet.isError, false);
  const late = await client.callTool({ name: "trigger_long_running_operation", arguments: { duration: 5, steps: 2 } });
  assert.equal(late.isError, true);
  assert.match(text(late), /trigger_long_running_operation failed: the server did not answer within 2500 ms \(MCP server 'everything'\); whether it changed anything is not known/);
  // The session serves on.
  assert.equal(text(await client.callTool({ name: "get_sum", arguments: { a: 1, b: 1 } })), "The sum of 1 and 1 is 2.");
  await client.close();
  assert.doesNotMatch(err.text, /drift|not serving/);
  for (let i = 0; i < 20 && !/Received session termination request/.test(ev.log.stdout); i++) await sleep(100);
  // Two sessions (the import's and the run's), each ended with DELETE; the
  // server's own stream was opened with GET.
  assert.equal(ev.log.stdout.match(/Received session termination request/g)?.length, 2, ev.log.stdout);
  assert.match(ev.log.stdout, /Establishing new SSE stream for session/);
});

test("a rug pull over Streamable HTTP: list_changed on the server's stream, the tool refused with its row", async () => {
  const rp = await startServer([path.join(here, "rugpull_server.mjs"), "--http"], {}, "stdout",
    /listening on 127\.0\.0\.1:(\d+)/);
  const dir = tempDir();
  const config = path.join(dir, "upstreams.json");
  const url = `http://127.0.0.1:${rp.port}/mcp`;
  // Without its credentials: refused, and the entry's headers named.
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: { url } } }));
  const denied = importManifest(config, "dict");
  assert.equal(denied.status, 1);
  assert.match(denied.stderr, /initialize failed: the server answered HTTP 401 \(an entry's "headers" carry credentials, such as Authorization\): "missing or wrong bearer token"/);
  const entry = { url, headers: { Authorization: "Bearer rugpull-token" } };
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: entry } }));
  const r = importManifest(config, "dict");
  assert.equal(r.status, 0, r.stderr);
  fs.writeFileSync(path.join(dir, "dict.yaml"), r.stdout);
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: { ...entry, manifest: "dict.yaml" } } }));
  const { client, err } = await connect(config);
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed++; });
  assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["lookup", "flip"]);
  assert.equal(text(await client.callTool({ name: "lookup", arguments: { word: "tea" } })), "tea: a word");
  assert.equal(text(await client.callTool({ name: "flip", arguments: {} })), "flipped");
  for (let i = 0; i < 40 && changed === 0; i++) await sleep(100);
  assert.equal(changed, 1);
  const pulled = await client.callTool({ name: "lookup", arguments: { word: "tea" } });
  assert.equal(pulled.isError, true);
  assert.match(text(pulled), /lookup is refused: the MCP server 'dict' changed its definition since it was reviewed/);
  assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["flip"]);
  await assert.rejects(client.callTool({ name: "exfiltrate", arguments: { path: "/etc/passwd" } }),
    (e) => e instanceof McpError && e.code === -32602);
  await client.close();
  assert.match(err.text, /upstream 'dict': drift: tool 'lookup' changed its description since toolgov-mcp started; it does not match its pin/);
  assert.match(err.text, /upstream 'dict': drift: tool 'exfiltrate' is offered by the server but not declared in its manifest/);
  // The wire: initialize without a session, every later request with the
  // session and the negotiated version, the GET stream, DELETE at the end.
  for (let i = 0; i < 20 && !/^DELETE /m.test(rp.log.stderr); i++) await sleep(100);
  const lines = rp.log.stderr.trim().split("\n").map((l) => l.split(" "));
  const run = lines.slice(lines.findLastIndex((l) => l[0] === "POST" && l[1] === "-"));
  assert.ok(run.slice(1).every((l) => /^[0-9a-f-]{36}$/.test(l[1]) && l[2] === "2025-11-25"), rp.log.stderr);
  assert.ok(run.some((l) => l[0] === "GET"), rp.log.stderr);
  assert.equal(run.at(-1)[0], "DELETE", rp.log.stderr);
});

test("downstream over Streamable HTTP: every session hears list_changed on its GET stream", async () => {
  const dir = tempDir();
  const config = path.join(dir, "upstreams.json");
  const entry = { command: process.execPath, args: [path.join(here, "rugpull_server.mjs")] };
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: entry } }));
  const r = importManifest(config, "dict");
  assert.equal(r.status, 0, r.stderr);
  fs.writeFileSync(path.join(dir, "dict.yaml"), r.stdout);
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { dict: { ...entry, manifest: "dict.yaml" } } }));
  const gw = spawn(server, ["--no-examples", "--http", "127.0.0.1:0", "--upstreams", config], { stdio: ["ignore", "ignore", "pipe"] });
  children.push(gw);
  let gwErr = "";
  const url = await new Promise((resolve, reject) => {
    gw.stderr.on("data", (b) => {
      gwErr += b.toString();
      const m = /serving MCP over Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(gwErr);
      if (m) resolve(m[1]);
    });
    gw.on("exit", (code) => reject(new Error("toolgov-mcp exited with " + code + ":\n" + gwErr)));
  });
  const sessions = [];
  for (const name of ["a", "b"]) {
    const client = new Client({ name: "toolgov-http-" + name, version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const s = { client, transport, changed: 0 };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { s.changed++; });
    await client.connect(transport);
    clients.push(client);
    assert.equal(client.getServerCapabilities().tools.listChanged, true);
    sessions.push(s);
  }
  const [a, b] = sessions;
  assert.deepEqual((await a.client.listTools()).tools.map((t) => t.name), ["lookup", "flip"]);
  // The SDK client opened its GET stream after initialize: a second is refused.
  for (let i = 0; i < 20; i++) {
    const again = await fetch(url, { headers: { accept: "text/event-stream", "mcp-session-id": b.transport.sessionId } });
    await again.body?.cancel();
    if (again.status === 409) break;
    await sleep(100);
    if (i === 19) assert.equal(again.status, 409);
  }
  assert.equal(text(await a.client.callTool({ name: "flip", arguments: {} })), "flipped");
  for (let i = 0; i < 50 && (a.changed === 0 || b.changed === 0); i++) await sleep(100);
  assert.equal(a.changed, 1);
  assert.equal(b.changed, 1);
  assert.deepEqual((await b.client.listTools()).tools.map((t) => t.name), ["flip"]);
  const refused = await b.client.callTool({ name: "lookup", arguments: { word: "tea" } });
  assert.match(text(refused), /lookup is refused: the MCP server 'dict' changed its definition since it was reviewed/);
  for (const s of sessions) await s.client.close();
  // DELETE ends a session's GET stream too.
  const init = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) });
  const sid = init.headers.get("mcp-session-id");
  await init.text();
  const stream = await fetch(url, { headers: { accept: "text/event-stream", "mcp-session-id": sid } });
  assert.equal(stream.status, 200);
  assert.equal(stream.headers.get("content-type"), "text/event-stream");
  const reader = stream.body.getReader();
  assert.equal((await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sid } })).status, 200);
  const end = await Promise.race([reader.read().then((r) => r.done ? "ended" : "data"), sleep(3000).then(() => "still open")]);
  assert.equal(end, "ended");
  gw.kill("SIGTERM");
  await new Promise((res) => gw.on("exit", res));
});

// A server scripted here: initialize, tools/list and notifications answer
// well; tools/call answers as `mode` says (the URL's last part).
function fakeServer() {
  const tool = { name: "act", description: "Act.", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } };
  const web = http.createServer((req, res) => {
    const mode = req.url.split("/").at(-1);
    if (req.method === "GET") return res.writeHead(405).end();
    if (req.method === "DELETE") return res.writeHead(200).end();
    let body = "";
    req.on("data", (b) => { body += b; });
    req.on("end", () => {
      const msg = JSON.parse(body);
      const json = (result) => res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "fake-session" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
      if (msg.id === undefined) return res.writeHead(202).end();
      if (msg.method === "initialize")
        return json({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "fake", version: "1" } });
      if (mode !== "gone" && req.headers["mcp-session-id"] !== "fake-session") return res.writeHead(400).end();
      if (msg.method === "tools/list") return json({ tools: [tool] });
      const sse = () => res.writeHead(200, { "content-type": "text/event-stream" });
      switch (mode) {
        case "ok":
          sse();
          res.write(": a comment\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}\n\n");
          return res.end(`id: 1\ndata: {"jsonrpc":"2.0","id":${msg.id},\ndata: "result":{"content":[{"type":"text","text":"acted"}]}}\n\n`);
        case "garbage": return res.writeHead(200, { "content-type": "application/json" }).end("<<this is not JSON>>");
        case "html": return res.writeHead(200, { "content-type": "text/html" }).end("<html>hi</html>");
        case "status500": return res.writeHead(500, { "content-type": "text/plain" }).end("boom\u001b[31m");
        case "hang": return undefined;
        case "huge": sse(); return res.end("data: " + JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "x".repeat(70000) }] } }) + "\n\n");
        case "sseend": sse(); return res.end("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n");
        case "forgot": return res.writeHead(404).end();
        default: return res.writeHead(400).end();
      }
    });
  });
  webs.push(web);
  return new Promise((resolve) => web.listen(0, "127.0.0.1", () => resolve(web.address().port)));
}

test("a server that is gone or answers garbage fails its calls closed; the other serves on", async (t) => {
  const port = await fakeServer();
  // A port nothing listens on: one taken and given back.
  const free = http.createServer();
  await new Promise((r) => free.listen(0, "127.0.0.1", r));
  const gonePort = free.address().port;
  await new Promise((r) => free.close(r));
  const manifest = (name) => `name: ${name}\nprovides: [tool]\ntools:\n  act:\n    effect: read\n    description: Act.\n`;
  const world = (badUrl, timeout) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "good.yaml"), manifest("good").replace("act:", "good_act:\n    upstream_name: act"));
    fs.writeFileSync(path.join(dir, "bad.yaml"), manifest("bad"));
    const config = path.join(dir, "upstreams.json");
    fs.writeFileSync(config, JSON.stringify({ mcpServers: {
      good: { url: `http://127.0.0.1:${port}/mcp/ok`, manifest: "good.yaml" },
      bad: { url: badUrl, manifest: "bad.yaml", ...(timeout ? { timeout } : {}) },
    } }));
    return config;
  };
  await t.test("gone", async () => {
    const { client, err } = await connect(world(`http://127.0.0.1:${gonePort}/mcp`));
    const r = await client.callTool({ name: "act", arguments: {} });
    assert.equal(r.isError, true);
    assert.match(text(r), /act is not available: the MCP server 'bad' is not serving \(initialize failed: cannot reach the server: .*\); a restart is tried in \d s/);
    assert.equal(text(await client.callTool({ name: "good_act", arguments: {} })), "acted");
    await client.close();
    assert.match(err.text, /upstream 'bad': not serving: initialize failed: cannot reach the server: .*127\.0\.0\.1.*; its tools are unavailable, a restart is tried in 1 s/);
  });
  for (const [mode, want, down] of [
    ["garbage", /act failed: the server sent a message that is not JSON .*\(MCP server 'bad'\)/, true],
    ["html", /act failed: the server answered with content type 'text\/html', neither application\/json nor text\/event-stream/, true],
    ["status500", /act failed: the server answered HTTP 500: "boom\[31m" \(MCP server 'bad'\)/, true],
    ["hang", /act failed: the server did not answer within 700 ms \(MCP server 'bad'\); whether it changed anything is not known/, false],
    ["huge", /act failed: the server sent a message over 65536 bytes/, true],
    ["sseend", /act failed: its event stream ended without the response to the request/, true],
    ["forgot", /act failed: the server no longer knows the session \(HTTP 404\)/, true],
  ]) {
    await t.test(mode, async () => {
      const { client, err } = await connect(world(`http://127.0.0.1:${port}/mcp/${mode}`, 700), ["--max-message", "65536"]);
      const r = await client.callTool({ name: "act", arguments: {} });
      assert.equal(r.isError, true);
      assert.match(text(r), want);
      assert.equal(text(await client.callTool({ name: "good_act", arguments: {} })), "acted");
      if (down) {
        const again = await client.callTool({ name: "act", arguments: {} });
        assert.match(text(again), /act is not available: the MCP server 'bad' is not serving \(.*\); a restart is tried in 1 s/);
      }
      await client.close();
      assert.doesNotMatch(err.text, /upstream 'good': not serving/);
    });
  }
});

test("url entries: a bad one is refused at its place, and nothing starts", () => {
  const dir = tempDir();
  const config = path.join(dir, "upstreams.json");
  for (const [entry, want] of [
    [{ url: "ftp://example/mcp", manifest: "x.yaml" }, /upstreams\.json:1:\d+: error: server 's' needs "url", the http:\/\/ or https:\/\/ address/],
    [{ url: "http://127.0.0.1:1/mcp", command: "x", manifest: "x.yaml" }, /error: server 's' is reached by "url" \(Streamable HTTP\): "command" is for a server started with "command"/],
    [{ url: "http://127.0.0.1:1/mcp", headers: { "Mcp-Session-Id": "x" }, manifest: "x.yaml" }, /error: server 's': header 'Mcp-Session-Id' is set by toolgov-mcp itself/],
    [{ url: "http://127.0.0.1:1/mcp", headers: { "X-A": "a\r\nX-B: b" }, manifest: "x.yaml" }, /error: server 's': the value of header 'X-A' must be a string of at most 8192 bytes without line breaks/],
    [{ url: "http://127.0.0.1:1/mcp", headers: { "bad name": "x" }, manifest: "x.yaml" }, /error: server 's': header name 'bad name' is not an HTTP token/],
    [{ type: "sse", url: "http://127.0.0.1:1/sse", manifest: "x.yaml" }, /error: server 's': the older HTTP\+SSE transport \("type": "sse"\) is not supported/],
    [{ type: "http", command: "x", manifest: "x.yaml" }, /error: server 's': "type": "http" needs "url"/],
    [{ command: "x", headers: {}, manifest: "x.yaml" }, /error: server 's': "headers" are for a server reached by "url"/],
  ]) {
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { s: entry } }));
    const r = spawnSync(server, ["--no-examples", "--upstreams", config], { encoding: "utf8", input: "" });
    assert.notEqual(r.status, 0, JSON.stringify(entry));
    assert.match(r.stderr, want, JSON.stringify(entry));
  }
});
