/**
 * GET /api/v1/users/me with Basic auth against a bare Fastify hello-world, run alternately in the
 * same session (autocannon, 50 connections); prints each throughput and the ratio. Also prints the
 * server's start-to-listening time and idle RSS.
 *
 * Where `taskset` exists and there are two CPUs or more, both servers run on CPU 0 and every load
 * client on CPU 1. Left to the scheduler, the server shared a core with the client in some runs
 * and not others, and one server's figure moved by 20% between runs of the same build. Each run
 * has a client process of its own, and the order alternates round by round.
 *
 *   npm run build && npx vite-node bench/auth-read.ts [seconds-per-run] [rounds]
 *
 * ROOKERY_BENCH_SHORT=1: one round of 1-second runs.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { basicAuth } from "./auth.js";
import { sized } from "./short.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const SECONDS = sized(process.argv[2], 10, 1);
const ROUNDS = sized(process.argv[3], 2, 1);

const HELLO = `
const app = require(${JSON.stringify(path.join(ROOT, "node_modules/fastify"))})();
app.get("/api/v1/users/me", async () => ({ result: "success", msg: "", hello: "world" }));
app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) }).then(() => console.log("listening"));
`;

const PIN = spawnSync("taskset", ["-V"]).status === 0 && os.availableParallelism() >= 2;

/** The command line that runs `args` on one CPU when pinning is possible. */
function onCpu(cpu: number, args: string[]): [string, string[]] {
  return PIN ? ["taskset", ["-c", String(cpu), ...args]] : [args[0]!, args.slice(1)];
}

interface Started {
  child: ChildProcess;
  startMs: number;
}

function start(args: string[], env: NodeJS.ProcessEnv, ready: string): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(...onCpu(0, args), { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes(ready)) resolve({ child, startMs: performance.now() - t0 });
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.on("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** One load run, in a client process of its own. */
function load(url: string, headers: Record<string, string>): Promise<number> {
  const script = `
    const autocannon = require(${JSON.stringify(path.join(ROOT, "node_modules/autocannon"))});
    autocannon(${JSON.stringify({ url, connections: 50, duration: SECONDS, headers })}).then((r) =>
      console.log(JSON.stringify({ average: r.requests.average, non2xx: r.non2xx, errors: r.errors })));
  `;
  return new Promise((resolve, reject) => {
    const client = spawn(...onCpu(1, ["node", "-e", script]), { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    client.stdout.on("data", (d: Buffer) => (out += d.toString()));
    client.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`load client exited with ${code}`));
      const result = JSON.parse(out) as { average: number; non2xx: number; errors: number };
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve(result.average);
    });
  });
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-"));
  const env = { ROOKERY_DATA_DIR: dataDir, ROOKERY_PORT: "19991", ROOKERY_LOG_LEVEL: "warn", ROOKERY_RATE_LIMIT_PER_MINUTE: "0" };
  // As `npm start` runs it: the file itself, so its #! line gives node its flags.
  const rookery = await start([path.join(ROOT, "dist/rookery.js"), "serve"], env, "Rookery is serving");
  await new Promise((r) => setTimeout(r, 1000));
  const idleRss = rssMb(rookery.child.pid!);
  const apiKey = await new Promise<string>((resolve, reject) => {
    const c = spawn("node", [path.join(ROOT, "dist/rookery.js"), "api-key", "--email", "owner@rookery.local"], { env: { ...process.env, ...env } });
    let out = "";
    c.stdout.on("data", (d: Buffer) => (out += d.toString()));
    c.on("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error("api-key failed"))));
  });
  const hello = await start(["node", "-e", HELLO], { PORT: "19992" }, "listening");
  const auth = { authorization: basicAuth("owner@rookery.local", apiKey) };

  const ours: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const runs = [
      async () => base.push(await load("http://127.0.0.1:19992/api/v1/users/me", {})),
      async () => ours.push(await load("http://127.0.0.1:19991/api/v1/users/me", auth)),
    ];
    if (round % 2 === 1) runs.reverse();
    for (const run of runs) await run();
  }
  await Promise.all([stop(rookery.child), stop(hello.child)]);
  fs.rmSync(dataDir, { recursive: true, force: true });

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(PIN ? "servers on CPU 0, load clients on CPU 1" : "not pinned (no taskset, or one CPU)");
  console.log(`start to listening (spawn → ready line): ${rookery.startMs.toFixed(0)} ms (target ≤ 1000)`);
  console.log(`idle RSS after start: ${idleRss.toFixed(1)} MB (target ≤ 80)`);
  console.log(`bare Fastify hello-world: ${base.map((x) => x.toFixed(0)).join(", ")} req/s`);
  console.log(`GET /users/me (Basic auth): ${ours.map((x) => x.toFixed(0)).join(", ")} req/s`);
  console.log(`ratio (median/median): ${(median(ours) / median(base)).toFixed(3)} (target ≥ 0.75)`);
}

await main();
