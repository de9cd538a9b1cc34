import { describe, expect, it } from "vitest";
import { tracingConfig } from "../../engine/serve/telemetry/index.js";

describe("tracing from the standard OpenTelemetry variables", () => {
  it("stays off without an OTLP endpoint, or when the SDK or the traces exporter is turned off", () => {
    expect(tracingConfig({}, "svc")).toEqual({});
    expect(tracingConfig({ OTEL_SERVICE_NAME: "x" }, "svc")).toEqual({});
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }, "svc")).toEqual({});
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" }, "svc")).toEqual({});
  });

  it("sends to <endpoint>/v1/traces, or to the traces endpoint as given, in protobuf unless told JSON", () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" }, "svc").config).toMatchObject({
      url: "http://c:4318/v1/traces",
      protocol: "http/protobuf",
      serviceName: "svc",
    });
    expect(
      tracingConfig(
        { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://t/api/traces", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
        "svc",
      ).config,
    ).toMatchObject({ url: "https://t/api/traces", protocol: "http/json" });
    // The traces protocol wins over the general one.
    expect(
      tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" }, "svc")
        .config?.protocol,
    ).toBe("http/json");
  });

  it("reads headers (the traces ones win), the service name, the resource and the timeout", () => {
    const { config } = tracingConfig(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc, x-team = evals",
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-team=agents",
        OTEL_SERVICE_NAME: "nightly-evals",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=ci,service.version=1.2",
        OTEL_EXPORTER_OTLP_TIMEOUT: "2500",
      },
      "svc",
    );
    expect(config).toMatchObject({
      headers: { authorization: "Bearer abc", "x-team": "agents" },
      serviceName: "nightly-evals",
      resource: { "deployment.environment": "ci", "service.version": "1.2" },
      timeoutMs: 2500,
    });
  });

  it("says why it stays off for gRPC, another exporter or an endpoint that is not http(s)", () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "svc")).toEqual({
      warning: 'tracing is off: the OTLP protocol "grpc" is not supported (use http/protobuf or http/json)',
    });
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_EXPORTER: "zipkin" }, "svc").warning).toMatch(/only otlp/);
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "unix:///tmp/sock" }, "svc").warning).toMatch(/not an http\(s\) URL/);
  });
});
