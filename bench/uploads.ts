/**
 * Uploads: 100 files of 5 MB from 10 clients through POST /user_uploads, against a bare Fastify
 * handler streaming the same multipart bodies to disk in the same run (throughput ratio, target
 * ≥ 0.7), with the server's RSS growth while it takes them (target ≤ 30 MB); then GET /users/me
 * p99 while 50 large images are thumbnailed, against the same when idle (target ≤ 2×).
 * The upload clients run in a child process, so the RSS measured is the server's alone.
 *
 *   npx vite-node bench/uploads.ts          (ROOKERY_BENCH_SHORT=1 for a quick run; BENCH_CLIENTS=n to change the 10 clients)
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import multipart from "@fastify/multipart";
import autocannon from "autocannon";
import Fastify from "fastify";
import pino from "pino";
import sharp from "sharp";
import { createRealm } from "../src/actions/realms.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { basicAuth } from "./auth.js";
import { runUnderServerFlags } from "./server-flags.js";
import { SHORT } from "./short.js";

runUnderServerFlags(import.meta.filename);

const FILES = SHORT ? 20 : 100;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
const FILE_BYTES = 5 * 1000 * 1000;
const IMAGES = SHORT ? 10 : 50;
const LATENCY_SECONDS = SHORT ? 3 : 10;

// The client: `count` POSTs of one multipart body, `clients` at a time, timed from the first to the last answer.
const CLIENT = `
const fs = require("node:fs");
const { url, authorization, boundary, bodyFile, count, clients } = JSON.parse(process.env.BENCH_CLIENT);
const body = fs.readFileSync(bodyFile);
let next = 0, failures = 0;
async function worker() {
  while (next < count) {
    next++;
    const res = await fetch(url, { method: "POST", headers: { authorization, "content-type": "multipart/form-data; boundary=" + boundary }, body });
    if (res.status !== 200) { failures++; console.error(res.status, await res.text()); } else await res.arrayBuffer();
  }
}
const t0 = performance.now();
Promise.all(Array.from({ length: clients }, worker)).then(() => {
  process.stdout.write(JSON.stringify({ seconds: (performance.now() - t0) / 1000, failures }));
});
`;

interface ClientRun {
  seconds: number;
  failures: number;
}

function runClients(url: string, authorization: string, boundary: string, bodyFile: string): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", CLIENT], { env: { ...process.env, BENCH_CLIENT: JSON.stringify({ url, authorization, boundary, bodyFile, count: FILES, clients: CLIENTS }) }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as ClientRun) : reject(new Error(`client exited ${code}`))));
  });
}

/** Samples this process's RSS until stopped; returns the peak. */
function rssPeak(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss);
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-uploads-"));
  const boundary = "----rookerybench" + randomBytes(8).toString("hex");
  const bodyFile = path.join(dataDir, "body.bin");
  const payload = randomBytes(FILE_BYTES);
  fs.writeFileSync(
    bodyFile,
    Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`), payload, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  );
  const megabytes = (FILES * FILE_BYTES) / 1e6;

  // Baseline: a bare Fastify handler streaming each file to disk.
  const bare = Fastify();
  await bare.register(multipart, { limits: { fileSize: 25 * 1024 * 1024 } });
  const bareDir = path.join(dataDir, "bare");
  fs.mkdirSync(bareDir);
  let n = 0;
  bare.post("/upload", async (request) => {
    const part = await request.file();
    if (!part) throw new Error("no file");
    await pipeline(part.file, fs.createWriteStream(path.join(bareDir, String(n++))));
    return { ok: true };
  });
  const bareUrl = await bare.listen({ host: "127.0.0.1", port: 0 });

  const config = { ...loadConfig({}), dataDir, databaseUrl: `sqlite:${path.join(dataDir, "bench.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  const { owner } = await createRealm(app.ctx, { name: "Bench", stringId: "", ownerEmail: "owner@zulip.com", ownerName: "Owner", password: "bench-password" });
  const base = await app.http.listen({ host: "127.0.0.1", port: 0 });
  const authorization = basicAuth(owner.delivery_email, owner.api_key);

  // Alternating rounds, keeping each side's fastest: the machine's other load falls on both alike.
  const bareRuns: ClientRun[] = [];
  const rookeryRuns: ClientRun[] = [];
  let rssGrowth = 0;
  let bareGrowth = 0;
  for (let round = 0; round < 2; round++) {
    const bareBefore = process.memoryUsage().rss;
    const stopBareRss = rssPeak();
    bareRuns.push(await runClients(`${bareUrl}/upload`, "", boundary, bodyFile));
    bareGrowth = Math.max(bareGrowth, (stopBareRss() - bareBefore) / 1e6);
    fs.rmSync(bareDir, { recursive: true, force: true });
    fs.mkdirSync(bareDir);
    const rssBefore = process.memoryUsage().rss;
    const stopRss = rssPeak();
    rookeryRuns.push(await runClients(`${base}/api/v1/user_uploads`, authorization, boundary, bodyFile));
    rssGrowth = Math.max(rssGrowth, (stopRss() - rssBefore) / 1e6);
    fs.rmSync(path.join(dataDir, "uploads"), { recursive: true, force: true });
  }
  await bare.close();
  const fastest = (runs: ClientRun[]) => runs.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
  const baseline = fastest(bareRuns);
  const rookery = fastest(rookeryRuns);
  if ([...bareRuns, ...rookeryRuns].some((run) => run.failures > 0)) throw new Error("some uploads failed");

  // GET /users/me while images are thumbnailed, against idle.
  const latency = async () => {
    const result = await autocannon({ url: `${base}/api/v1/users/me`, headers: { authorization }, connections: 10, duration: LATENCY_SECONDS, workers: 1 });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.latency.p99;
  };
  const idle = await latency();
  const image = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } }).jpeg({ quality: 90 }).toBuffer();
  app.ctx.thumbnails.pause();
  for (let i = 0; i < IMAGES; i++) {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), `photo${i}.jpg`);
    const res = await fetch(`${base}/api/v1/user_uploads`, { method: "POST", headers: { authorization }, body: form });
    if (res.status !== 200) throw new Error(await res.text());
  }
  const queued = app.ctx.thumbnails.size;
  const t0 = performance.now();
  app.ctx.thumbnails.resume();
  const busy = await latency();
  const leftAfter = app.ctx.thumbnails.size;
  await app.ctx.thumbnails.idle();
  const thumbnailSeconds = (performance.now() - t0) / 1000;
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const rate = (run: ClientRun) => megabytes / run.seconds;
  console.log(`POST /user_uploads, ${FILES} files of 5 MB from ${CLIENTS} clients: ${rate(rookery).toFixed(0)} MB/s; bare Fastify to disk ${rate(baseline).toFixed(0)} MB/s; ratio ${(rate(rookery) / rate(baseline)).toFixed(2)} (target ≥ 0.7)`);
  console.log(`server RSS growth while uploading (largest of the two rounds): ${rssGrowth.toFixed(1)} MB (target ≤ 30 MB); the bare handler's, measured the same way: ${bareGrowth.toFixed(1)} MB`);
  console.log(`GET /users/me p99: idle ${idle} ms, while ${queued} images of 4000×3000 are thumbnailed ${busy} ms (${leftAfter} still queued at the end; all done in ${thumbnailSeconds.toFixed(1)} s); ratio ${(busy / Math.max(idle, 1)).toFixed(2)} (target ≤ 2)`);
}

await main();
