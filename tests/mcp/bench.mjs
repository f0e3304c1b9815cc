// SPDX-License-Identifier: MIT
// tools/call round trip for one read tool, over N calls from the official
// SDK client (StdioClientTransport), against several servers side by side.
//
//   node bench.mjs CONFIG.json     (or the JSON text itself as the argument)
//
// CONFIG: {"calls": 10000, "warmup": 500, "server_cpu": 1, "servers": [
//          {"name": "...", "command": "...", "args": [...], "tool": "...",
//           "arguments": {...}}]}
// With server_cpu, each server runs under `taskset -c CPU` (when taskset
// is installed); pin the client to another core (tests/mcp/CMakeLists.txt's
// bench_mcp target runs it under taskset -c 0) to tame the spread.
// Prints the median, p10, p90, p99 and the ratio of each median to the
// first server's (the floor). Never asserts on time.
//
// With "rounds": R in CONFIG the servers are measured interleaved: all are
// started and warmed up, then each round runs `calls` calls on each server
// in turn, the order reversed every other round (A B, B A, ...), so a drift
// of the machine's load over the run falls on all of them alike. Printed:
// each server's median of its per-round medians, p10/p90 over all its calls,
// and the median over rounds of its round median / the floor's.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const arg = process.argv[2];
if (!arg) {
  console.error("usage: node bench.mjs CONFIG.json");
  process.exit(2);
}
const config = JSON.parse(arg.trim().startsWith("{") ? arg : readFileSync(arg, "utf8"));
const calls = config.calls ?? 10000;
const warmup = config.warmup ?? 500;
let taskset = null;
if (config.server_cpu !== undefined) {
  try {
    taskset = execFileSync("sh", ["-c", "command -v taskset"]).toString().trim() || null;
  } catch {
    taskset = null;
  }
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function start(s) {
  const argv = taskset ? [taskset, "-c", String(config.server_cpu), s.command, ...(s.args ?? [])]
                       : [s.command, ...(s.args ?? [])];
  const transport = new StdioClientTransport({ command: argv[0], args: argv.slice(1), stderr: "inherit" });
  const client = new Client({ name: "toolgov-bench", version: "1.0.0" }, { capabilities: {} });
  await client.connect(transport);
  const params = { name: s.tool, arguments: s.arguments ?? {} };
  for (let i = 0; i < warmup; i++) {
    const r = await client.callTool(params);
    if (r.isError) throw new Error(`${s.name}: ${s.tool} failed: ${JSON.stringify(r.content)}`);
  }
  return { s, client, params, rounds: [], all: [] };
}

async function batch(m) {
  const us = new Float64Array(calls);
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    await m.client.callTool(m.params);
    us[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  us.sort();
  m.rounds.push(quantile(us, 0.5));
  for (const v of us) m.all.push(v);
}

const median = (xs) => quantile(Float64Array.from(xs).sort(), 0.5);

if (config.rounds) {
  const ms = [];
  for (const s of config.servers) ms.push(await start(s));
  for (let r = 0; r < config.rounds; r++) {
    const order = r % 2 ? [...ms].reverse() : ms;
    for (const m of order) await batch(m);
  }
  for (const m of ms) await m.client.close();
  console.log(`tools/call round trip, interleaved: ${config.rounds} rounds of ${calls} calls per ` +
              `server, after ${warmup} warm-up calls each (µs)` +
              (taskset ? `, servers pinned to CPU ${config.server_cpu}` : ", not pinned (no taskset)"));
  console.log("server".padEnd(14) + "median".padStart(9) + "p10".padStart(9) + "p90".padStart(9) +
              "   ratio to floor (median of rounds)");
  for (const m of ms) {
    const all = Float64Array.from(m.all).sort();
    const ratios = m.rounds.map((v, i) => v / ms[0].rounds[i]);
    console.log(m.s.name.padEnd(14) + [median(m.rounds), quantile(all, 0.1), quantile(all, 0.9)]
      .map((v) => v.toFixed(1).padStart(9)).join("") + `   ${median(ratios).toFixed(2)}x`);
  }
  process.exit(0);
}

async function measure(s) {
  const argv = taskset ? [taskset, "-c", String(config.server_cpu), s.command, ...(s.args ?? [])]
                       : [s.command, ...(s.args ?? [])];
  const transport = new StdioClientTransport({ command: argv[0], args: argv.slice(1), stderr: "inherit" });
  const client = new Client({ name: "toolgov-bench", version: "1.0.0" }, { capabilities: {} });
  await client.connect(transport);
  const params = { name: s.tool, arguments: s.arguments ?? {} };
  for (let i = 0; i < warmup; i++) {
    const r = await client.callTool(params);
    if (r.isError) throw new Error(`${s.name}: ${s.tool} failed: ${JSON.stringify(r.content)}`);
  }
  const us = new Float64Array(calls);
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    await client.callTool(params);
    us[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  await client.close();
  us.sort();
  return { p10: quantile(us, 0.1), p50: quantile(us, 0.5), p90: quantile(us, 0.9), p99: quantile(us, 0.99) };
}

console.log(`tools/call round trip, ${calls} calls per server after ${warmup} warm-up calls (µs)` +
            (taskset ? `, servers pinned to CPU ${config.server_cpu}` : ", not pinned (no taskset)"));
console.log("server".padEnd(14) + "p10".padStart(9) + "p50".padStart(9) + "p90".padStart(9) +
            "p99".padStart(9) + "   p50 vs floor");
let floor = null;
for (const s of config.servers) {
  const r = await measure(s);
  if (floor === null) floor = r.p50;
  console.log(s.name.padEnd(14) + [r.p10, r.p50, r.p90, r.p99].map((v) => v.toFixed(1).padStart(9)).join("") +
              `   ${(r.p50 / floor).toFixed(2)}x`);
}
