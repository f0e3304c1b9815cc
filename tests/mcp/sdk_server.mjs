// SPDX-License-Identifier: MIT
// The benchmark's reference: an MCP server written with the official
// TypeScript SDK (McpServer over stdio) with one read tool that answers a
// lookup from a fixed table, as toolgov-mcp's calendar_lookup does.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";

const events = {
  "2026-03-12": "09:00 Dentist; 14:00 Team review",
  "2026-03-13": "12:30 Lunch with Sam",
};

const server = new McpServer({ name: "sdk-reference", version: "1.0.0" });
server.registerTool(
  "calendar_lookup",
  {
    description: "Find events in the user's calendar for one day.",
    inputSchema: { date: z.string().describe("The day, YYYY-MM-DD.") },
    annotations: { readOnlyHint: true },
  },
  async ({ date }) => ({
    content: [{ type: "text", text: events[date] ?? "No events on " + date + "." }],
  }),
);
await server.connect(new StdioServerTransport());
