/**
 * Rookery servers a bench runs as child processes of the built `dist/rookery.js` (with the bench's
 * node flags and environment), and plain API calls to them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { freePort } from "../test/harness/process.js";
import { serverEnv, serverFlags } from "./server-flags.js";

const MAIN = path.resolve(import.meta.dirname, "../dist/rookery.js");

export interface BenchServer {
  child: ChildProcess;
  port: number;
  /** What it printed so far. */
  out: string;
}

/**
 * Starts `rookery serve` on a free port and waits for its ready line. Rate limits are off unless
 * `env` sets them. `pin`: on CPU 0 only (taskset).
 */
export async function startBuilt(env: Record<string, string>, pin = false): Promise<BenchServer> {
  const port = await freePort();
  const command = [process.execPath, ...serverFlags(), MAIN, "serve"];
  const [file, args] = pin ? ["taskset", ["-c", "0", ...command]] : [command[0]!, command.slice(1)];
  const child = spawn(file, args, {
    env: { ...process.env, ...serverEnv(), ROOKERY_LOG_LEVEL: "warn", ROOKERY_RATE_LIMIT_PER_MINUTE: "0", ROOKERY_ANON_RATE_LIMIT_PER_MINUTE: "0", ...env, ROOKERY_PORT: String(port) },
  });
  const server: BenchServer = { child, port, out: "" };
  child.stdout?.on("data", (d: Buffer) => (server.out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (server.out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${server.out}`)));
    const timer = setInterval(() => {
      if (!server.out.includes("Rookery is serving")) return;
      clearInterval(timer);
      resolve();
    }, 20);
  });
  return server;
}

/** Kills a server with SIGKILL (if it still runs) and waits until it has gone. */
export async function killServer(server: BenchServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    server.child.once("exit", () => resolve());
    server.child.kill("SIGKILL");
  });
}

/** One call to `/api/v1<pathAndQuery>` with Basic auth and an optional form body, through `agent`. */
export function apiRequest(agent: http.Agent, port: number, auth: string, method: string, pathAndQuery: string, form?: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: `/api/v1${pathAndQuery}`, agent, headers: { authorization: auth, ...(body ? { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } : {}) } }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
