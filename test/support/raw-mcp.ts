/** The fixture whose handlers answer what the protocol cannot carry (hardening tests). */
export const HOSTILE = new URL("../fixtures/hostile-values/fakes.yaml", import.meta.url).pathname;

/** What a raw tools/call was answered: the HTTP status and the JSON-RPC result or error. */
export interface RawAnswer {
  status: number;
  result?: { content: Array<{ type: string; text?: string }>; isError?: boolean };
  error?: { code: number; message: string };
}

/** A tools/call sent as raw text, so it can carry what no JSON encoder writes (`1e309`). */
export async function rawToolsCall(origin: string, fake: string, name: string, argumentsText: string): Promise<RawAnswer> {
  const response = await fetch(`${origin}/${fake}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argumentsText}}}`,
  });
  const text = await response.text();
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  const message = data.startsWith("{") ? JSON.parse(data) : {};
  return { status: response.status, result: message.result, error: message.error };
}
