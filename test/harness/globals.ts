/**
 * Runs before each test file. Test files share a worker's globals (`isolate: false` in
 * vitest.config.ts), so what one file's library replaces must not reach the next file: zulip-js
 * loads isomorphic-form-data, which puts the `form-data` package in place of Node's FormData, and
 * the harness client's multipart bodies need Node's. The first run keeps Node's own; every run
 * puts them back.
 */
const key = Symbol.for("rookery.test.nativeGlobals");
type Natives = { FormData: typeof FormData; Blob: typeof Blob; fetch: typeof fetch };
const store = globalThis as unknown as Record<symbol, Natives | undefined>;
const natives = (store[key] ??= { FormData: globalThis.FormData, Blob: globalThis.Blob, fetch: globalThis.fetch });
globalThis.FormData = natives.FormData;
globalThis.Blob = natives.Blob;
globalThis.fetch = natives.fetch;
