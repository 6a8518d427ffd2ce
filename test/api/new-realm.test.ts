import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRealm } from "../../src/actions/realms.js";
import { checkCreateUser } from "../../src/actions/users.js";
import type { UserRow } from "../../src/db/queries/users.js";
import { Role } from "../../src/lib/users/roles.js";
import { Client, type Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

// Zulip 9.0's new organisation: zerver/actions/create_realm.py do_create_realm (its channels and
// announcement settings), zerver/actions/create_user.py (the owner's subscriptions, the signup
// notice) and zerver/lib/onboarding.py (the Welcome Bot's messages).

let server: TestServer;
let owner: UserRow;
let boss: Client;
let realmUrl: string;
beforeAll(async () => {
  server = await startServer();
  realmUrl = server.app.ctx.config.externalUrl;
  ({ owner } = await createRealm(server.app.ctx, { name: "Fresh", stringId: "fresh", ownerEmail: "boss@fresh.example", ownerName: "Boss", password: "secret-pw" }));
  boss = new Client(server.url, { email: owner.delivery_email, apiKey: owner.api_key });
});
afterAll(() => server.stop());

/** A channel's messages, oldest first, with raw content. */
async function messagesIn(client: Client, channel: string): Promise<Json[]> {
  const narrow = JSON.stringify([{ operator: "channel", operand: channel }]);
  const res = await client.get("/messages", { anchor: "oldest", num_before: 0, num_after: 100, narrow, apply_markdown: false });
  expect(res.status).toBe(200);
  return res.body.messages;
}

/** Direct messages between the client's user and Welcome Bot, oldest first, raw content. */
async function welcomeDms(client: Client): Promise<Json[]> {
  const narrow = JSON.stringify([{ operator: "dm", operand: "welcome-bot@zulip.com" }]);
  const res = await client.get("/messages", { anchor: "oldest", num_before: 0, num_after: 100, narrow, apply_markdown: false });
  expect(res.status).toBe(200);
  return res.body.messages;
}

const ownerWelcome = () =>
  "Hello, and welcome to Zulip!👋 This is a direct message from me, Welcome Bot.\n\n" +
  `If you are new to Zulip, check out our [Getting started guide](${realmUrl}/help/getting-started-with-zulip)! ` +
  `We also have a guide for [Setting up your organization](${realmUrl}/help/getting-your-organization-started-with-zulip).\n\n` +
  "I can also help you get set up! Just click anywhere on this message or press `r` to reply.\n\n" +
  "Here are a few messages I understand: `apps`, `profile`, `theme`, `channels`, `topics`, `message formatting`, `keyboard shortcuts`, `help`.";

describe("a new organisation, as Zulip 9.0 creates one", () => {
  it("has #general and the private #core team, with Zulip's descriptions, rendered", async () => {
    const res = await boss.get("/users/me/subscriptions");
    expect(res.status).toBe(200);
    const subs: Json[] = res.body.subscriptions;
    const view = subs.map((s) => ({ name: s.name, description: s.description, rendered_description: s.rendered_description, invite_only: s.invite_only, history_public_to_subscribers: s.history_public_to_subscribers, creator_id: s.creator_id }));
    expect(view).toEqual([
      {
        name: "core team",
        description: "A private stream for core team members.",
        rendered_description: "<p>A private stream for core team members.</p>",
        invite_only: true,
        history_public_to_subscribers: false,
        creator_id: null,
      },
      {
        name: "general",
        description: "Everyone is added to this stream by default. Welcome! :octopus:",
        rendered_description: '<p>Everyone is added to this stream by default. Welcome! <span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>',
        invite_only: false,
        history_public_to_subscribers: true,
        creator_id: null,
      },
    ]);
  });

  it("makes #general its only default channel and its announcement channel; signups go to #core team", async () => {
    const res = await boss.post("/register", { fetch_event_types: JSON.stringify(["default_streams", "realm", "subscription"]) });
    expect(res.status).toBe(200);
    const ids = Object.fromEntries((res.body.subscriptions as Json[]).map((s) => [s.name, s.stream_id]));
    expect((res.body.realm_default_streams as Json[]).map((s) => s.name)).toEqual(["general"]);
    expect(res.body.realm_new_stream_announcements_stream_id).toBe(ids.general);
    expect(res.body.realm_zulip_update_announcements_stream_id).toBe(ids.general);
    expect(res.body.realm_signup_announcements_stream_id).toBe(ids["core team"]);
  });

  it("takes a first message to #general from its owner", async () => {
    const res = await boss.post("/messages", { type: "stream", to: "general", topic: "hello", content: "First!" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "success", msg: "", id: expect.any(Number) });
    const last = (await messagesIn(boss, "general")).at(-1);
    expect(last).toMatchObject({ id: res.body.id, sender_id: owner.id, subject: "hello", content: "First!" });
  });

  it("greets its owner in a Welcome Bot direct message, before the channels' first messages", async () => {
    const dms = await welcomeDms(boss);
    expect(dms.map((m) => ({ sender_email: m.sender_email, sender_full_name: m.sender_full_name, type: m.type, content: m.content }))).toEqual([
      { sender_email: "welcome-bot@zulip.com", sender_full_name: "Welcome Bot", type: "private", content: ownerWelcome() },
    ]);
    const first = (await messagesIn(boss, "core team"))[0];
    expect(dms[0].id).toBeLessThan(first.id);
  });

  it("has the Welcome Bot's messages in Zulip 9.0's channels and topics, with the exact texts", async () => {
    const general = (await messagesIn(boss, "general")).filter((m) => m.sender_email === "welcome-bot@zulip.com");
    const coreTeam = await messagesIn(boss, "core team");
    const view = (m: Json) => ({ topic: m.subject, content: m.content, client: m.client, flags: m.flags });
    expect(coreTeam.map(view)).toEqual([
      {
        topic: "private channels",
        content:
          "This is a private channel, as indicated by the lock icon next to the channel name. Private channels are only visible to channel members.\n\n" +
          "To manage this channel, go to [Channel settings](#channels/subscribed) and click on `core team`.",
        client: "Internal",
        flags: [],
      },
    ]);
    expect(general.map(view)).toEqual([
      { topic: "topic demonstration", content: "This is a message on channel #**general** with the topic `topic demonstration`.", client: "Internal", flags: [] },
      {
        topic: "topic demonstration",
        content: "Topics are a lightweight tool to keep conversations organized. You can learn more about topics at [Introduction to topics](/help/introduction-to-topics).",
        client: "Internal",
        flags: [],
      },
      {
        topic: "swimming turtles",
        content:
          "This is a message on channel #**general** with the topic `swimming turtles`.\n\n[](/static/images/cute/turtle.png)\n\n" +
          "[Start a new topic](/help/introduction-to-topics#how-to-start-a-new-topic) any time you're not replying to a             previous message.",
        client: "Internal",
        flags: [],
      },
      {
        topic: "Zulip updates",
        content:
          "Welcome! To help you learn about new features and configuration options, this topic will receive messages about important changes in Zulip.\n\n" +
          "You can read these update messages whenever it's convenient, or [mute](/help/mute-a-topic) this topic if you are not interested. " +
          "If your organization does not want to receive these announcements, they can be disabled. [Learn more](/help/configure-automated-notices#zulip-update-announcements).",
        client: "Internal",
        flags: [],
      },
    ]);
    expect(coreTeam[0].id).toBeLessThan(general[0].id);
  });

  it("has the Welcome Bot's turtle reaction on the turtle message, and only there", async () => {
    const general = (await messagesIn(boss, "general")).filter((m) => m.sender_email === "welcome-bot@zulip.com");
    const bot = general[0].sender_id;
    expect(general.map((m) => m.reactions)).toEqual([[], [], [{ emoji_name: "turtle", emoji_code: "1f422", reaction_type: "unicode_emoji", user_id: bot }], []]);
  });

  it("lists Welcome Bot next to Notification Bot among its system bots", async () => {
    const res = await boss.post("/register", { fetch_event_types: JSON.stringify(["realm_user"]) });
    expect((res.body.cross_realm_bots as Json[]).map((b) => b.email)).toEqual(["notification-bot@zulip.com", "welcome-bot@zulip.com"]);
    expect((res.body.realm_users as Json[]).map((u) => u.email)).toEqual([owner.email]);
  });
});

describe("a user who joins the new organisation later", () => {
  let member: UserRow;
  let client: Client;
  beforeAll(async () => {
    member = await checkCreateUser(server.app.ctx, { realmId: owner.realm_id, email: "ann@fresh.example", fullName: "Ann", password: "ann-password", role: Role.MEMBER });
    client = new Client(server.url, { email: member.delivery_email, apiKey: member.api_key });
  });

  it("is subscribed to the default channels only", async () => {
    const res = await client.get("/users/me/subscriptions");
    expect((res.body.subscriptions as Json[]).map((s) => s.name)).toEqual(["general"]);
  });

  it("gets the Welcome Bot's direct message, without the administrators' guide", async () => {
    const dms = await welcomeDms(client);
    expect(dms.map((m) => m.content)).toEqual([
      "Hello, and welcome to Zulip!👋 This is a direct message from me, Welcome Bot.\n\n" +
        `If you are new to Zulip, check out our [Getting started guide](${realmUrl}/help/getting-started-with-zulip)!\n\n` +
        "I can also help you get set up! Just click anywhere on this message or press `r` to reply.\n\n" +
        "Here are a few messages I understand: `apps`, `profile`, `theme`, `channels`, `topics`, `message formatting`, `keyboard shortcuts`, `help`.",
    ]);
  });

  it("is announced by Notification Bot in #core team, topic signups, to its members", async () => {
    const notices = (await messagesIn(boss, "core team")).filter((m) => m.subject === "signups");
    expect(notices.map((m) => ({ sender_email: m.sender_email, content: m.content }))).toEqual([
      { sender_email: "notification-bot@zulip.com", content: `@_**Ann|${member.id}** joined this organization.` },
    ]);
  });

  it("can post to #general at once", async () => {
    const res = await client.post("/messages", { type: "stream", to: "general", topic: "hi", content: "Hello all" });
    expect(res.status).toBe(200);
  });

  it("a bot gets neither subscriptions nor a welcome", async () => {
    const bot = await checkCreateUser(server.app.ctx, { realmId: owner.realm_id, email: "helper-bot@fresh.example", fullName: "Helper", password: null, role: Role.MEMBER, bot: { type: 1, ownerId: owner.id } });
    const botClient = new Client(server.url, { email: bot.delivery_email, apiKey: bot.api_key });
    expect((await botClient.get("/users/me/subscriptions")).body.subscriptions).toEqual([]);
    expect(await welcomeDms(botClient)).toEqual([]);
  });
});

describe("read receipts in a new organisation (Zulip 9.0's do_create_realm)", () => {
  it("are on, as joining needs an invitation by default, and the owner can read them", async () => {
    const state = await boss.post("/register", { fetch_event_types: JSON.stringify(["realm"]) });
    expect([state.body.realm_invite_required, state.body.realm_emails_restricted_to_domains, state.body.realm_enable_read_receipts]).toEqual([true, false, true]);
    const sent = await boss.post("/messages", { type: "stream", to: "general", topic: "receipts", content: "read me" });
    const res = await boss.get(`/messages/${sent.body.id}/read_receipts`);
    expect(res.body).toEqual({ result: "success", msg: "", user_ids: [] });
  });

  it("follow Zulip's rule: on unless the organisation is open to anyone", async () => {
    const { defaultReadReceipts } = await import("../../src/actions/realms.js");
    expect([defaultReadReceipts(true, false), defaultReadReceipts(false, true), defaultReadReceipts(true, true), defaultReadReceipts(false, false)]).toEqual([true, true, true, false]);
  });
});

describe("the test organisation, built from fixtures as Zulip's is", () => {
  it("has no initial channels or welcome messages", async () => {
    expect((await server.as("desdemona").get("/streams")).body.streams).toEqual([]);
    expect(await welcomeDms(server.as("hamlet"))).toEqual([]);
  });
});
