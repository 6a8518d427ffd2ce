/**
 * Fuzzes every endpoint from its declaration (test/harness/fuzz.ts), as every kind of caller, and
 * prints the answers by status, the 5xx and non-envelope counts, and the server's RSS before and
 * after (target: 0, 0, at most 1.5×). Then floods POST /fetch_api_key anonymously with 100 KB
 * usernames and prints the RSS it leaves (target: within 20 MB of where it started).
 *
 * The server is the built `rookery` command in a process of its own (`npm run build` first), so
 * the RSS figures are the server's alone.
 *
 *   npx vite-node bench/fuzz.ts [requests] [flood] [seed]     (default 100,000, 10,000 and seed 7)
 *   ROOKERY_BENCH_SHORT=1 npx vite-node bench/fuzz.ts  (2,000 and 200)
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { allEndpoints } from "../src/routes/index.js";
import { faultOf, fuzzableEndpoints, fuzzRequest, send, type Caller, type FuzzRequest } from "../test/harness/fuzz.js";
import { basicAuth } from "./auth.js";
import { serverEnv, serverFlags } from "./server-flags.js";
import { sized } from "./short.js";

const REQUESTS = sized(process.argv[2], 100_000, 2_000);
const FLOOD = sized(process.argv[3], 10_000, 200);
const SEED = Number(process.argv[4] ?? 7);
const CONCURRENCY = 8;
const QUIET_MS = sized(undefined, 10_000, 2_000);
const PORT = Number(process.env.ROOKERY_FUZZ_PORT ?? 19_881);
const ROOT = path.resolve(import.meta.dirname, "..");
const MAIN = path.join(ROOT, "dist/rookery.js");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-fuzz-"));
const env = { ...process.env, ...serverEnv(), ROOKERY_DATA_DIR: dataDir, ROOKERY_PORT: String(PORT), ROOKERY_LOG_LEVEL: "silent", ROOKERY_RATE_LIMIT_PER_MINUTE: "0", ROOKERY_ANON_RATE_LIMIT_PER_MINUTE: "0" };
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/**
 * The server process's resident memory after `quietMs` of quiet: a server collects its garbage
 * a second or two after a burst ends (src/heap.ts), and V8 returns memory a few seconds later.
 */
async function serverRss(pid: number, quietMs: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, quietMs));
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:")) ?? "VmRSS: 0 kB";
  return Number(/(\d+)/.exec(line)?.[1] ?? 0) * 1024;
}

/** Event queues and heap in use, from the server's own metrics. */
async function serverFigures(): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const figure = (name: string) => Number(new RegExp(`^${name} ([0-9.e+]+)$`, "m").exec(text)?.[1] ?? NaN);
  return `${figure("rookery_event_queues")} event queues, heap used ${mb(figure("rookery_nodejs_heap_size_used_bytes"))} MB of ${mb(figure("rookery_nodejs_heap_size_total_bytes"))} MB`;
}

async function pool<T>(items: Iterable<T>, run: (item: T) => Promise<void>): Promise<void> {
  const iterator = items[Symbol.iterator]();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let next = iterator.next(); !next.done; next = iterator.next()) await run(next.value);
    }),
  );
}

const child = spawn(process.execPath, [...serverFlags(), MAIN, "serve"], { env, stdio: ["ignore", "pipe", "inherit"] });
let banner = "";
await new Promise<void>((resolve, reject) => {
  child.on("exit", (code) => reject(new Error(`the server exited (${code}): ${banner}`)));
  child.stdout.on("data", (chunk: Buffer) => {
    banner += chunk.toString();
    if (banner.includes("Rookery is serving")) resolve();
  });
});
const url = `http://127.0.0.1:${PORT}`;
const ownerKey = /key=([A-Za-z0-9]{32})/.exec(banner)?.[1] ?? "";
const callers: Caller[] = [{ name: "owner", authorization: basicAuth("owner@rookery.local", ownerKey) }];
for (const [name, role, bot] of [["admin", "admin", false], ["member", "member", false], ["guest", "guest", false], ["bot", "member", true]] as const) {
  const created = JSON.parse(execFileSync(process.execPath, [MAIN, "create-user", "--email", `${name}@fuzz.test`, "--name", name, "--role", role, ...(bot ? ["--bot"] : []), "--json"], { env }).toString()) as { email: string; api_key: string };
  callers.push({ name, authorization: basicAuth(created.email, created.api_key) });
}
callers.push({ name: "anonymous", authorization: undefined }, { name: "bad key", authorization: basicAuth("member@fuzz.test", "x".repeat(32)) });
const endpoints = fuzzableEndpoints(allEndpoints);
const pid = child.pid ?? 0;

const before = await serverRss(pid, 1000);
const byStatus = new Map<number, number>();
let errors = 0;
let nonEnvelope = 0;
let transport = 0;
const examples: string[] = [];
const started = performance.now();
const requests = function* (): Generator<FuzzRequest> {
  // Generated in slices, so the requests are not all held at once.
  for (let done = 0; done < REQUESTS; done += 1000) {
    yield* fc.sample(fuzzRequest(endpoints, callers), { numRuns: Math.min(1000, REQUESTS - done), seed: SEED + done });
  }
};
await pool(requests(), async (request) => {
  try {
    const answer = await send(url, request);
    byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    const fault = faultOf(answer);
    if (fault && answer.status >= 500) errors++;
    else if (fault) nonEnvelope++;
    if (fault && examples.length < 10) examples.push(`${request.method} ${request.path.slice(0, 100)}: ${fault}`);
  } catch {
    transport++;
  }
});
const seconds = (performance.now() - started) / 1000;
const after = await serverRss(pid, QUIET_MS);
console.log(`fuzz (seed ${SEED}): ${REQUESTS} requests in ${seconds.toFixed(1)} s (${(REQUESTS / seconds).toFixed(0)}/s), ${endpoints.length} endpoints, ${callers.length} callers`);
console.log(`  by status: ${[...byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(", ")}`);
console.log(`  5xx: ${errors}; non-envelope answers: ${nonEnvelope}; connections reset: ${transport}`);
for (const example of examples) console.log(`    ${example}`);
console.log(`  server RSS before ${mb(before)} MB, after (${QUIET_MS / 1000} s quiet) ${mb(after)} MB: ${(after / before).toFixed(2)}× (target ≤ 1.5×)`);
console.log(`  the server holds ${await serverFigures()}`);

const floodBefore = after;
const username = `${"a".repeat(100 * 1024)}@fuzz.test`;
const floodStarted = performance.now();
let refused = 0;
await pool(
  Array.from({ length: FLOOD }, (_, i) => i),
  async (i) => {
    const body = Buffer.from(new URLSearchParams({ username: `${i}${username}`, password: "x" }).toString());
    const answer = await send(url, { method: "POST", path: "/api/v1/fetch_api_key", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    if (answer.status === 400) refused++;
  },
);
const floodAfter = await serverRss(pid, QUIET_MS);
console.log(
  `anonymous flood: ${FLOOD} fetch_api_key calls with 100 KB usernames in ${((performance.now() - floodStarted) / 1000).toFixed(1)} s, ${refused} answered 400; ` +
    `server RSS ${mb(floodBefore)} → ${mb(floodAfter)} MB (${floodAfter >= floodBefore ? "+" : ""}${mb(floodAfter - floodBefore)} MB, target ≤ 20 MB)`,
);
child.kill("SIGTERM");
await new Promise((resolve) => child.on("exit", resolve));
fs.rmSync(dataDir, { recursive: true, force: true });
