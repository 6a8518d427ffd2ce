import fs from "node:fs";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../src/app.js";
import { Client, type Json } from "../harness/client.js";
import { startServer, TestClock, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels } from "../api/messages-fixtures.js";
import { at, scheduleToChannel } from "../api/scheduled-messages-fixtures.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Closes the server's app and builds a second one on the same data, with a clock `seconds` later. */
async function restartLater(server: TestServer, seconds: number): Promise<{ app: App; clock: TestClock; as: (who: FixtureName) => Client }> {
  await server.app.close();
  const clock = new TestClock(server.clock.now() + seconds * 1000);
  const app = await buildApp(server.app.ctx.config, { clock, logger: pino({ level: "silent" }) });
  const url = await app.http.listen({ host: "127.0.0.1", port: 0 });
  cleanups.push(async () => {
    await app.close();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });
  const as = (who: FixtureName) => new Client(url, { email: server.users[who].delivery_email, apiKey: server.users[who].api_key });
  return { app, clock, as };
}

async function newest(client: Client): Promise<Json> {
  const res = await client.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, apply_markdown: false });
  return res.body.messages[0];
}

describe("scheduled messages across a restart", () => {
  it("one that fell due while the server was down is sent as it starts", async () => {
    const server = await startServer();
    const channels = await createChannels(server);
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "sent after the restart", { scheduled_delivery_timestamp: at(server, 60) });
    const next = await restartLater(server, 120);
    await next.app.ctx.scheduledMessages.idle();
    expect(await newest(next.as("othello"))).toMatchObject({ sender_id: server.users.hamlet.id, content: "sent after the restart", timestamp: at(server, 120) });
    const listed = (await next.as("hamlet").get("/scheduled_messages")).body.scheduled_messages;
    expect(listed.map((m: Json) => m.scheduled_message_id)).not.toContain(id);
  });

  it("one not yet due waits for its time", async () => {
    const server = await startServer();
    const channels = await createChannels(server);
    const id = await scheduleToChannel(server, "hamlet", channels.denmark, "still waiting", { scheduled_delivery_timestamp: at(server, 600) });
    const next = await restartLater(server, 300);
    await next.app.ctx.scheduledMessages.idle();
    expect((await next.as("hamlet").get("/scheduled_messages")).body.scheduled_messages).toEqual([expect.objectContaining({ scheduled_message_id: id, failed: false })]);
    next.clock.advance(300);
    await next.app.ctx.scheduledMessages.runDue();
    expect(await newest(next.as("iago"))).toMatchObject({ content: "still waiting" });
    expect((await next.as("hamlet").get("/scheduled_messages")).body.scheduled_messages).toEqual([]);
  });

  it("one more than ten minutes overdue at start fails, and its sender is told", async () => {
    const server = await startServer();
    const channels = await createChannels(server);
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "too late", { scheduled_delivery_timestamp: at(server, 60) });
    const next = await restartLater(server, 60 + 601);
    await next.app.ctx.scheduledMessages.idle();
    expect((await next.as("hamlet").get("/scheduled_messages")).body.scheduled_messages).toEqual([expect.objectContaining({ scheduled_message_id: id, failed: true })]);
    expect((await newest(next.as("hamlet"))).content).toContain("> Message could not be sent at the scheduled time.");
  });
});
