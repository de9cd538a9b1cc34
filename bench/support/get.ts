import { Agent, request } from "node:http";

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** GETs a URL over a keep-alive connection; resolves with the body, rejects on a non-2xx status. */
export function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { accept: "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => ((res.statusCode ?? 0) < 300 ? resolve(text) : reject(new Error(`${res.statusCode} ${text.slice(0, 200)}`))));
    });
    req.on("error", reject);
    req.end();
  });
}
