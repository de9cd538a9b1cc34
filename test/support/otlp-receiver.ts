/**
 * An OTLP/HTTP trace receiver on loopback, as a collector would be: it takes
 * `POST /v1/traces` in protobuf (`application/x-protobuf`, decoded here by the field numbers of
 * opentelemetry-proto's `collector/trace/v1/trace_service.proto` and `trace/v1/trace.proto`) or
 * JSON (`application/json`), and gives the spans back flattened for asserts. `blackhole: true`
 * takes requests and never answers, as an unreachable collector behind a firewall would.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One received span, its ids in hex, its attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** `""` for a root span. */
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  /** The resource's `service.name`. */
  service: string;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: what OTEL_EXPORTER_OTLP_ENDPOINT takes. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** The content types of the export requests received, in order. */
  contentTypes: string[];
  /** Waits until a span matches (10 s at most). */
  waitFor(match: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

export const KIND = { internal: 1, server: 2, client: 3 } as const;

export async function startOtlpReceiver(options: { blackhole?: boolean } = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const waiting = new Set<() => void>();
  const server: Server = createServer(async (req, res) => {
    const body = await readAll(req);
    if (options.blackhole) return; // never answered
    const type = req.headers["content-type"] ?? "";
    contentTypes.push(type);
    try {
      spans.push(...(type.includes("json") ? fromJson(JSON.parse(body.toString("utf8"))) : fromProtobuf(body)));
    } catch (error) {
      res.writeHead(400).end(String(error));
      return;
    }
    for (const wake of waiting) wake();
    res.writeHead(200, { "content-type": type.includes("json") ? "application/json" : "application/x-protobuf" }).end(type.includes("json") ? "{}" : "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = spans.find(match);
          if (!found) return false;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no matching span in ${timeoutMs} ms; received: ${spans.map((s) => s.name).join(", ") || "none"}`));
        }, timeoutMs);
        if (!check()) waiting.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

// ---- OTLP JSON (ids in hex, enums as numbers, int64 as strings) ----

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}

function jsonValue(value: JsonAnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(jsonValue);
  return undefined;
}

function jsonAttributes(list: JsonAttributes = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, jsonValue(value)]));
}

type JsonAttributes = Array<{ key: string; value: JsonAnyValue }>;
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: JsonAttributes;
  status?: { code?: number; message?: string };
}

function fromJson(request: {
  resourceSpans?: Array<{ resource?: { attributes?: JsonAttributes }; scopeSpans?: Array<{ spans?: JsonSpan[] }> }>;
}): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const service = String(jsonAttributes(rs.resource?.attributes)["service.name"] ?? "");
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? "",
          name: s.name,
          kind: s.kind,
          attributes: jsonAttributes(s.attributes),
          status: { code: s.status?.code ?? 0, ...(s.status?.message ? { message: s.status.message } : {}) },
          service,
        });
  }
  return out;
}

// ---- OTLP protobuf: the wire format, read by field number ----

type Field = { field: number; wire: number; value: bigint | Buffer };

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= buf.length) throw new Error("truncated varint");
      const byte = buf[pos++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (pos < buf.length) {
    const tag = Number(varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) out.push({ field, wire, value: varint() });
    else if (wire === 1) {
      out.push({ field, wire, value: buf.subarray(pos, pos + 8) });
      pos += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      out.push({ field, wire, value: buf.subarray(pos, pos + length) });
      pos += length;
    } else if (wire === 5) {
      out.push({ field, wire, value: buf.subarray(pos, pos + 4) });
      pos += 4;
    } else throw new Error(`wire type ${wire} is not used by OTLP`);
  }
  return out;
}

const bytesOf = (f: Field[], n: number) => f.filter((x) => x.field === n).map((x) => x.value as Buffer);
const one = (f: Field[], n: number) => f.find((x) => x.field === n)?.value;

/** AnyValue: 1 string, 2 bool, 3 int, 4 double, 5 array (ArrayValue: 1 values). */
function anyValue(buf: Buffer): unknown {
  const f = fields(buf)[0];
  if (!f) return undefined;
  switch (f.field) {
    case 1:
      return (f.value as Buffer).toString("utf8");
    case 2:
      return f.value === 1n;
    case 3:
      return Number(BigInt.asIntN(64, f.value as bigint));
    case 4:
      return (f.value as Buffer).readDoubleLE(0);
    case 5:
      return bytesOf(fields(f.value as Buffer), 1).map(anyValue);
    default:
      return undefined;
  }
}

/** KeyValue: 1 key, 2 value. */
function attributes(list: Buffer[]): Record<string, unknown> {
  return Object.fromEntries(
    list.map((kv) => {
      const f = fields(kv);
      return [(one(f, 1) as Buffer).toString("utf8"), anyValue((one(f, 2) as Buffer | undefined) ?? Buffer.alloc(0))];
    }),
  );
}

/**
 * ExportTraceServiceRequest: 1 resource_spans. ResourceSpans: 1 resource (Resource: 1
 * attributes), 2 scope_spans. ScopeSpans: 2 spans. Span: 1 trace_id, 2 span_id, 4 parent_span_id,
 * 5 name, 6 kind, 9 attributes, 15 status (Status: 2 message, 3 code).
 */
function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of bytesOf(fields(body), 1)) {
    const rsf = fields(rs);
    const resource = one(rsf, 1) as Buffer | undefined;
    const service = String(attributes(resource ? bytesOf(fields(resource), 1) : [])["service.name"] ?? "");
    for (const ss of bytesOf(rsf, 2))
      for (const s of bytesOf(fields(ss), 2)) {
        const f = fields(s);
        const status = one(f, 15) as Buffer | undefined;
        const sf = status ? fields(status) : [];
        const message = one(sf, 2) as Buffer | undefined;
        out.push({
          traceId: ((one(f, 1) as Buffer | undefined) ?? Buffer.alloc(0)).toString("hex"),
          spanId: ((one(f, 2) as Buffer | undefined) ?? Buffer.alloc(0)).toString("hex"),
          parentSpanId: ((one(f, 4) as Buffer | undefined) ?? Buffer.alloc(0)).toString("hex"),
          name: ((one(f, 5) as Buffer | undefined) ?? Buffer.alloc(0)).toString("utf8"),
          kind: Number((one(f, 6) as bigint | undefined) ?? 0n),
          attributes: attributes(bytesOf(f, 9)),
          status: { code: Number((one(sf, 3) as bigint | undefined) ?? 0n), ...(message && message.length > 0 ? { message: message.toString("utf8") } : {}) },
          service,
        });
      }
  }
  return out;
}
