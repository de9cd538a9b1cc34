/**
 * The conformance fake's TypeScript handlers: the tools whose answers are not text. JSONata
 * answers in the tool's text format; a result with image, audio or embedded-resource content is
 * built here as the MCP protocol carries it, the content the conformance suite's reference server
 * (its "everything server") answers.
 */
import { defineHandlers } from "eval-simulate";

/** A 1×1 red PNG, the reference server's test image. */
const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A WAV file with two bytes of 8 kHz mono samples, the reference server's test audio. */
const SHORT_WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

export default defineHandlers({
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
