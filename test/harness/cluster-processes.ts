import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll } from "vitest";
import { freshPostgres } from "./postgres.js";
import { freePort, spawnServer } from "./process.js";
import { startProxy, type Proxy } from "./proxy.js";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

/** A Redis server of a test's own (it may be killed and restarted), with no persistence. */
export interface TestRedis {
  url: string;
  port: number;
  /** Kills it outright and starts it again, empty, on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `redis-server` on a free port. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-redis-"));
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: "ignore" });
    const probe = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
    probe.on("error", () => undefined);
    await probe.connect().catch(() => undefined);
    await probe.ping();
    probe.disconnect();
  };
  const kill = async () => {
    const current = child;
    if (!current || current.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      current.once("exit", () => resolve());
      current.kill("SIGKILL");
    });
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart() {
      await kill();
      await launch();
    },
    async stop() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Builds dist/<name>/rookery.js (a build of the test's own: other tests build dist/rookery.js meanwhile). */
export async function buildMain(name: string): Promise<{ main: string; remove: () => void }> {
  const dir = path.join(ROOT, "dist", `${name}-${process.pid}`);
  const main = path.join(dir, "rookery.js");
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { build: string } }).scripts;
  await run("sh", ["-c", `npx ${scripts.build.replace("--outfile=dist/rookery.js", `--outfile=${main}`)}`], { cwd: ROOT });
  return { main, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** One spawned `rookery serve` of a cluster. */
export interface Member {
  child: ChildProcess;
  url: string;
  out: () => string;
}

/** N spawned processes on one fresh database and a Redis, behind a round-robin proxy. */
export interface ProcessCluster {
  members: Member[];
  proxy: Proxy;
  /** The owner's credentials, printed by the first process on the empty database. */
  auth: { authorization: string };
  /** The environment the processes run with (the rookery command run with it joins the cluster). */
  env: NodeJS.ProcessEnv;
  /** Starts one more process of the same cluster. */
  spawn(): Promise<Member>;
  stop(): Promise<void>;
}

/** Starts `count` processes: the first alone (it creates the organisation), then the others. */
export async function startProcessCluster(main: string, pgAdminUrl: string, redisUrl: string, count = 3, redisUrlOf: (index: number) => string = () => redisUrl): Promise<ProcessCluster> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-cluster-procs-"));
  const { url: databaseUrl, drop } = await freshPostgres(pgAdminUrl);
  const env = {
    ...process.env,
    ROOKERY_DATA_DIR: dataDir,
    ROOKERY_DATABASE_URL: databaseUrl,
    ROOKERY_REDIS_URL: redisUrl,
    ROOKERY_LOG_LEVEL: "warn",
    ROOKERY_RATE_LIMIT_PER_MINUTE: "0",
    ROOKERY_ANON_RATE_LIMIT_PER_MINUTE: "0",
  };
  let spawned = 0;
  const spawnOne = async (): Promise<Member> => {
    const index = spawned++;
    const port = await freePort();
    const { child, out } = await spawnServer(main, { ...env, ROOKERY_PORT: String(port), ROOKERY_REDIS_URL: redisUrlOf(index) });
    return { child, out, url: `http://127.0.0.1:${port}` };
  };
  const members = [await spawnOne()];
  const key = /key=([A-Za-z0-9]{32})/.exec(members[0]!.out())?.[1];
  if (!key) throw new Error(`no API key printed: ${members[0]!.out()}`);
  members.push(...(await Promise.all(Array.from({ length: count - 1 }, spawnOne))));
  const proxy = await startProxy(members.map((m) => m.url));
  return {
    members,
    proxy,
    auth: { authorization: "Basic " + Buffer.from(`owner@rookery.local:${key}`).toString("base64") },
    env,
    spawn: spawnOne,
    async stop() {
      await proxy.close();
      await Promise.all(
        members.map(
          (m) =>
            new Promise<void>((resolve) => {
              if (m.child.exitCode !== null || m.child.signalCode !== null) return resolve();
              m.child.once("exit", () => resolve());
              m.child.kill("SIGKILL");
            }),
        ),
      );
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The hooks of a test file whose tests run real process clusters (on `pgAdminUrl`; none when it is
 * undefined, as when the file skips): the server built and a Redis of the file's own before all;
 * after each test, its cluster stopped and that Redis emptied. `start` starts a test's cluster.
 */
export function processClusterFile(name: string, pgAdminUrl: string | undefined): { redis: () => TestRedis; start: (count?: number, redisUrlOf?: (index: number) => string) => Promise<ProcessCluster> } {
  let build: { main: string; remove: () => void } | undefined;
  let redis: TestRedis | undefined;
  let cluster: ProcessCluster | undefined;
  beforeAll(async () => {
    if (pgAdminUrl === undefined) return;
    build = await buildMain(name);
    redis = await startRedis();
  }, 120_000);
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
    if (!redis) return;
    const r = new Redis(redis.url);
    await r.flushall();
    r.disconnect();
  });
  afterAll(async () => {
    await redis?.stop();
    build?.remove();
  });
  const ready = (): { main: string; redis: TestRedis } => {
    if (!build || !redis || pgAdminUrl === undefined) throw new Error("no cluster backends for this file");
    return { main: build.main, redis };
  };
  return {
    redis: () => ready().redis,
    start: async (count?: number, redisUrlOf?: (index: number) => string) => (cluster = await startProcessCluster(ready().main, pgAdminUrl!, ready().redis.url, count, redisUrlOf)),
  };
}
