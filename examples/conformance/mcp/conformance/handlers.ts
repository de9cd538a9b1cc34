/**
 * The conformance fake's TypeScript handlers: the tools whose answers are not text, and those
 * that talk to the client while they run. JSONata answers in the tool's text format; a result
 * with image, audio or embedded-resource content is built here as the MCP protocol carries it,
 * the content the conformance suite's reference server (its "everything server") answers; log
 * messages, progress, sampling and elicitation go through the handler's context.
 */
import { defineHandlers } from "eval-simulate";

/** A 1×1 red PNG, the reference server's test image. */
const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A WAV file with two bytes of 8 kHz mono samples, the reference server's test audio. */
const SHORT_WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/** Waits `ms`, or less when the call is aborted (the reference server's pauses between messages). */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

export default defineHandlers({
  test_tool_with_logging: async (_args, ctx) => {
    ctx.log("Tool execution started", "info");
    await pause(50, ctx.signal);
    ctx.log("Tool processing data", "info");
    await pause(50, ctx.signal);
    ctx.log("Tool execution completed", "info");
    return "Tool with logging executed successfully";
  },

  test_tool_with_progress: async (_args, ctx) => {
    for (const progress of [0, 50, 100]) {
      await ctx.progress(progress, 100, `Completed step ${progress / 50 + 1} of 3`);
      if (progress < 100) await pause(50, ctx.signal);
    }
    return "Tool with progress executed successfully";
  },

  test_sampling: async (args: { prompt: string }, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: args.prompt } }], maxTokens: 100 });
    const content = answer.content as { type?: string; text?: string } | undefined;
    return `LLM response: ${content?.type === "text" ? content.text : JSON.stringify(content)}`;
  },

  test_elicitation: async (args: { message: string }, ctx) => {
    const answer = await ctx.elicit({
      message: args.message,
      requestedSchema: {
        type: "object",
        properties: {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        },
        required: ["username", "email"],
      },
    });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  },

  test_elicitation_sep1034_defaults: async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Please review and update the form fields with defaults",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", description: "Verification status", default: true },
        },
      },
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  },

  test_elicitation_sep1330_enums: async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Please select options from the enum fields",
      requestedSchema: {
        type: "object",
        properties: {
          untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            description: "Select one option with titles",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            description: "Select one option (legacy)",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            description: "Select multiple options",
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            description: "Select multiple options with titles",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
      },
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  },

  test_image_content: () => ({ content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }] }),

  test_audio_content: () => ({ content: [{ type: "audio", data: SHORT_WAV, mimeType: "audio/wav" }] }),

  test_embedded_resource: () => ({
    content: [
      {
        type: "resource",
        resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
      },
    ],
  }),

  test_multiple_content_types: () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
      {
        type: "resource",
        resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
      },
    ],
  }),
});
