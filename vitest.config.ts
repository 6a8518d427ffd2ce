import os from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Files that leave work running when they end, and so get a worker of their own (a thread, ended
 * with the file): zulip-js's callOnEachEvent polls for ever, with no way to stop it.
 */
const ISOLATED = ["test/events/zulip-js.test.ts"];

export default defineConfig({
  test: {
    globalSetup: ["test/harness/global-setup.ts"],
    testTimeout: 20000,
    hookTimeout: 30000,
    // Puts back what a file replaced in the worker's globals (timers, FormData), before the next.
    setupFiles: ["test/harness/globals.ts"],
    // A worker's module graph serves file after file. Each API file starts its own server on a
    // fresh database, so nothing else carries over; evaluating the server's modules anew for every
    // file was most of the suite's time (collect: about 2 s a file). A stopped server must leave
    // nothing reachable behind (src/base/metrics.ts), or the worker's heap grows file by file.
    // At least two workers: a file spends much of its time waiting on its server, its database or
    // a browser, and on two cores one worker left a third of the CPU idle.
    pool: "forks",
    poolOptions: { forks: { isolate: false, maxForks: Math.max(2, os.availableParallelism() - 1) }, threads: { isolate: true } },
    // expect.poll waits for something asynchronous (an event reaching a browser, a save reaching the
    // server); vitest's 1 s default is too short on a loaded 2-core machine. The values asserted
    // are unchanged: only how long a true condition may take to become true.
    expect: { poll: { timeout: 10000 } },
    projects: [
      { extends: true, test: { name: "shared", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, ...ISOLATED] } },
      { extends: true, test: { name: "isolated", include: ISOLATED, pool: "threads" } },
    ],
  },
});
