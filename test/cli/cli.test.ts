import { execFile, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, spawnServer } from "../harness/process.js";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const MAIN = path.join(ROOT, "dist/rookery.js");
let dataDir: string;

beforeAll(async () => {
  await run("npm", ["run", "build", "--silent"], { cwd: ROOT });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-cli-"));
}, 120_000);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_LOG_LEVEL: "warn", ...extra };
}

async function rookery(args: string[], extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("node", [MAIN, ...args], { env: env(extra) });
    return { code: 0, stdout, stderr };
  } catch (failure) {
    const f = failure as { code: number; stdout: string; stderr: string };
    return { code: f.code, stdout: f.stdout, stderr: f.stderr };
  }
}


describe("rookery create-realm / create-user / api-key", () => {
  it("creates an organisation and prints JSON", async () => {
    const res = await rookery(["create-realm", "--name", "Acme", "--owner-email", "boss@acme.test", "--owner-name", "The Boss", "--password", "pw-123456", "--json"]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(Object.keys(out)).toEqual(["realm_id", "user_id", "email", "api_key"]);
    expect(out).toMatchObject({ realm_id: 1, user_id: 1, email: "boss@acme.test" });
    expect(out.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it("creates users with roles and bots, and prints their keys", async () => {
    const ann = JSON.parse((await rookery(["create-user", "--email", "ann@acme.test", "--name", "Ann", "--role", "admin", "--json"])).stdout);
    expect(ann).toMatchObject({ realm_id: 1, email: "ann@acme.test" });
    const bot = await rookery(["create-user", "--email", "helper-bot@acme.test", "--name", "Helper", "--bot", "--json"]);
    expect(bot.code).toBe(0);
    const key = await rookery(["api-key", "--email", "ann@acme.test"]);
    expect(key.stdout).toBe(ann.api_key + "\n");
  });

  it("fails with one line and exit code 1", async () => {
    const dup = await rookery(["create-user", "--email", "ann@acme.test", "--name", "Ann"]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toBe("rookery: Email 'ann@acme.test' already in use\n");
    const role = await rookery(["create-user", "--email", "x@acme.test", "--name", "X", "--role", "king"]);
    expect(role.code).toBe(1);
    const missing = await rookery(["api-key", "--email", "nobody@acme.test"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("rookery: No user with email nobody@acme.test\n");
    const second = await rookery(["create-realm", "--name", "Other", "--owner-email", "o@other.test", "--owner-name", "O"]);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      'rookery: An organisation already exists at this server\'s root address: "Acme" (id 1); nothing was changed. Add users to it with create-user, or pass --subdomain to create another.\n',
    );
    const badEnv = await rookery(["api-key", "--email", "ann@acme.test"], { ROOKERY_PORT: "http" });
    expect(badEnv.code).toBe(1);
    expect(badEnv.stderr).toBe('rookery: ROOKERY_PORT must be a port number (0-65535), got "http"\n');
  });

  it("prints help", async () => {
    const res = await rookery(["create-user", "--help"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("--email <email>");
  });
});

describe("rookery serve", () => {
  it("creates the first organisation once, serves it, and stops cleanly on SIGTERM", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-serve-"));
    const port = await freePort();
    const start = () => spawnServer(MAIN, env({ ROOKERY_DATA_DIR: dir, ROOKERY_PORT: String(port) }));
    const stop = async (child: ReturnType<typeof spawn>) => {
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      return exited;
    };
    const first = await start();
    const key = /key=([A-Za-z0-9]{32})/.exec(first.out())?.[1];
    expect(first.out()).toContain("email=owner@rookery.local");
    expect(first.out()).toContain(`site=http://127.0.0.1:${port}`);
    const auth = "Basic " + Buffer.from(`owner@rookery.local:${key}`).toString("base64");
    const me = await fetch(`http://127.0.0.1:${port}/api/v1/users/me`, { headers: { authorization: auth } });
    expect(((await me.json()) as { role: number }).role).toBe(100);
    expect(await stop(first.child)).toBe(0);

    const second = await start();
    expect(second.out()).toBe(`Rookery is serving http://127.0.0.1:${port}\n`);
    expect(await stop(second.child)).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it("listens with an accept queue for thousands of clients connecting at once", async (t) => {
    const ss = spawnSync("ss", ["-V"]);
    if (ss.status !== 0) return t.skip("needs ss (iproute2) to read the listening socket's queue size");
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-backlog-"));
    const server = await spawnServer(MAIN, env({ ROOKERY_DATA_DIR: dir, ROOKERY_PORT: String(port) }));
    try {
      // For a listening socket, ss shows the accept queue's size in the Send-Q column.
      const line = spawnSync("ss", ["-ltnH", `sport = :${port}`]).stdout.toString().trim();
      const somaxconn = Number(fs.readFileSync("/proc/sys/net/core/somaxconn", "utf8"));
      expect(Number(line.split(/\s+/)[2])).toBe(Math.min(4096, somaxconn));
    } finally {
      server.child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("logs JSON lines by default and readable text with ROOKERY_LOG_FORMAT=pretty; refuses bad settings with one line", async () => {
    const lines = async (extra: Record<string, string>) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-log-"));
      const server = await spawnServer(MAIN, env({ ROOKERY_DATA_DIR: dir, ROOKERY_PORT: String(await freePort()), ROOKERY_LOG_LEVEL: "info", ...extra }));
      const exited = new Promise((resolve) => server.child.on("exit", resolve));
      server.child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
      return server.out().split("\n").filter((line) => line.includes("no event queue dump from an earlier version"));
    };
    const [json] = await lines({});
    expect(JSON.parse(json ?? "")).toMatchObject({ level: 30, msg: "no event queue dump from an earlier version to load" });
    const [pretty] = await lines({ ROOKERY_LOG_FORMAT: "pretty" });
    // eslint-disable-next-line no-control-regex
    expect(pretty?.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: no event queue dump from an earlier version to load$/);
    for (const workers of ["0", "two", "1.5"]) {
      expect(await rookery(["serve", "--workers", workers])).toMatchObject({ code: 1, stderr: `rookery: --workers must be a whole number of at least 1, got "${workers}"\n` });
    }
    expect(await rookery(["serve", "--workers", "2"], { ROOKERY_DATABASE_URL: "sqlite:/tmp/x.sqlite3", ROOKERY_REDIS_URL: "redis://127.0.0.1:1" })).toMatchObject({
      code: 1,
      stderr: "rookery: ROOKERY_REDIS_URL (cluster mode) needs a postgres:// ROOKERY_DATABASE_URL; SQLite serves one process only\n",
    });
    const bad = await rookery(["serve"], { ROOKERY_LOG_FORMAT: "xml" });
    expect(bad).toMatchObject({ code: 1, stderr: 'rookery: ROOKERY_LOG_FORMAT must be one of json, pretty, got "xml"\n' });
  }, 30_000);
});
