// SPDX-License-Identifier: MIT
// An MCP server over stdio that misbehaves on purpose, one way per run, for
// test_upstream.mjs: raw JSON-RPC lines, no SDK, so every byte is ours.
//
//   node hostile_server.mjs MODE [COUNTER_FILE]
//
// It offers one read tool, `act`. What a tools/call of it gets, by MODE:
//   hang      no answer ever (toolgov-mcp's per-call timeout)
//   crash     the process exits with status 3 mid-call; with COUNTER_FILE,
//             only its first start crashes: a restarted one answers
//   garbage   a line that is not JSON
//   huge      a line of 100,000 bytes (over a --max-message of 65536)
//   flood     notifications (list_changed, progress) in a loop, no answer
//   sample    first its own sampling/createMessage and elicitation/create
//             requests; the answer names the error codes they got back
//   progress  notifications/progress first: for a token never given, for
//             the call's own token (_meta.progressToken, with a message and
//             an extra member), with a string in place of the number; the
//             answer says which token it was given
// And what its tools/list holds, by MODE (its calls answer as usual):
//   many      5,000 tools (over toolgov-mcp's bound of 4,096)
//   paged     act on the third of three pages (nextCursor)
//   endless   a nextCursor on every page
//   dupes     act twice, the second with another description
//   names     names with a newline, a bell and a quote, and 200 bytes long
//   nonutf8   a name holding the byte 0xff (not UTF-8)
//   collide   get-sum and get_sum, one name once governed
//   noschema  act without inputSchema
//   deep      act's inputSchema nested 40 objects deep
//   bomb      a tool whose inputSchema nests 100,000 arrays
import fs from "node:fs";
import readline from "node:readline";

const [mode, counter] = process.argv.slice(2);
let starts = 1;
if (counter) {
  starts = (fs.existsSync(counter) ? Number(fs.readFileSync(counter, "utf8")) : 0) + 1;
  fs.writeFileSync(counter, String(starts));
}
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const waiting = new Map();
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === undefined) {
    const k = waiting.get(m.id);
    if (k) k(m);
    return;
  }
  if (m.id === undefined) return;
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "1" } } });
  } else if (m.method === "tools/list") {
    const act = { name: "act", description: "Act.", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } };
    const tool = (name) => ({ ...act, name });
    const cursor = m.params?.cursor;
    const page = (tools, nextCursor) => send({ jsonrpc: "2.0", id: m.id, result: nextCursor ? { tools, nextCursor } : { tools } });
    if (mode === "many") return page(Array.from({ length: 5000 }, (_, i) => tool("t" + i)));
    if (mode === "paged") return cursor === undefined ? page([tool("one")], "p2") : cursor === "p2" ? page([tool("two")], "p3") : page([act]);
    if (mode === "endless") return page([act], "again");
    if (mode === "dupes") return page([act, { ...act, description: "Act, the other one." }]);
    if (mode === "names") return page([act, tool("evil\nname\u0007'"), tool("x".repeat(200))]);
    if (mode === "nonutf8") {
      const head = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { tools: [act, tool("bad@")] } }));
      head[head.indexOf("bad@") + 3] = 0xff;
      return void process.stdout.write(Buffer.concat([head, Buffer.from("\n")]));
    }
    if (mode === "collide") return page([act, tool("get-sum"), tool("get_sum")]);
    if (mode === "noschema") return page([{ name: "act", description: "Act." }]);
    if (mode === "deep") {
      let schema = { type: "string" };
      for (let i = 0; i < 40; i++) schema = { type: "object", properties: { a: schema } };
      return page([{ ...act, inputSchema: schema }]);
    }
    if (mode === "bomb") {
      const text = JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { tools: [{ ...act, inputSchema: "@" }] } });
      return void process.stdout.write(text.replace('"@"', "[".repeat(100000) + "]".repeat(100000)) + "\n");
    }
    page([act]);
  } else if (m.method === "tools/call") {
    const answer = (text) => send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text }] } });
    if (mode === "hang") return;
    if (mode === "flood") {
      const note = JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }) + "\n";
      const again = () => { if (process.stdout.write(note.repeat(64))) setImmediate(again); else process.stdout.once("drain", again); };
      return again();
    }
    if (mode === "crash" && (!counter || starts === 1)) process.exit(3);
    if (mode === "garbage") return void process.stdout.write("this is not json\n");
    if (mode === "huge") return void process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "x".repeat(100000) }] } }) + "\n");
    if (mode === "sample") {
      const got = [];
      waiting.set("s1", (r) => {
        got.push(r.error?.code);
        waiting.set("e1", (r2) => { got.push(r2.error?.code); answer("refused with " + got.join(" and ")); });
        send({ jsonrpc: "2.0", id: "e1", method: "elicitation/create", params: { message: "Your password?", requestedSchema: { type: "object", properties: {} } } });
      });
      send({ jsonrpc: "2.0", id: "s1", method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } });
      return;
    }
    if (mode === "progress") {
      const own = m.params?._meta?.progressToken;
      const note = (params) => send({ jsonrpc: "2.0", method: "notifications/progress", params });
      note({ progressToken: 999999, progress: 1, total: 9, message: "not yours" });
      note({ progressToken: "x", progress: 1 });
      if (own !== undefined) {
        note({ progressToken: own, progress: 1, total: 2, message: "half \u001b[31mway", secret: "dropped" });
        note({ progressToken: own, progress: "two" });
        note({ progressToken: own, progress: 2, total: 2 });
      }
      // A moment before the answer: the SDK client handles a notification a
      // tick later than a response read in the same chunk, and drops
      // progress that comes after its request ended.
      return void setTimeout(() => answer("acted with token " + JSON.stringify(own)), 100);
    }
    answer("acted (start " + starts + ")");
  } else {
    send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no" } });
  }
});
