/** The floor: a bare node:http server that parses a JSON-RPC request and answers a fixed result. */
import { createServer } from "node:http";

const server = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const { id, params } = JSON.parse(body) as { id: number; params?: { arguments?: { id?: string } } };
    const text = JSON.stringify({ id: params?.arguments?.id, limit: 10, counter: 7 });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } }));
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening on ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
