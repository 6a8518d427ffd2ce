import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/harness/global-setup.ts"],
    testTimeout: 20000,
    hookTimeout: 30000,
    pool: "forks",
  },
});
