import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { freePort } from "../harness/process.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Where CI ran deploy/install.sh (ROOKERY_TEST_INSTALLED=/opt/rookery); unset: the installed copy's tests skip. */
const PREFIX = process.env.ROOKERY_TEST_INSTALLED;
const INSTALL_SKIP = "installed-copy tests skipped: run deploy/install.sh, then set ROOKERY_TEST_INSTALLED to its prefix (CI does both)";
const systemInstall = PREFIX !== undefined && fs.existsSync("/etc/systemd/system/rookery.service");

/** Starts the installed server (as the user `uid`, when given) and waits for its ready line. */
async function startInstalled(env: NodeJS.ProcessEnv, ids?: { uid: number; gid: number }): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(path.join(PREFIX ?? "", "dist/rookery.js"), ["serve"], { env, ...ids });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    const timer = setInterval(() => {
      if (!out.includes("Rookery is serving")) return;
      clearInterval(timer);
      resolve();
    }, 20);
  });
  return { child, out: () => out };
}

describe("deploy/install.sh: the installed copy", () => {
  it("holds the built command and its run-time dependencies only", (t) => {
    if (!PREFIX) return t.skip(INSTALL_SKIP);
    expect(fs.statSync(path.join(PREFIX, "dist/rookery.js")).mode & 0o111).toBe(0o111);
    for (const needed of ["better-sqlite3", "pg", "ioredis", "nodemailer", "sharp"]) expect(fs.existsSync(path.join(PREFIX, "node_modules", needed, "package.json"))).toBe(true);
    for (const devOnly of ["vitest", "esbuild", "typescript", "eslint"]) expect(fs.existsSync(path.join(PREFIX, "node_modules", devOnly))).toBe(false);
    expect(fs.readFileSync(path.join(PREFIX, "deploy/rookery.service"), "utf8")).toBe(fs.readFileSync(path.join(ROOT, "deploy/rookery.service"), "utf8"));
  });

  it("serves, and its command manages users, as the unprivileged user rookery when installed as a system", async (t) => {
    if (!PREFIX) return t.skip(INSTALL_SKIP);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-installed-"));
    let ids: { uid: number; gid: number } | undefined;
    if (systemInstall && process.getuid?.() === 0) {
      ids = { uid: Number(execFileSync("id", ["-u", "rookery"]).toString()), gid: Number(execFileSync("id", ["-g", "rookery"]).toString()) };
      fs.chownSync(dataDir, ids.uid, ids.gid);
    }
    const port = await freePort();
    const env = { PATH: process.env.PATH, ROOKERY_DATA_DIR: dataDir, ROOKERY_PORT: String(port), ROOKERY_LOG_LEVEL: "warn" };
    const server = await startInstalled(env, ids);
    try {
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(await health.json()).toEqual({ result: "success", msg: "" });
      const cli = (args: string[]) => JSON.parse(execFileSync(path.join(PREFIX, "dist/rookery.js"), args, { env, ...ids }).toString()) as Record<string, unknown>;
      expect(cli(["create-user", "--email", "ann@example.test", "--name", "Ann", "--json"])).toMatchObject({ realm_id: 1, email: "ann@example.test" });
      expect((cli(["users", "--json"]).users as { email: string }[]).map((u) => u.email)).toEqual(["owner@rookery.local", "ann@example.test"]);
    } finally {
      await new Promise<void>((resolve) => {
        server.child.once("exit", () => resolve());
        server.child.kill("SIGTERM");
      });
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);

  it("as a system: the user, the data folder, the settings file, the command and the unit", (t) => {
    if (!PREFIX || !systemInstall) return t.skip("system-install tests skipped: run deploy/install.sh as root, then set ROOKERY_TEST_INSTALLED (CI does both)");
    const uid = Number(execFileSync("id", ["-u", "rookery"]).toString());
    const data = fs.statSync("/var/lib/rookery");
    expect([data.uid, data.mode & 0o777]).toEqual([uid, 0o750]);
    const settings = fs.statSync("/etc/rookery/rookery.env");
    expect([settings.uid, settings.gid, settings.mode & 0o777]).toEqual([0, Number(execFileSync("id", ["-g", "rookery"]).toString()), 0o640]);
    expect(fs.realpathSync("/usr/local/bin/rookery")).toBe(fs.realpathSync(path.join(PREFIX, "dist/rookery.js")));
    expect(fs.readFileSync("/etc/systemd/system/rookery.service", "utf8")).toContain(`ExecStart=${PREFIX}/dist/rookery.js serve`);
    expect(execFileSync("getent", ["passwd", "rookery"]).toString().trim().split(":").slice(5)).toEqual(["/var/lib/rookery", "/usr/sbin/nologin"]);
  });
});

describe("deploy/rookery.service", () => {
  const analyze = spawnSync("systemd-analyze", ["--version"]);
  it("passes systemd-analyze verify without a word, and its exposure is low", (t) => {
    if (analyze.status !== 0) return t.skip("needs systemd-analyze (Debian package systemd)");
    if (!PREFIX || !systemInstall) return t.skip("needs the unit installed by deploy/install.sh as root (its ExecStart must exist): set ROOKERY_TEST_INSTALLED");
    const verify = spawnSync("systemd-analyze", ["verify", "/etc/systemd/system/rookery.service"]);
    expect({ status: verify.status, out: verify.stdout.toString() + verify.stderr.toString() }).toEqual({ status: 0, out: "" });
    const security = spawnSync("systemd-analyze", ["security", "--offline=yes", "/etc/systemd/system/rookery.service"]).stdout.toString();
    const exposure = Number(/Overall exposure level for rookery\.service: ([\d.]+)/.exec(security)?.[1]);
    expect(exposure).toBeLessThanOrEqual(2);
  });

  it("runs as its own user with a read-only system and only its data folder writable", () => {
    const unit = fs.readFileSync(path.join(ROOT, "deploy/rookery.service"), "utf8");
    const settings = new Map(unit.split("\n").filter((line) => /^\w+=/.test(line)).map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
    expect(Object.fromEntries(["User", "ProtectSystem", "ProtectHome", "PrivateTmp", "NoNewPrivileges", "StateDirectory", "CapabilityBoundingSet"].map((key) => [key, settings.get(key)]))).toEqual({
      User: "rookery",
      ProtectSystem: "strict",
      ProtectHome: "yes",
      PrivateTmp: "yes",
      NoNewPrivileges: "yes",
      StateDirectory: "rookery",
      CapabilityBoundingSet: "",
    });
    expect(settings.has("ReadWritePaths")).toBe(false);
  });
});

describe("Dockerfile and compose files", () => {
  it("the image is deploy/install.sh run in a Node.js image, and runs as rookery", () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
    const runs = dockerfile.split("\n").filter((line) => line.startsWith("RUN "));
    expect(runs.filter((line) => line.includes("deploy/install.sh"))).toEqual(["RUN /src/deploy/install.sh /opt/rookery && rm -rf /src /root/.npm"]);
    expect(dockerfile).toMatch(/^USER rookery$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/opt\/rookery\/dist\/rookery\.js"\]$/m);
    expect(fs.readFileSync(path.join(ROOT, ".dockerignore"), "utf8").split("\n")).toEqual(expect.arrayContaining(["node_modules", "dist", ".git"]));
  });

  it("compose.yaml: Rookery alone on SQLite in a volume", () => {
    const compose = parse(fs.readFileSync(path.join(ROOT, "compose.yaml"), "utf8")) as { services: Record<string, { build: string; volumes: string[]; environment: Record<string, string> }> };
    expect(Object.keys(compose.services)).toEqual(["rookery"]);
    expect(compose.services.rookery).toMatchObject({ build: ".", volumes: ["rookery-data:/var/lib/rookery"] });
    expect(compose.services.rookery?.environment.ROOKERY_DATABASE_URL).toBeUndefined();
  });

  it("deploy/compose.cluster.yaml: three processes on PostgreSQL and Redis behind deploy/haproxy.cfg", () => {
    type Service = { build?: string; environment?: Record<string, string>; command?: string[]; volumes?: string[] };
    const compose = parse(fs.readFileSync(path.join(ROOT, "deploy/compose.cluster.yaml"), "utf8"), { merge: true }) as { services: Record<string, Service>; networks: { default: { ipam: { config: { subnet: string }[] } } } };
    expect(Object.keys(compose.services).sort()).toEqual(["haproxy", "postgres", "redis", "rookery1", "rookery2", "rookery3"]);
    const subnet = compose.networks.default.ipam.config[0]?.subnet;
    for (const name of ["rookery1", "rookery2", "rookery3"]) {
      const service = compose.services[name];
      expect(service?.build).toBe("..");
      expect(service?.volumes).toEqual(["rookery-data:/var/lib/rookery"]);
      expect(service?.environment).toMatchObject({
        ROOKERY_DATABASE_URL: "postgres://rookery:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}@postgres:5432/rookery",
        ROOKERY_REDIS_URL: "redis://redis:6379",
        ROOKERY_INTERNAL_URL: `http://${name}:9991`,
        ROOKERY_TRUSTED_PROXIES: subnet,
      });
    }
    // The HAProxy container's command, run on the shipped configuration: its servers are the three containers.
    const command = compose.services.haproxy?.command ?? [];
    const sed = /^(sed -e '[^']+') \S+ >/.exec(command[2] ?? "")?.[1];
    const made = execFileSync("sh", ["-c", `${sed} deploy/haproxy.cfg`], { cwd: ROOT }).toString();
    expect(made.split("\n").filter((line) => /^\s*server\s/.test(line)).map((line) => line.trim())).toEqual([
      "server rookery1 rookery1:9991 check",
      "server rookery2 rookery2:9991 check",
      "server rookery3 rookery3:9991 check",
    ]);
  });
});
