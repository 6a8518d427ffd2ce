import cluster, { type Worker } from "node:cluster";
import http from "node:http";
import type { FastifyInstance } from "fastify";
import { ConfigError, type Config } from "../config.js";

/** What a worker tells the primary once it serves. */
const READY = "rookery:ready";

/**
 * `rookery serve --workers N`: N processes of one cluster on this machine, sharing the listening
 * port (node:cluster hands out connections). The first worker starts alone (it migrates and, on
 * an empty database, creates the organisation); the others follow. A worker that dies is replaced;
 * SIGTERM or SIGINT stops every worker cleanly (their queues are handed over), then the primary.
 */
export async function serveWorkers(config: Config, count: number): Promise<void> {
  if (config.redisUrl === null) throw new ConfigError("--workers needs cluster mode: set ROOKERY_REDIS_URL and a postgres:// ROOKERY_DATABASE_URL");
  let stopping = false;
  const fork = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork();
      const onExit = (code: number) => reject(new Error(`a worker exited with code ${code} before serving`));
      worker.once("exit", onExit);
      worker.on("message", (message: unknown) => {
        if (message !== READY) return;
        worker.off("exit", onExit);
        resolve(worker);
      });
    });
  const workers = new Set<Worker>([await fork()]);
  for (const worker of await Promise.all(Array.from({ length: count - 1 }, fork))) workers.add(worker);
  cluster.on("exit", (worker, code, signal) => {
    workers.delete(worker);
    if (stopping) return;
    process.stderr.write(`rookery: worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    fork().then(
      (replacement) => workers.add(replacement),
      (error: unknown) => process.stderr.write(`rookery: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const exits = [...workers].map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once("exit", () => resolve()))));
    for (const worker of workers) worker.process.kill("SIGTERM");
    void Promise.all(exits).then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.stdout.write(`Rookery is serving ${config.externalUrl} with ${count} workers\n`);
}

/**
 * In a worker: a listener of its own on the loopback (the shared port reaches any worker), for the
 * requests other processes forward to the queues this worker holds. Resolves to its address.
 */
export async function listenInternal(app: FastifyInstance): Promise<string> {
  const server = http.createServer((request, response) => app.routing(request, response));
  await new Promise<void>((resolve) => server.listen({ host: "127.0.0.1", port: 0, exclusive: true }, resolve));
  server.unref();
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the internal listener has no port");
  return `http://127.0.0.1:${address.port}`;
}

/** Tells the primary this worker serves. */
export function workerReady(): void {
  process.send?.(READY);
}

/** Whether this process is a worker of `rookery serve --workers`. */
export function isWorker(): boolean {
  return cluster.isWorker;
}
