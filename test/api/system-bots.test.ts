import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, type Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { checkAction } from "../events/check-action.js";

let server: TestServer;
let botId: number;
let welcomeBotId: number;
beforeAll(async () => {
  server = await startServer();
  const row = await server.app.ctx.db.selectFrom("user").select("id").where("email", "=", "notification-bot@zulip.com").executeTakeFirstOrThrow();
  botId = row.id;
  const welcome = await server.app.ctx.db.selectFrom("user").select("id").where("email", "=", "welcome-bot@zulip.com").executeTakeFirstOrThrow();
  welcomeBotId = welcome.id;
});
afterAll(() => server.stop());

/** Zulip's cross_realm_bots entry for Notification Bot (zerver/lib/users.py get_cross_realm_dicts / format_user_row). */
const notificationBot = () => ({
  email: "notification-bot@zulip.com",
  user_id: botId,
  avatar_version: 1,
  is_admin: false,
  is_owner: false,
  is_guest: false,
  is_billing_admin: false,
  role: 400,
  is_bot: true,
  full_name: "Notification Bot",
  timezone: "",
  is_active: true,
  date_joined: "2024-05-01T12:00:00.000000+00:00",
  delivery_email: "notification-bot@zulip.com",
  avatar_url: "/static/images/static_avatars/notification-bot.png",
  bot_type: 1,
  is_system_bot: true,
  bot_owner_id: null,
});

/** Zulip's cross_realm_bots entry for Welcome Bot: the same shape, listed after Notification Bot by name. */
const welcomeBot = () => ({
  ...notificationBot(),
  email: "welcome-bot@zulip.com",
  user_id: welcomeBotId,
  full_name: "Welcome Bot",
  delivery_email: "welcome-bot@zulip.com",
  avatar_url: "/static/images/static_avatars/welcome-bot.png",
});

describe("Notification Bot, the realm's system bot", () => {
  it("is listed in /register cross_realm_bots, not in realm_users or realm_non_active_users", async () => {
    for (const client_gravatar of [true, false]) {
      const res = await server.as("polonius").post("/register", { fetch_event_types: JSON.stringify(["realm_user"]), client_gravatar });
      expect(res.status).toBe(200);
      expect(res.body.cross_realm_bots).toEqual([notificationBot(), welcomeBot()]);
      const ids = [...res.body.realm_users, ...res.body.realm_non_active_users].map((u: Json) => u.user_id);
      expect(ids).not.toContain(botId);
      expect(res.body.realm_users).toHaveLength(8);
    }
  });

  it("is not a member in GET /users", async () => {
    const res = await server.as("iago").get("/users");
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: Json) => m.email)).not.toContain("notification-bot@zulip.com");
    expect(res.body.members).toHaveLength(8);
  });

  it("cannot be managed by the organisation's administrators", async () => {
    expect((await server.as("desdemona").patch(`/users/${botId}`, { full_name: "Renamed" })).body).toEqual(error("No such user"));
    expect((await server.as("desdemona").delete(`/users/${botId}`)).body).toEqual(error("No such user"));
    const res = await server.as("desdemona").post("/register", { fetch_event_types: JSON.stringify(["realm_user"]) });
    expect(res.body.cross_realm_bots).toEqual([notificationBot(), welcomeBot()]);
  });

  it("can be written to like any user, and its messages show its name", async () => {
    const sent = await server.as("hamlet").post("/messages", { type: "private", to: JSON.stringify(["notification-bot@zulip.com"]), content: "hello bot" });
    expect(sent.status).toBe(200);
    const got = await server.as("hamlet").get(`/messages/${sent.body.id}`);
    expect(got.body.message.display_recipient).toEqual([
      { id: botId, email: "notification-bot@zulip.com", full_name: "Notification Bot", is_mirror_dummy: false },
      { id: server.users.hamlet.id, email: "hamlet@zulip.com", full_name: "King Hamlet", is_mirror_dummy: false },
    ]);
    // Created with the realm, right after its owner.
    expect(botId).toBe(server.users.desdemona.id + 1);
  });

  it("sends messages from Zulip's internal realm: sender_realm_str is zulipinternal in events and GET /messages", async () => {
    const subscribe = () =>
      server.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "Rialto" }]), principals: JSON.stringify([server.users.othello.id]) });
    await server.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "Rialto" }]) });
    const events = await checkAction(server, "othello", subscribe, { eventTypes: ["message"], expectEvents: ["message"] });
    expect(events[0].message).toMatchObject({ sender_id: botId, sender_email: "notification-bot@zulip.com", sender_realm_str: "zulipinternal" });
    const narrow = JSON.stringify([{ operator: "dm", operand: "notification-bot@zulip.com" }]);
    const res = await server.as("othello").get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow });
    expect(res.body.messages.map((m: Json) => [m.id, m.sender_realm_str])).toEqual([[events[0].message.id, "zulipinternal"]]);
    const single = await server.as("othello").get(`/messages/${events[0].message.id}`);
    expect(single.body.message.sender_realm_str).toBe("zulipinternal");
    // Everyone else's messages name their own realm (the fixture organisation is the root domain, "").
    const human = await server.as("othello").post("/messages", { type: "private", to: JSON.stringify(["notification-bot@zulip.com"]), content: "thanks" });
    expect((await server.as("othello").get(`/messages/${human.body.id}`)).body.message.sender_realm_str).toBe("");
  });
});
