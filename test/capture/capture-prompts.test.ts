/** `capture` and `init --mcp` read a real server's prompts beside its tools and resources. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureMcpServer } from "../../engine/author/capture/mcp-server-capture.js";
import type { Services } from "../../engine/serve/host/start-services.js";
import { serve } from "../support/services.js";

// A server with prompts, resources and paged lists: a fake of the protocol fixture.
const FIXTURE = new URL("../fixtures/protocol/fakes.yaml", import.meta.url).pathname;

let services: Services;
beforeAll(async () => {
  services = await serve(FIXTURE);
});
afterAll(() => services.close());

describe("capturing a server's prompts", () => {
  it("keeps every page of prompts/list, as the server lists them", async () => {
    const capture = await captureMcpServer({ url: services.url("notes") });
    expect(capture.prompts).toEqual([
      { name: "review", description: "Review the notes on a topic.", arguments: [{ name: "topic", required: true }] },
      { name: "digest", description: "A digest of every note, from the world." },
    ]);
    expect(capture.resourceTemplates?.map((template) => template.uriTemplate)).toEqual(["notes://{id}"]);
  });
});
