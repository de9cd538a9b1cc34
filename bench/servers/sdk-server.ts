/**
 * The hand-written baseline: the same 50 tools on the MCP SDK the usual way, an McpServer built
 * by createMcpHandler's per-request factory, served with toNodeHandler.
 */
import { createServer } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { TOOLS } from "../support/fifty-tools.js";

const validator = new AjvJsonSchemaValidator();
const schemas = TOOLS.map((tool) => fromJsonSchema(tool.inputSchema as never, validator));
const state = { counter: 7 };

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: "bench", version: "1.0.0" }, { jsonSchemaValidator: validator });
    TOOLS.forEach((tool, i) =>
      server.registerTool(
        tool.name,
        { title: tool.title, description: tool.description, inputSchema: schemas[i], annotations: tool.annotations },
        async (args) => {
          const { id, limit = 10 } = args as { id: string; limit?: number };
          return { content: [{ type: "text", text: JSON.stringify({ id, limit, counter: state.counter }) }] };
        },
      ),
    );
    return server;
  },
  { legacy: "stateless" },
);

const node = toNodeHandler(handler);
const server = createServer((req, res) => void node(req, res));
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening on ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
