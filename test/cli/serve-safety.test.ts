import { execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCommand } from "../harness/build.js";
import { freePort, spawnServer } from "../harness/process.js";

const run = promisify(execFile);
let main: string;
let remove: () => void;
const dirs: string[] = [];

beforeAll(async () => {
  ({ main, remove } = await buildCommand("serve-safety"));
}, 120_000);
afterAll(() => {
  remove();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-safety-"));
  dirs.push(dir);
  return dir;
}

function env(dir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ROOKERY_DATA_DIR: dir, ROOKERY_PORT: String(port), ROOKERY_LOG_LEVEL: "warn", ...extra };
}

/** Runs `rookery serve` expecting it to refuse: its exit code and what it wrote. */
async function refused(environment: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    await run("node", [main, "serve"], { env: environment, timeout: 20_000 });
    throw new Error("the server started");
  } catch (failure) {
    const f = failure as { code: number; stdout: string; stderr: string };
    return { code: f.code, stdout: f.stdout, stderr: f.stderr };
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once("exit", resolve)));
}

describe("one server per data folder", () => {
  it("refuses a second server with one line naming the first; a SIGKILL and a clean stop both release the folder", async () => {
    const dir = dataDir();
    const first = await spawnServer(main, env(dir, await freePort()));
    const second = await refused(env(dir, await freePort()));
    expect(second).toEqual({
      code: 1,
      stdout: "",
      stderr: `rookery: the data folder ${dir} is in use by another Rookery server (process ${first.child.pid}); stop it first, or give this one another ROOKERY_DATA_DIR\n`,
    });
    // The first server still serves.
    expect((await fetch(`${new URL(/site=(\S+)/.exec(first.out())![1]!).origin}/health`)).status).toBe(200);

    first.child.kill("SIGKILL");
    await exited(first.child);
    const afterCrash = await spawnServer(main, env(dir, await freePort()));
    expect(afterCrash.out()).toMatch(/^Rookery is serving http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(await refused(env(dir, await freePort()))).toMatchObject({ code: 1, stderr: expect.stringContaining(`(process ${afterCrash.child.pid})`) });

    afterCrash.child.kill("SIGTERM");
    expect(await exited(afterCrash.child)).toBe(0);
    expect(fs.existsSync(path.join(dir, "rookery.pid"))).toBe(false);
    const afterStop = await spawnServer(main, env(dir, await freePort()));
    afterStop.child.kill("SIGTERM");
    expect(await exited(afterStop.child)).toBe(0);
  }, 60_000);

  it("lets CLI commands use the folder of a running server", async () => {
    const dir = dataDir();
    const server = await spawnServer(main, env(dir, await freePort()));
    try {
      const { stdout } = await run("node", [main, "create-user", "--email", "ann@acme.test", "--name", "Ann", "--json"], { env: env(dir, 0) });
      expect(JSON.parse(stdout)).toMatchObject({ realm_id: 1, email: "ann@acme.test" });
    } finally {
      server.child.kill("SIGTERM");
      await exited(server.child);
    }
  }, 30_000);
});

describe("listening on every address", () => {
  it("needs ROOKERY_EXTERNAL_URL, and then prints that URL in the banner and the zuliprc", async () => {
    for (const host of ["0.0.0.0", "::"]) {
      const port = await freePort();
      expect(await refused(env(dataDir(), port, { ROOKERY_HOST: host }))).toEqual({
        code: 1,
        stdout: "",
        stderr: `rookery: ROOKERY_HOST=${host} listens on every address, so the URL clients use cannot be guessed: set ROOKERY_EXTERNAL_URL (e.g. http://chat.example.com:${port})\n`,
      });
    }
    const dir = dataDir();
    const server = await spawnServer(main, env(dir, await freePort(), { ROOKERY_HOST: "0.0.0.0", ROOKERY_EXTERNAL_URL: "https://chat.example.com/" }));
    try {
      expect(server.out()).toContain("  URL:      https://chat.example.com\n");
      expect(server.out()).toContain("site=https://chat.example.com\n");
      expect(server.out()).toContain("Rookery is serving https://chat.example.com\n");
      expect(server.out()).not.toContain("0.0.0.0");
    } finally {
      server.child.kill("SIGTERM");
      await exited(server.child);
    }
  }, 30_000);

  it("makes a usable URL from an IPv6 listening address", async () => {
    const port = await freePort();
    const server = await spawnServer(main, env(dataDir(), port, { ROOKERY_HOST: "::1" }));
    try {
      expect(server.out()).toContain(`Rookery is serving http://[::1]:${port}\n`);
    } catch (error) {
      if (server.out().includes("EADDRNOTAVAIL")) return; // no IPv6 loopback on this machine
      throw error;
    } finally {
      server.child.kill("SIGTERM");
      await exited(server.child);
    }
  }, 30_000);
});

describe("request logs", () => {
  it("logs GET /health at debug level only, and every other request at info with the caller's address", async () => {
    const lines = async (level: string) => {
      const port = await freePort();
      const server = await spawnServer(main, env(dataDir(), port, { ROOKERY_LOG_LEVEL: level }));
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`)).status).toBe(200);
      server.child.kill("SIGTERM");
      await exited(server.child);
      return server
        .out()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { level: number; msg: string; route?: string; address?: string })
        .filter((line) => line.msg === "request")
        .map(({ level, route, address }) => ({ level, route, address }));
    };
    expect(await lines("info")).toEqual([{ level: 30, route: "/api/v1/server_settings", address: "127.0.0.1" }]);
    expect(await lines("debug")).toEqual([
      { level: 20, route: "/health", address: "127.0.0.1" },
      { level: 30, route: "/api/v1/server_settings", address: "127.0.0.1" },
    ]);
  }, 30_000);
});
