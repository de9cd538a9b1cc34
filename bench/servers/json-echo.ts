/** The floor for API fakes: a bare node:http server answering every GET with one fixed JSON body. */
import { createServer } from "node:http";

const body = JSON.stringify({ number: 1, title: "Export to CSV drops the last row", state: "open" });
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening on ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
