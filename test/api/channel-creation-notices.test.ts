import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams, setRealmProps } from "./streams-helpers.js";

// Zulip 9.0's send_messages_for_new_subscribers (zerver/views/streams.py): Notification Bot's
// notices of new channels, read by their creator.

let server: TestServer;
let general: number;
beforeAll(async () => {
  server = await startServer();
  const ids = await createStreams(server, "iago", ["general"], { principals: [server.users.iago.id, server.users.hamlet.id, server.users.othello.id] });
  general = ids.general ?? 0;
});
afterAll(() => server.stop());

/** A channel's messages as `who` sees them, oldest first, raw content. */
async function messagesIn(who: "iago" | "hamlet" | "othello", channel: string): Promise<Json[]> {
  const narrow = JSON.stringify([{ operator: "channel", operand: channel }]);
  const res = await server.as(who).get("/messages", { anchor: "oldest", num_before: 0, num_after: 100, narrow, apply_markdown: false });
  expect(res.status).toBe(200);
  return res.body.messages;
}

const view = (m: Json) => ({ sender_email: m.sender_email, sender_full_name: m.sender_full_name, subject: m.subject, content: m.content, flags: m.flags });
const hamletMention = () => `@_**King Hamlet|${server.users.hamlet.id}**`;

describe("a channel's creation notice", () => {
  it.each([
    ["a public channel without a description", { name: "plain" }, {}, "Public", "*No description.*"],
    ["a public channel with a description", { name: "described", description: "All about **things**" }, {}, "Public", "All about **things**"],
    ["a private channel with shared history", { name: "shared" }, { invite_only: true, history_public_to_subscribers: true }, "Private, shared history", "*No description.*"],
    ["a private channel with protected history", { name: "protected" }, { invite_only: true }, "Private, protected history", "*No description.*"],
  ])("%s: Notification Bot posts who made it, its privacy and description in topic 'channel events'", async (_what, channel, options, policy, description) => {
    const res = await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: JSON.stringify([channel]), principals: JSON.stringify([server.users.hamlet.id, server.users.othello.id]), ...options });
    expect(res.status).toBe(200);
    const content = `**${policy}** channel created by ${hamletMention()}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``;
    expect((await messagesIn("hamlet", channel.name)).map(view)).toEqual([
      { sender_email: "notification-bot@zulip.com", sender_full_name: "Notification Bot", subject: "channel events", content, flags: ["read"] },
    ]);
    expect((await messagesIn("othello", channel.name)).map(view)).toEqual([
      { sender_email: "notification-bot@zulip.com", sender_full_name: "Notification Bot", subject: "channel events", content, flags: [] },
    ]);
  });

  it("a web-public channel says so", async () => {
    await setRealmProps(server, { enable_spectator_access: true });
    // Only owners may create web-public channels by default.
    const res = await server.as("desdemona").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "open to the web" }]), is_web_public: true });
    expect(res.status).toBe(200);
    const [notice] = await messagesIn("iago", "open to the web");
    expect(notice?.content).toBe(`**Web-public** channel created by @_**${server.users.desdemona.full_name}|${server.users.desdemona.id}**. **Description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\``);
    await setRealmProps(server, { enable_spectator_access: false });
  });

  it("is rendered as Zulip renders it: a quote block of the description", async () => {
    const narrow = JSON.stringify([{ operator: "channel", operand: "described" }]);
    const [notice] = (await server.as("hamlet").get("/messages", { anchor: "oldest", num_before: 0, num_after: 1, narrow })).body.messages as Json[];
    expect(notice.content).toBe(
      `<p><strong>Public</strong> channel created by <span class="user-mention silent" data-user-id="${server.users.hamlet.id}">King Hamlet</span>. <strong>Description:</strong></p>\n` +
        "<blockquote>\n<p>All about <strong>things</strong></p>\n</blockquote>",
    );
  });

  it("is not posted for channels that already existed", async () => {
    const before = await messagesIn("hamlet", "plain");
    await server.as("othello").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "plain" }]) });
    expect(await messagesIn("hamlet", "plain")).toEqual(before);
  });
});

describe("announce=true", () => {
  it("posts nothing when the realm has no new-channel announcements channel", async () => {
    await setRealmProps(server, { new_stream_announcements_stream_id: -1 });
    const before = (await messagesIn("iago", "general")).length;
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "quiet" }]), announce: true });
    expect((await messagesIn("iago", "general")).length).toBe(before);
  });

  it("announces one new channel in the announcements channel, topic 'new channels'", async () => {
    await setRealmProps(server, { new_stream_announcements_stream_id: general });
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "fresh" }]), announce: true });
    const last = (await messagesIn("iago", "general")).at(-1);
    expect(view(last)).toEqual({ sender_email: "notification-bot@zulip.com", sender_full_name: "Notification Bot", subject: "new channels", content: `${hamletMention()} created a new channel #**fresh**.`, flags: [] });
    expect((await messagesIn("hamlet", "general")).at(-1)?.flags).toEqual(["read"]);
  });

  it("lists several in the order requested, then each gets its own notice", async () => {
    const res = await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "zeta" }, { name: "alpha" }, { name: "plain" }]), announce: true });
    expect(res.status).toBe(200);
    const announcement = (await messagesIn("iago", "general")).at(-1);
    expect([announcement.subject, announcement.content]).toEqual(["new channels", `${hamletMention()} created the following channels: #**zeta**, #**alpha**.`]);
    const zeta = (await messagesIn("hamlet", "zeta"))[0];
    const alpha = (await messagesIn("hamlet", "alpha"))[0];
    expect([zeta.subject, alpha.subject]).toEqual(["channel events", "channel events"]);
    expect(announcement.id).toBeLessThan(zeta.id);
    expect(zeta.id).toBeLessThan(alpha.id);
  });

  it("announces nothing when nothing was created", async () => {
    const before = (await messagesIn("iago", "general")).length;
    await server.as("othello").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "fresh" }]), announce: true });
    expect((await messagesIn("iago", "general")).length).toBe(before);
  });
});
