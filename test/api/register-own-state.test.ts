/** The values of /register's per-user keys: the realm_user own block, realm_bots, starred_messages and the fixed ones. */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "./messages-fixtures.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

async function state(who: FixtureName, types: string[], extra: Record<string, unknown> = {}): Promise<Json> {
  const res = await server.as(who).post("/register", { fetch_event_types: types, ...extra } as never);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const md5 = (s: string) => createHash("md5").update(s).digest("hex");

describe("the current user's fields under realm_user", () => {
  it("are a member's identity, avatar and permissions", async () => {
    const { hamlet } = server.users;
    const body = await state("hamlet", ["realm_user"], { client_gravatar: true });
    const gravatar = `https://secure.gravatar.com/avatar/${md5("hamlet@zulip.com")}?d=identicon`;
    expect(body).toMatchObject({
      user_id: hamlet.id,
      email: "hamlet@zulip.com",
      delivery_email: "hamlet@zulip.com",
      full_name: "King Hamlet",
      // Always a URL for the user's own avatar, even for a client_gravatar client.
      avatar_source: "G",
      avatar_url: `${gravatar}&version=1`,
      avatar_url_medium: `${gravatar}&s=500&version=1`,
      is_admin: false,
      is_owner: false,
      is_moderator: false,
      is_guest: false,
      is_billing_admin: false,
      can_create_streams: true,
      can_create_public_streams: true,
      can_create_private_streams: true,
      can_create_web_public_streams: false,
      can_subscribe_other_users: true,
      can_invite_others_to_realm: true,
    });
  });

  it("say what a guest may not do", async () => {
    const body = await state("polonius", ["realm_user"]);
    expect(body).toMatchObject({
      user_id: server.users.polonius.id,
      is_guest: true,
      is_admin: false,
      can_create_streams: false,
      can_create_public_streams: false,
      can_create_private_streams: false,
      can_create_web_public_streams: false,
      can_subscribe_other_users: false,
      can_invite_others_to_realm: false,
    });
  });

  it("give owners and moderators their flags", async () => {
    expect(await state("desdemona", ["realm_user"])).toMatchObject({ is_owner: true, is_admin: true, is_moderator: false });
    expect(await state("shiva", ["realm_user"])).toMatchObject({ is_owner: false, is_admin: false, is_moderator: true });
  });

  it("are absent without realm_user", async () => {
    const body = await state("hamlet", ["realm_user_groups"]);
    for (const key of ["user_id", "email", "full_name", "is_admin", "avatar_url", "can_create_streams"]) expect(body[key]).toBeUndefined();
  });
});

describe("realm_bots", () => {
  const botDict = () => {
    const { bot, hamlet } = server.users;
    return {
      email: "default-bot@zulip.com",
      user_id: bot.id,
      full_name: "Hamlet's bot",
      bot_type: 1,
      is_active: true,
      api_key: bot.api_key,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      owner_id: hamlet.id,
      avatar_url: `https://secure.gravatar.com/avatar/${md5("default-bot@zulip.com")}?d=identicon&version=1`,
      services: [],
    };
  };

  it("lists the owner's bots, with their API keys", async () => {
    expect((await state("hamlet", ["realm_bot"])).realm_bots).toEqual([botDict()]);
  });

  it("lists every bot of the realm for an administrator, and none for a member without bots", async () => {
    expect((await state("iago", ["realm_bot"])).realm_bots).toEqual([botDict()]);
    expect((await state("othello", ["realm_bot"])).realm_bots).toEqual([]);
  });
});

describe("starred_messages", () => {
  it("lists the starred message ids in order", async () => {
    const first = await sendStream(server, "othello", "Verona", "stars", "one");
    const second = await sendStream(server, "othello", "Verona", "stars", "two");
    expect((await state("hamlet", ["starred_messages"])).starred_messages).toEqual([]);
    for (const id of [second, first]) {
      const res = await server.as("hamlet").post("/messages/flags", { messages: [id], op: "add", flag: "starred" });
      expect(res.status).toBe(200);
    }
    expect((await state("hamlet", ["starred_messages"])).starred_messages).toEqual([first, second]);
    expect((await state("othello", ["starred_messages"])).starred_messages).toEqual([]);
  });
});

describe("keys of features Rookery does not have", () => {
  it("carry Zulip's empty values", async () => {
    const body = await state("hamlet", ["onboarding_steps", "video_calls", "giphy", "stop_words", "realm_embedded_bots", "realm_incoming_webhook_bots"]);
    expect(body).toMatchObject({
      onboarding_steps: [],
      has_zoom_token: false,
      giphy_api_key: "",
      stop_words: [],
      realm_embedded_bots: [],
      realm_incoming_webhook_bots: [],
    });
  });
});
