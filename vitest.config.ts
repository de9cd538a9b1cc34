import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "engine/**/*.test.ts", "cli/**/*.test.ts", "schema/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start real servers and real processes; two cores run two files at a time well.
    maxWorkers: 2,
  },
});
