import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, type Channels } from "../api/messages-fixtures.js";
import { at, scheduleDirect, scheduleToChannel } from "../api/scheduled-messages-fixtures.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
let channels: Channels;
beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
});
afterAll(() => server.stop());

const strip = (events: { id?: number }[]) => events.map(({ id: _id, ...e }) => e);
const dueNow = () => server.app.ctx.scheduledMessages.runDue();

describe("consistency of /register state and events: scheduled messages", () => {
  it("scheduling adds to the sender's list", async () => {
    const when = at(server, 600);
    let id = 0;
    const events = await checkAction(
      server,
      "hamlet",
      async () => {
        id = await scheduleToChannel(server, "hamlet", channels.verona, "hello *all*", { scheduled_delivery_timestamp: when, topic: "greetings" });
      },
      { expectEvents: ["scheduled_messages:add"] },
    );
    expect(strip(events)).toEqual([
      {
        type: "scheduled_messages",
        op: "add",
        scheduled_messages: [
          { scheduled_message_id: id, type: "stream", to: channels.verona, topic: "greetings", content: "hello *all*", rendered_content: "<p>hello <em>all</em></p>", scheduled_delivery_timestamp: when, failed: false },
        ],
      },
    ]);
  });

  it("editing updates it, and a new time moves it in the list", async () => {
    const first = await scheduleDirect(server, "hamlet", ["othello"], "first", { scheduled_delivery_timestamp: at(server, 100) });
    await scheduleDirect(server, "hamlet", ["cordelia"], "second", { scheduled_delivery_timestamp: at(server, 200) });
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").patch(`/scheduled_messages/${first}`, { scheduled_delivery_timestamp: at(server, 300), content: "first, later" }), {
      expectEvents: ["scheduled_messages:update"],
    });
    expect(strip(events)[0]).toMatchObject({ op: "update", scheduled_message: { scheduled_message_id: first, content: "first, later", scheduled_delivery_timestamp: at(server, 300), to: [server.users.othello.id] } });
    await checkAction(server, "hamlet", () => server.as("hamlet").patch(`/scheduled_messages/${first}`, { type: "channel", to: channels.denmark, topic: "moved" }), {
      expectEvents: ["scheduled_messages:update"],
    });
  });

  it("deleting removes it", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.denmark, "gone soon");
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").delete(`/scheduled_messages/${id}`), { expectEvents: ["scheduled_messages:remove"] });
    expect(strip(events)).toEqual([{ type: "scheduled_messages", op: "remove", scheduled_message_id: id }]);
  });

  it("sending it at its time delivers the message and removes it from the list", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "on time", { scheduled_delivery_timestamp: at(server, 30), topic: "timely" });
    const events = await checkAction(
      server,
      "hamlet",
      async () => {
        server.clock.advance(30);
        await dueNow();
      },
      { expectEvents: ["message", "scheduled_messages:remove"] },
    );
    expect(events[0].message).toMatchObject({ sender_id: server.users.hamlet.id, subject: "timely", content: "on time" });
    expect(strip(events)[1]).toEqual({ type: "scheduled_messages", op: "remove", scheduled_message_id: id });
    const listed = (await server.as("hamlet").get("/scheduled_messages")).body.scheduled_messages;
    expect(listed.map((m: { scheduled_message_id: number }) => m.scheduled_message_id)).not.toContain(id);
    expect(listed).toHaveLength(3);
  });

  it("a failure updates it as failed and brings Notification Bot's message", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.vault, "inside", { scheduled_delivery_timestamp: at(server, 30) });
    await server.as("hamlet").delete("/users/me/subscriptions", { subscriptions: ["vault"] });
    const events = await checkAction(
      server,
      "hamlet",
      async () => {
        server.clock.advance(30);
        await dueNow();
      },
      { expectEvents: ["scheduled_messages:update", "message"] },
    );
    expect(strip(events)[0]).toMatchObject({ type: "scheduled_messages", op: "update", scheduled_message: { scheduled_message_id: id, failed: true } });
    expect(events[1].message).toMatchObject({ sender_email: "notification-bot@zulip.com", type: "private" });
  });

  it("the events go to the sender's clients only", async () => {
    const queue = (await server.as("othello").post("/register", { event_types: ["scheduled_messages"] })).body;
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "private plans", { scheduled_delivery_timestamp: at(server, 30) });
    await server.as("hamlet").patch(`/scheduled_messages/${id}`, { content: "still private" });
    server.clock.advance(30);
    await dueNow();
    const polled = await server.as("othello").get("/events", { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true });
    expect(polled.body.events).toEqual([]);
    expect(queue.scheduled_messages).toEqual([]);
  });
});
