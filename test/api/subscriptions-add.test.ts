import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams, getChannels, setRealmProps } from "./streams-helpers.js";
import { groupIdsByName } from "./user-groups-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const subscribe = (who: Parameters<TestServer["as"]>[0], params: Record<string, unknown>, encoding: "form" | "multipart" = "form") =>
  server.as(who).post("/users/me/subscriptions", params as Record<string, string>, { encoding });

describe("POST /users/me/subscriptions: creating channels", () => {
  it("creates a public channel and subscribes the caller, keyed by API email (level 275)", async () => {
    const res = await subscribe("hamlet", { subscriptions: [{ name: " Denmark ", description: "Where\nHamlet lives" }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ subscribed: { "hamlet@zulip.com": ["Denmark"] }, already_subscribed: {} }));
    const subs = await server.as("hamlet").get("/users/me/subscriptions");
    const denmark = subs.body.subscriptions.find((s: { name: string }) => s.name === "Denmark");
    expect(denmark).toEqual({
      audible_notifications: null,
      can_remove_subscribers_group: expect.any(Number),
      color: "#76ce90",
      creator_id: server.users.hamlet.id,
      date_created: 1714564800,
      description: "Where Hamlet lives",
      desktop_notifications: null,
      email_notifications: null,
      first_message_id: null,
      history_public_to_subscribers: true,
      in_home_view: true,
      invite_only: false,
      is_announcement_only: false,
      is_muted: false,
      is_web_public: false,
      message_retention_days: null,
      name: "Denmark",
      pin_to_top: false,
      push_notifications: null,
      rendered_description: "<p>Where Hamlet lives</p>",
      stream_id: expect.any(Number),
      stream_post_policy: 1,
      stream_weekly_traffic: null,
      wildcard_mentions_notify: null,
    });
  });

  it("reports already_subscribed, and subscribes to an existing channel case-insensitively", async () => {
    const again = await subscribe("hamlet", { subscriptions: [{ name: "denmark" }] });
    expect(again.body).toEqual(success({ subscribed: {}, already_subscribed: { "hamlet@zulip.com": ["Denmark"] } }));
    const othello = await subscribe("othello", { subscriptions: [{ name: "DENMARK" }] }, "multipart");
    expect(othello.body).toEqual(success({ subscribed: { "othello@zulip.com": ["Denmark"] }, already_subscribed: {} }));
  });

  it("assigns palette colors in order, skipping colors the user already has, and honours a requested color", async () => {
    await subscribe("cordelia", { subscriptions: [{ name: "Palette one" }, { name: "Palette two", color: "#123456" }, { name: "Palette three" }] });
    const subs = (await server.as("cordelia").get("/users/me/subscriptions")).body.subscriptions as { name: string; color: string }[];
    const colors = Object.fromEntries(subs.map((s) => [s.name, s.color]));
    expect(colors).toEqual({ "Palette one": "#76ce90", "Palette two": "#123456", "Palette three": "#fae589" });
    await subscribe("cordelia", { subscriptions: [{ name: "Palette four" }] });
    const after = (await server.as("cordelia").get("/users/me/subscriptions")).body.subscriptions as { name: string; color: string }[];
    expect(after.find((s) => s.name === "Palette four")?.color).toBe("#a6c7e5");
  });

  it("creates a private channel with protected history by default, and one with shared history when asked", async () => {
    await subscribe("hamlet", { subscriptions: [{ name: "Secret one" }], invite_only: true });
    await subscribe("hamlet", { subscriptions: [{ name: "Secret two" }], invite_only: true, history_public_to_subscribers: true });
    const subs = (await server.as("hamlet").get("/users/me/subscriptions")).body.subscriptions as Record<string, unknown>[];
    expect(subs.find((s) => s.name === "Secret one")).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expect(subs.find((s) => s.name === "Secret two")).toMatchObject({ invite_only: true, history_public_to_subscribers: true });
  });

  it("forces shared history on public channels and applies stream_post_policy / is_announcement_only", async () => {
    await subscribe("iago", { subscriptions: [{ name: "Announce" }], history_public_to_subscribers: false, stream_post_policy: 2 });
    await subscribe("iago", { subscriptions: [{ name: "Legacy announce" }], is_announcement_only: true });
    const subs = (await server.as("iago").get("/users/me/subscriptions")).body.subscriptions as Record<string, unknown>[];
    expect(subs.find((s) => s.name === "Announce")).toMatchObject({ history_public_to_subscribers: true, stream_post_policy: 2, is_announcement_only: true });
    expect(subs.find((s) => s.name === "Legacy announce")).toMatchObject({ stream_post_policy: 2, is_announcement_only: true });
  });

  it("lets only owners set message_retention_days", async () => {
    expect((await subscribe("iago", { subscriptions: [{ name: "Retained" }], message_retention_days: 30 })).body).toEqual(
      error("Must be an organization owner"),
    );
    expect((await subscribe("desdemona", { subscriptions: [{ name: "Retained" }], message_retention_days: 30 })).status).toBe(200);
    expect((await subscribe("desdemona", { subscriptions: [{ name: "Forever" }], message_retention_days: '"unlimited"' })).status).toBe(200);
    const subs = (await server.as("desdemona").get("/users/me/subscriptions")).body.subscriptions as Record<string, unknown>[];
    expect(subs.find((s) => s.name === "Retained")?.message_retention_days).toBe(30);
    expect(subs.find((s) => s.name === "Forever")?.message_retention_days).toBe(-1);
  });

  it("rejects bad retention values with Zulip's message", async () => {
    for (const [value, shown] of [['"forever"', "forever"], [0, "0"], [-5, "-5"]] as const) {
      const res = await subscribe("desdemona", { subscriptions: [{ name: "Bad retention" }], message_retention_days: value });
      expect(res.body).toEqual(error(`Bad value for 'message_retention_days': ${shown}`));
    }
  });

  it("makes created channels default with is_default_stream (administrators only; never private)", async () => {
    expect((await subscribe("hamlet", { subscriptions: [{ name: "Lobby" }], is_default_stream: true })).body).toEqual(error("Insufficient permission"));
    expect((await subscribe("iago", { subscriptions: [{ name: "Lobby" }], is_default_stream: true, invite_only: true })).body).toEqual(
      error("A default channel cannot be private."),
    );
    expect((await subscribe("iago", { subscriptions: [{ name: "Lobby" }], is_default_stream: true })).status).toBe(200);
    const streams = await getChannels(server, "hamlet", "/streams", { include_default: true });
    expect(streams.body.streams.find((s: { name: string }) => s.name === "Lobby").is_default).toBe(true);
  });

  it("refuses web-public channels while spectator access is off, then allows them to owners", async () => {
    expect((await subscribe("desdemona", { subscriptions: [{ name: "Open" }], is_web_public: true })).body).toEqual(
      error("Web-public channels are not enabled."),
    );
    await setRealmProps(server, { enable_spectator_access: true });
    expect((await subscribe("iago", { subscriptions: [{ name: "Open" }], is_web_public: true })).body).toEqual(error("Insufficient permission"));
    expect((await subscribe("desdemona", { subscriptions: [{ name: "Open" }], is_web_public: true })).status).toBe(200);
    await setRealmProps(server, { enable_spectator_access: false });
  });

  it("honours the realm's channel-creation groups", async () => {
    const groups = await groupIdsByName(server);
    await setRealmProps(server, { can_create_public_channel_group: groups["role:administrators"], can_create_private_channel_group: groups["role:moderators"] });
    expect((await subscribe("hamlet", { subscriptions: [{ name: "Policy public" }] })).body).toEqual(error("Insufficient permission"));
    expect((await subscribe("hamlet", { subscriptions: [{ name: "Policy private" }], invite_only: true })).body).toEqual(error("Insufficient permission"));
    expect((await subscribe("shiva", { subscriptions: [{ name: "Policy public" }] })).body).toEqual(error("Insufficient permission"));
    expect((await subscribe("shiva", { subscriptions: [{ name: "Policy private" }], invite_only: true })).status).toBe(200);
    expect((await subscribe("iago", { subscriptions: [{ name: "Policy public" }] })).status).toBe(200);
    // Subscribing to an existing channel needs no creation permission.
    expect((await subscribe("hamlet", { subscriptions: [{ name: "Denmark" }] })).status).toBe(200);
    await setRealmProps(server, { can_create_public_channel_group: groups["role:members"], can_create_private_channel_group: groups["role:members"] });
  });
});

describe("POST /users/me/subscriptions: access and principals", () => {
  it("refuses guests outright", async () => {
    expect((await subscribe("polonius", { subscriptions: [{ name: "Denmark" }] })).body).toEqual(error("Not allowed for guest users"));
  });

  it("refuses a private channel the caller is not in, or lists it as unauthorized", async () => {
    expect((await subscribe("othello", { subscriptions: [{ name: "Secret one" }] })).body).toEqual(error("Unable to access channel (Secret one)."));
    const soft = await subscribe("othello", { subscriptions: [{ name: "Secret one" }, { name: "Denmark" }], authorization_errors_fatal: false });
    expect(soft.body).toEqual(success({ subscribed: {}, already_subscribed: { "othello@zulip.com": ["Denmark"] }, unauthorized: ["Secret one"] }));
    // Administrators are no exception for channels they are not subscribed to.
    expect((await subscribe("iago", { subscriptions: [{ name: "Secret one" }] })).body).toEqual(error("Unable to access channel (Secret one)."));
  });

  it("subscribes other users by email or by id, including into a private channel the caller is in", async () => {
    const byEmail = await subscribe("hamlet", { subscriptions: [{ name: "Secret one" }], principals: ["othello@zulip.com", "polonius@zulip.com"] });
    expect(byEmail.body).toEqual(success({ subscribed: { "othello@zulip.com": ["Secret one"], "polonius@zulip.com": ["Secret one"] }, already_subscribed: {} }));
    const byId = await subscribe("hamlet", { subscriptions: [{ name: "Secret one" }], principals: [server.users.othello.id, server.users.cordelia.id] });
    expect(byId.body).toEqual(success({ subscribed: { "cordelia@zulip.com": ["Secret one"] }, already_subscribed: { "othello@zulip.com": ["Secret one"] } }));
  });

  it("honours invite_to_stream_policy for subscribing others", async () => {
    await setRealmProps(server, { invite_to_stream_policy: 2 });
    expect((await subscribe("hamlet", { subscriptions: [{ name: "Denmark" }], principals: ["shiva@zulip.com"] })).body).toEqual(error("Insufficient permission"));
    expect((await subscribe("hamlet", { subscriptions: [{ name: "Denmark" }], principals: ["hamlet@zulip.com"] })).status).toBe(200);
    expect((await subscribe("iago", { subscriptions: [{ name: "Denmark" }], principals: ["shiva@zulip.com"] })).body).toEqual(
      success({ subscribed: { "shiva@zulip.com": ["Denmark"] }, already_subscribed: {} }),
    );
    await setRealmProps(server, { invite_to_stream_policy: 1 });
  });

  it("rejects unknown and deactivated principals without writing anything", async () => {
    expect((await subscribe("hamlet", { subscriptions: [{ name: "Never made" }], principals: ["nobody@zulip.com"] })).body).toEqual(error("No such user"));
    expect((await subscribe("hamlet", { subscriptions: [{ name: "Never made" }], principals: [99999] })).body).toEqual(error("No such user"));
    await server.as("iago").delete(`/users/${server.users.cordelia.id}`);
    expect((await subscribe("hamlet", { subscriptions: [{ name: "Never made" }], principals: [server.users.cordelia.id] })).body).toEqual(
      error("User is deactivated"),
    );
    await server.as("iago").post(`/users/${server.users.cordelia.id}/reactivate`);
    const found = await server.as("hamlet").get("/get_stream_id", { stream: "Never made" });
    expect(found.body).toEqual(error("Invalid channel name 'Never made'"));
  });
});

describe("POST /users/me/subscriptions: Notification Bot tells users others subscribed", () => {
  /** Direct messages between `who` and Notification Bot, oldest first (raw content unless rendered). */
  async function botDms(who: Parameters<TestServer["as"]>[0], applyMarkdown = false): Promise<Record<string, unknown>[]> {
    const narrow = JSON.stringify([{ operator: "dm", operand: "notification-bot@zulip.com" }]);
    const res = await server.as(who).get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow, apply_markdown: applyMarkdown });
    expect(res.status).toBe(200);
    return res.body.messages;
  }
  const iagoMention = () => `@**Iago|${server.users.iago.id}**`;

  it("sends each subscribed user one DM naming the existing channels, sorted; not the actor, not bots, not for new channels", async () => {
    await subscribe("iago", { subscriptions: [{ name: "Bot news" }, { name: "Bot gossip" }] });
    const before = { othello: await botDms("othello"), iago: await botDms("iago"), bot: await botDms("bot") };
    const res = await subscribe("iago", {
      subscriptions: [{ name: "Bot news" }, { name: "Bot gossip" }, { name: "Bot fresh" }],
      principals: [server.users.othello.id, server.users.iago.id, server.users.bot.id],
    });
    expect(res.status).toBe(200);
    const othello = await botDms("othello");
    expect(othello.length).toBe(before.othello.length + 1);
    expect(othello[othello.length - 1]).toMatchObject({
      type: "private",
      sender_id: expect.any(Number),
      sender_email: "notification-bot@zulip.com",
      sender_full_name: "Notification Bot",
      client: "Internal",
      content: `${iagoMention()} subscribed you to the following channels:\n\n* #**Bot gossip**\n* #**Bot news**`,
      flags: [],
    });
    expect(await botDms("iago")).toEqual(before.iago);
    expect(await botDms("bot")).toEqual(before.bot);
  });

  it("names a single channel in one sentence, rendered with the mention and the channel link", async () => {
    const newsId = (await server.as("iago").get("/get_stream_id", { stream: "Bot news" })).body.stream_id;
    const before = (await botDms("cordelia")).length;
    expect((await subscribe("iago", { subscriptions: [{ name: "Bot news" }], principals: ["cordelia@zulip.com"] })).status).toBe(200);
    const raw = await botDms("cordelia");
    expect(raw.length).toBe(before + 1);
    expect(raw[raw.length - 1]?.content).toBe(`${iagoMention()} subscribed you to the channel #**Bot news**.`);
    const rendered = await botDms("cordelia", true);
    expect(rendered[rendered.length - 1]?.content).toBe(
      `<p><span class="user-mention" data-user-id="${server.users.iago.id}">@Iago</span> subscribed you to the channel ` +
        `<a class="stream" data-stream-id="${newsId}" href="/#narrow/channel/${newsId}-Bot-news">#Bot news</a>.</p>`,
    );
  });

  it("sends nothing for channels that are new, already subscribed, or when the request fails", async () => {
    const before = await botDms("othello");
    expect((await subscribe("iago", { subscriptions: [{ name: "Bot brand new" }], principals: ["othello@zulip.com"] })).status).toBe(200);
    expect((await subscribe("iago", { subscriptions: [{ name: "Bot news" }], principals: ["othello@zulip.com"] })).body).toEqual(
      success({ subscribed: {}, already_subscribed: { "othello@zulip.com": ["Bot news"] } }),
    );
    expect((await subscribe("iago", { subscriptions: [{ name: "Bot gossip" }], principals: ["othello@zulip.com", "nobody@zulip.com"] })).body).toEqual(
      error("No such user"),
    );
    expect(await botDms("othello")).toEqual(before);
  });
});

describe("POST /users/me/subscriptions: parameter errors", () => {
  it("validates channel names", async () => {
    expect((await subscribe("hamlet", { subscriptions: [{ name: "   " }] })).body).toEqual(error("Channel name can't be empty."));
    expect((await subscribe("hamlet", { subscriptions: [{ name: "x".repeat(61) }] })).body).toEqual(error("Channel name too long (limit: 60 characters)."));
    expect((await subscribe("hamlet", { subscriptions: [{ name: "bad\u0001name" }] })).body).toEqual(error("Invalid character in channel name, at position 4."));
  });

  it("validates the subscriptions list", async () => {
    expect((await server.as("hamlet").post("/users/me/subscriptions", {})).body).toEqual(
      error("Missing 'subscriptions' argument", "REQUEST_VARIABLE_MISSING", { var_name: "subscriptions" }),
    );
    expect((await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: "nope" })).body).toEqual(error("subscriptions is not valid JSON"));
    expect((await subscribe("hamlet", { subscriptions: [{}] })).body).toEqual(error("name key is missing from subscriptions[0]"));
    expect((await subscribe("hamlet", { subscriptions: [{ name: "C", color: "red" }] })).body).toEqual(
      error('subscriptions[0]["color"] is not a valid hex color code'),
    );
    expect((await subscribe("hamlet", { subscriptions: [{ name: "D", description: "d".repeat(1025) }] })).body).toEqual(
      error('subscriptions[0]["description"] is too long (limit: 1024 characters)'),
    );
  });

  it("validates flags strictly", async () => {
    expect((await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "E" }], invite_only: "yes" })).body).toEqual(
      error("invite_only is not valid JSON"),
    );
    expect((await subscribe("hamlet", { subscriptions: [{ name: "E" }], stream_post_policy: 9 })).body).toEqual(error("Invalid stream_post_policy"));
  });

  it("can_remove_subscribers_group must name a system group of the realm", async () => {
    expect((await subscribe("hamlet", { subscriptions: [{ name: "G" }], can_remove_subscribers_group: 99999 })).body).toEqual(error("Invalid user group"));
  });

  it("lists parameters it does not read", async () => {
    const { Verona } = await createStreams(server, "hamlet", ["Verona"], { foo: "bar" });
    expect(Verona).toBeGreaterThan(0);
    const res = await subscribe("hamlet", { subscriptions: [{ name: "Verona" }], foo: "bar" });
    expect(res.body.ignored_parameters_unsupported).toEqual(["foo"]);
  });
});
