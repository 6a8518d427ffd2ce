import { execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCommand } from "../harness/build.js";
import { freePort, spawnServer } from "../harness/process.js";
import { makeCertificate, rawRequest } from "../harness/tls.js";

const run = promisify(execFile);
let main: string;
let remove: () => void;
let dir: string;

beforeAll(async () => {
  ({ main, remove } = await buildCommand("tls"));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-tls-"));
}, 120_000);
afterAll(() => {
  remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

function env(dataDir: string, port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_PORT: String(port), ROOKERY_LOG_LEVEL: "info", ...extra };
}

async function refused(environment: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  try {
    await run("node", [main, "serve"], { env: environment, timeout: 20_000 });
    throw new Error("the server started");
  } catch (failure) {
    const f = failure as { code: number; stderr: string };
    return { code: f.code, stderr: f.stderr };
  }
}

async function logged(out: () => string, msg: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const line = out()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === msg);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never logged "${msg}": ${out()}`);
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once("exit", resolve)));
}

describe("HTTPS without a proxy (ROOKERY_TLS_CERT, ROOKERY_TLS_KEY)", () => {
  it("serves HTTPS with the configured certificate and takes a renewed one on SIGHUP, keeping the old one when the new pair is unusable", async () => {
    const first = await makeCertificate(dir, "first", "first.example");
    const second = await makeCertificate(dir, "second", "second.example");
    const live = { certFile: path.join(dir, "live.crt"), keyFile: path.join(dir, "live.key") };
    fs.copyFileSync(first.certFile, live.certFile);
    fs.copyFileSync(first.keyFile, live.keyFile);
    const port = await freePort();
    const dataDir = path.join(dir, "data");
    const server = await spawnServer(main, env(dataDir, port, { ROOKERY_TLS_CERT: live.certFile, ROOKERY_TLS_KEY: live.keyFile }));
    try {
      const url = `https://127.0.0.1:${port}`;
      expect(server.out()).toContain(`site=${url}\n`);
      expect(server.out()).toContain(`Rookery is serving ${url}\n`);
      const key = /key=([A-Za-z0-9]{32})/.exec(server.out())![1]!;
      const auth = { authorization: "Basic " + Buffer.from(`owner@rookery.local:${key}`).toString("base64") };
      const me = await rawRequest(`${url}/api/v1/users/me`, { ca: first.cert, headers: auth });
      expect([me.status, (JSON.parse(me.text) as { email: string }).email, me.peerCertificate]).toEqual([200, "owner@rookery.local", "first.example"]);
      // Plain HTTP on the HTTPS port is not served.
      await expect(rawRequest(`http://127.0.0.1:${port}/health`)).rejects.toThrow();

      // A key that does not belong to the certificate: logged, the old pair stays.
      fs.copyFileSync(second.certFile, live.certFile);
      server.child.kill("SIGHUP");
      expect(await logged(server.out, "TLS certificate not reloaded; still serving the previous one")).toMatchObject({ level: 50 });
      expect((await rawRequest(`${url}/health`, { ca: first.cert })).peerCertificate).toBe("first.example");

      fs.copyFileSync(second.keyFile, live.keyFile);
      server.child.kill("SIGHUP");
      expect(await logged(server.out, "TLS certificate reloaded")).toMatchObject({ level: 30, subject: "CN=second.example" });
      const renewed = await rawRequest(`${url}/api/v1/users/me`, { ca: second.cert, headers: auth });
      expect([renewed.status, renewed.peerCertificate]).toEqual([200, "second.example"]);
      await expect(rawRequest(`${url}/health`, { ca: first.cert })).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
    } finally {
      server.child.kill("SIGTERM");
      expect(await exited(server.child)).toBe(0);
    }
  }, 60_000);

  it("refuses to start with one line when the files are missing, unreadable, mismatched, or half-configured", async () => {
    const a = await makeCertificate(dir, "a");
    const b = await makeCertificate(dir, "b");
    const port = await freePort();
    const dataDir = path.join(dir, "refused");
    expect(await refused(env(dataDir, port, { ROOKERY_TLS_CERT: a.certFile }))).toEqual({ code: 1, stderr: "rookery: ROOKERY_TLS_CERT and ROOKERY_TLS_KEY go together: set both to serve HTTPS, or neither\n" });
    expect(await refused(env(dataDir, port, { ROOKERY_TLS_KEY: a.keyFile }))).toEqual({ code: 1, stderr: "rookery: ROOKERY_TLS_CERT and ROOKERY_TLS_KEY go together: set both to serve HTTPS, or neither\n" });
    const missing = path.join(dir, "missing.crt");
    expect(await refused(env(dataDir, port, { ROOKERY_TLS_CERT: missing, ROOKERY_TLS_KEY: a.keyFile }))).toEqual({
      code: 1,
      stderr: `rookery: ROOKERY_TLS_CERT cannot be read: ENOENT: no such file or directory, open '${missing}'\n`,
    });
    const mismatched = await refused(env(dataDir, port, { ROOKERY_TLS_CERT: a.certFile, ROOKERY_TLS_KEY: b.keyFile }));
    expect(mismatched.code).toBe(1);
    expect(mismatched.stderr).toMatch(/^rookery: ROOKERY_TLS_CERT and ROOKERY_TLS_KEY cannot be used together: .*key values mismatch\n$/);
    expect(await refused(env(dataDir, port, { ROOKERY_TLS_CERT: a.certFile, ROOKERY_TLS_KEY: a.keyFile, ROOKERY_DATABASE_URL: "postgres://127.0.0.1/x", ROOKERY_REDIS_URL: "redis://127.0.0.1:1" }))).toEqual({
      code: 1,
      stderr: "rookery: ROOKERY_TLS_CERT serves one process; in cluster mode, end TLS at the load balancer (deploy/nginx.conf)\n",
    });
  }, 60_000);
});
