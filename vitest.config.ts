import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/harness/global-setup.ts"],
    testTimeout: 20000,
    hookTimeout: 30000,
    pool: "forks",
    // expect.poll waits for something asynchronous (an event reaching a browser, a save reaching the
    // server); vitest's 1 s default is too short on a loaded 2-core machine. The values asserted
    // are unchanged: only how long a true condition may take to become true.
    expect: { poll: { timeout: 10000 } },
  },
});
