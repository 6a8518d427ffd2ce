import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLUSTER_SKIP_REASON, clusterBackends } from "../harness/cluster.js";
import { buildMain, startProcessCluster } from "../harness/cluster-processes.js";
import { runRookery as rookery } from "../harness/cli.js";
import { freePort, spawnServer } from "../harness/process.js";

let main: string;
let remove: () => void;

beforeAll(async () => {
  ({ main, remove } = await buildMain("cli-relay"));
}, 120_000);
afterAll(() => remove());

type Events = { id: number; type: string; op?: string; person?: Record<string, unknown>; message?: Record<string, unknown> }[];

/** A queue of the owner's for realm_user and message events, and a way to read what it has (waiting at most 5 s for `count`). */
async function ownerQueue(url: string, authorization: string): Promise<(count: number) => Promise<Events>> {
  const registered = await fetch(`${url}/api/v1/register`, {
    method: "POST",
    headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ event_types: '["realm_user","message"]', apply_markdown: "false" }).toString(),
  });
  const { queue_id: queueId } = (await registered.json()) as { queue_id: string };
  return async (count) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const polled = await fetch(`${url}/api/v1/events?${new URLSearchParams({ queue_id: queueId, last_event_id: "-1", dont_block: "true" })}`, { headers: { authorization } });
      const events = ((await polled.json()) as { events: Events }).events.filter((e) => e.type !== "heartbeat");
      if (events.length >= count || Date.now() > deadline) return events;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}

/** What a connected owner receives when the CLI creates a user: the realm_user add, then Notification Bot's notice in #core team. */
function expectUserArrival(events: Events, userId: number): void {
  expect(events.map((e) => [e.type, e.op ?? null])).toEqual([
    ["realm_user", "add"],
    ["message", null],
  ]);
  expect(events[0]?.person).toMatchObject({ user_id: userId, full_name: "Cli Person", role: 400, is_active: true, is_bot: false });
  expect(events[1]?.message).toMatchObject({
    type: "stream",
    display_recipient: "core team",
    subject: "signups",
    sender_email: "notification-bot@zulip.com",
    content: `@_**Cli Person|${userId}** joined this organization.`,
  });
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe("the CLI and a running server of one process", () => {
  it("a user created with the CLI reaches a connected client as realm_user add, with the sign-up notice", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-relay-"));
    const port = await freePort();
    const env = { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_PORT: String(port), ROOKERY_LOG_LEVEL: "warn" };
    const server = await spawnServer(main, env);
    try {
      const key = /key=([A-Za-z0-9]{32})/.exec(server.out())?.[1];
      const authorization = "Basic " + Buffer.from(`owner@rookery.local:${key}`).toString("base64");
      const url = `http://127.0.0.1:${port}`;
      expect((fs.statSync(path.join(dataDir, "control.sock")).mode & 0o777).toString(8)).toBe("600");
      const read = await ownerQueue(url, authorization);
      const created = await rookery(main, ["create-user", "--email", "cli@example.test", "--name", "Cli Person", "--password", "pw-123456", "--json"], env);
      expect(created).toMatchObject({ code: 0, stderr: "" });
      const { user_id: userId } = JSON.parse(created.stdout) as { user_id: number };
      // The CLI answered after the server applied its commit: the events are there at once.
      expectUserArrival(await read(0), userId);
    } finally {
      await stopped(server.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses a caller without the key, and the CLI works on with no server or a stale socket", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-relay-"));
    const port = await freePort();
    const env = { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_PORT: String(port), ROOKERY_LOG_LEVEL: "warn" };
    const server = await spawnServer(main, env);
    const socketPath = path.join(dataDir, "control.sock");
    const post = (headers: Record<string, string>, body: string) =>
      new Promise<number>((resolve, reject) => {
        import("node:http").then(({ request }) => {
          const req = request({ socketPath, method: "POST", path: "/commit", headers }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on("error", reject);
          req.end(body);
        }, reject);
      });
    try {
      const key = fs.readFileSync(path.join(dataDir, "secrets", "control-key")).toString("hex");
      expect(await post({}, '{"events":[],"changes":[]}')).toBe(401);
      expect(await post({ authorization: "Bearer " + "0".repeat(64) }, '{"events":[],"changes":[]}')).toBe(401);
      expect(await post({ authorization: `Bearer ${key}` }, '{"events":[{"event":{}}],"changes":[]}')).toBe(400);
      expect(await post({ authorization: `Bearer ${key}` }, "not json")).toBe(400);
      expect(await post({ authorization: `Bearer ${key}` }, '{"events":[],"changes":[{"cache":"user","id":1}]}')).toBe(204);
    } finally {
      // SIGKILL leaves the socket file behind: the CLI finds nobody there and carries on.
      server.child.kill("SIGKILL");
      await stopped(server.child);
    }
    expect(fs.existsSync(socketPath)).toBe(true);
    const created = await rookery(main, ["create-user", "--email", "late@example.test", "--name", "Late", "--json"], env);
    expect(created).toMatchObject({ code: 0, stderr: "" });
    // The next server replaces the stale socket.
    const again = await spawnServer(main, env);
    try {
      const made = await rookery(main, ["create-user", "--email", "later@example.test", "--name", "Later", "--json"], env);
      expect(made).toMatchObject({ code: 0, stderr: "" });
    } finally {
      await stopped(again.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the CLI and a running cluster", () => {
  it("a user created with the CLI reaches a client of another process as realm_user add, with the sign-up notice", async (t) => {
    const backends = clusterBackends();
    if (!backends) return t.skip(CLUSTER_SKIP_REASON);
    const cluster = await startProcessCluster(main, backends.pgUrl, backends.redisUrl, 2);
    try {
      const reads = await Promise.all(cluster.members.map((m) => ownerQueue(m.url, cluster.auth.authorization)));
      const created = await rookery(main, ["create-user", "--email", "cli@example.test", "--name", "Cli Person", "--password", "pw-123456", "--json"], cluster.env);
      expect(created).toMatchObject({ code: 0, stderr: "" });
      const { user_id: userId } = JSON.parse(created.stdout) as { user_id: number };
      for (const read of reads) expectUserArrival(await read(2), userId);
    } finally {
      await cluster.stop();
    }
  }, 60_000);
});
