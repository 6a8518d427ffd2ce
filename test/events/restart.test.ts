import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../src/app.js";
import { queueDumpFile } from "../../src/events/persist.js";
import { Client, success } from "../harness/client.js";
import { startServer, TestClock, type TestServer } from "../harness/server.js";
import { launchFromSource, freePort } from "../harness/process.js";
import { singleProcess } from "../harness/single-process.js";

/** The queue dump of one process; in cluster mode the Redis handover replaces it (test/cluster covers that). */
const dumpOnly = singleProcess("the restart dump file belongs to one process; cluster mode hands queues over through Redis instead (test/cluster)");
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Closes the test server's app (saving its queues) and builds a second one on the same data directory. */
async function restart(server: TestServer, clock = server.clock, logger = pino({ level: "silent" })): Promise<{ app: App; as: (who: "hamlet") => Client }> {
  await server.app.close();
  const app = await buildApp(server.app.ctx.config, { clock, logger });
  const url = await app.http.listen({ host: "127.0.0.1", port: 0 });
  cleanups.push(async () => {
    await app.close();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });
  const hamlet = server.users.hamlet;
  return { app, as: () => new Client(url, { email: hamlet.delivery_email, apiKey: hamlet.api_key }) };
}

/** A queue holding one typing event. */
async function queueWithEvent(server: TestServer): Promise<string> {
  const res = await server.as("hamlet").post("/register", { event_types: ["typing"], fetch_event_types: [] });
  await server.as("cordelia").post("/typing", { op: "start", to: [server.users.hamlet.id] });
  return res.body.queue_id;
}

describe("event queues across a restart (App.close, buildApp)", () => {
  it("keep their id, their unacknowledged events and their event ids", async () => {
    const server = await startServer();
    const queueId = await queueWithEvent(server);
    const next = await restart(server);
    expect(fs.existsSync(queueDumpFile(server.dataDir))).toBe(false);
    const res = await next.as("hamlet").get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(res.body.events).toMatchObject([{ type: "typing", op: "start", id: 0 }]);
    await next.as("hamlet").post("/typing", { op: "stop", to: [server.users.hamlet.id] });
    const after = await next.as("hamlet").get("/events", { queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(after.body.events).toMatchObject([{ type: "typing", op: "stop", id: 1 }]);
  });

  dumpOnly("tells each reloaded queue that accepts it that the server restarted", async () => {
    const server = await startServer();
    const everything = await server.as("hamlet").post("/register", { fetch_event_types: [] });
    const next = await restart(server);
    const res = await next.as("hamlet").get("/events", { queue_id: everything.body.queue_id, last_event_id: -1, dont_block: true });
    expect(res.body.events).toEqual([
      { type: "restart", zulip_version: "9.0", zulip_merge_base: "9.0", zulip_feature_level: 277, server_generation: expect.any(Number), id: 0 },
    ]);
  });

  dumpOnly("answers a waiting poll before shutting down", async () => {
    const server = await startServer();
    const res = await server.as("hamlet").post("/register", { event_types: ["typing"], fetch_event_types: [] });
    const poll = server.as("hamlet").get("/events", { queue_id: res.body.queue_id, last_event_id: -1 });
    while (!server.app.ctx.queues.ofUser(server.users.hamlet.id)[0]?.isWaiting()) await new Promise((r) => setTimeout(r, 5));
    const next = await restart(server);
    expect((await poll).body).toEqual(success({ events: [], queue_id: res.body.queue_id }));
    expect(next.app.ctx.queues.size()).toBe(1);
  });

  it("drops the queues that expired while the server was down", async () => {
    const server = await startServer();
    await queueWithEvent(server);
    const later = new TestClock(server.clock.now() + 601_000);
    const next = await restart(server, later);
    expect(next.app.ctx.queues.size()).toBe(0);
  });

  dumpOnly("ignores a corrupt dump file, with a log line (its queues come from the database)", async () => {
    const server = await startServer();
    await queueWithEvent(server);
    await server.app.close();
    fs.writeFileSync(queueDumpFile(server.dataDir), "{ not json");
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    server.app.close = async () => {};
    const next = await restart(server, server.clock, pino({ level: "info" }, sink));
    expect(next.app.ctx.queues.size()).toBe(1);
    expect(lines.some((line) => line.includes("the event queue dump from an earlier version is corrupt; ignored it"))).toBe(true);
  });
});

describe("event queues across a real SIGTERM", () => {
  it("a client continues its queue after the process is killed and started again", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-restart-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const first = await launch(dataDir, port);
    const email = /Email: +(\S+)/.exec(first.output)?.[1];
    const apiKey = /API key: +(\S+)/.exec(first.output)?.[1];
    if (!email || !apiKey) throw new Error(`no credentials in: ${first.output}`);
    const client = new Client(`http://127.0.0.1:${port}`, { email, apiKey });
    const reg = await client.post("/register", { event_types: ["typing"], fetch_event_types: [] });
    const me = (await client.get("/users/me")).body.user_id;
    await client.post("/typing", { op: "start", to: [me] });
    first.child.kill("SIGTERM");
    const code = await new Promise((resolve) => first.child.once("exit", resolve));
    expect(code).toBe(0);

    await launch(dataDir, port);
    const res = await client.get("/events", { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
    expect(res.body.events).toMatchObject([{ type: "typing", op: "start", id: 0, sender: { user_id: me } }]);
  }, 60_000);
});

/** Starts `rookery serve` in a child process and waits until it listens; stopped after the test. */
async function launch(dataDir: string, port: number): Promise<{ child: ChildProcess; output: string }> {
  const launched = await launchFromSource(dataDir, port);
  cleanups.push(() => {
    if (launched.child.exitCode === null) launched.child.kill("SIGKILL");
  });
  return launched;
}
