/**
 * Runs before each test file. Test files share a worker's globals (`isolate: false` in
 * vitest.config.ts), so what one file replaced must not reach the next: zulip-js loads
 * isomorphic-form-data, which puts the `form-data` package in place of Node's FormData (the
 * harness client's multipart bodies need Node's), and a spy left on a faked setTimeout outlives
 * the fake clock, so that no timer fires again. The first run keeps Node's own globals; every run
 * puts them back.
 */
import { vi } from "vitest";

const names = ["FormData", "Blob", "fetch", "setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate", "Date"] as const;
type Natives = Record<(typeof names)[number], unknown>;
const key = Symbol.for("rookery.test.nativeGlobals");
const store = globalThis as unknown as Record<symbol, Natives | undefined>;
const natives = (store[key] ??= Object.fromEntries(names.map((name) => [name, globalThis[name]])) as Natives);

vi.restoreAllMocks();
vi.useRealTimers();
const globals = globalThis as unknown as Record<string, unknown>;
for (const name of names) globals[name] = natives[name];
