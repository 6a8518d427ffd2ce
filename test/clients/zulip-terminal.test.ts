/**
 * zulip-terminal starting against Rookery: the /register call of Model._register_desired_events
 * (zulipterminal/model.py), encoded as python-zulip-api encodes it (strings as they are, every
 * other value as JSON), then every key the terminal reads from the response: each
 * `initial_data[...]` and `initial_data.get(...)` of model.py, helper.py and ui_tools, and the
 * fields it reads inside them (subscriptions, users, groups, unread_msgs, presences…).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { populate } from "./populate.js";
import { bool, int, list, map, nullable, num, obj, problems, str, type Shape } from "./shape.js";
import { channelFields, profileData, unreadMsgs } from "./shapes-common.js";

/** Model.event_actions' keys: the queue's event_types. */
const EVENT_TYPES = ["message", "update_message", "reaction", "submessage", "subscription", "typing", "update_message_flags", "user_settings", "realm_emoji", "realm_user"];

/** Model.initial_data_to_fetch: fetch_event_types. */
const FETCH_EVENT_TYPES = [
  "realm",
  "presence",
  "subscription",
  "message",
  "starred_messages",
  "update_message_flags",
  "muted_topics",
  "realm_user",
  "realm_user_groups",
  "user_settings",
  "realm_emoji",
  "custom_profile_fields",
  "zulip_version",
];

/** client.register(event_types=…, fetch_event_types=…, client_gravatar=True, apply_markdown=True, include_subscribers=True), with its narrow=[] default. */
const TERMINAL_REGISTER: Record<string, string> = {
  event_types: JSON.stringify(EVENT_TYPES),
  narrow: "[]",
  fetch_event_types: JSON.stringify(FETCH_EVENT_TYPES),
  client_gravatar: "true",
  apply_markdown: "true",
  include_subscribers: "true",
};

/** Legacy presence (no slim_presence): by email, an `aggregated` entry and one per client. */
const presenceClient = obj({ status: str, timestamp: num });

const INITIAL_DATA = obj(
  {
    queue_id: str,
    last_event_id: int,
    max_message_id: int,
    zulip_version: str,
    zulip_feature_level: int,
    user_id: int,
    email: str,
    full_name: str,
    realm_name: str,
    subscriptions: list(
      obj({
        ...channelFields,
        color: str,
        pin_to_top: bool,
        is_muted: bool,
        in_home_view: bool,
        desktop_notifications: nullable(bool),
        subscribers: list(int),
      }),
    ),
    muted_topics: list(listOf3()),
    realm_user_groups: list(obj({ id: int, name: str, description: str, members: list(int) })),
    realm_emoji: map(obj({ id: str, name: str, source_url: str, deactivated: bool })),
    user_settings: obj({ send_private_typing_notifications: bool, twenty_four_hour_time: bool, pm_content_in_desktop_notifications: bool }),
    realm_message_retention_days: nullable(int),
    presences: map(obj({ aggregated: presenceClient }, { website: presenceClient })),
    realm_allow_message_editing: bool,
    realm_edit_topic_policy: int,
    realm_message_content_edit_limit_seconds: nullable(int),
    realm_allow_edit_history: bool,
    max_stream_name_length: int,
    max_topic_length: int,
    max_message_length: int,
    server_typing_started_wait_period_milliseconds: int,
    server_typing_stopped_wait_period_milliseconds: int,
    server_typing_started_expiry_period_milliseconds: int,
    server_presence_offline_threshold_seconds: int,
    server_presence_ping_interval_seconds: int,
    custom_profile_fields: list(obj({ id: int, name: str, type: int, hint: str, field_data: str, order: int })),
    realm_users: list(
      obj(
        { user_id: int, email: str, full_name: str, is_bot: bool, role: int, timezone: str, date_joined: str, is_admin: bool, is_owner: bool, is_guest: bool },
        { bot_owner_id: nullable(int), avatar_url: nullable(str), profile_data: profileData },
      ),
    ),
    cross_realm_bots: list(obj({ user_id: int, email: str, full_name: str, is_bot: bool })),
    unread_msgs: unreadMsgs,
    starred_messages: list(int),
  },
  // Read with .get() and a fallback, or only before feature level 75.
  { realm_allow_community_topic_editing: bool },
);

/** muted_topics entries: [channel name, topic, date muted]. */
function listOf3(): Shape {
  return (value, path) =>
    Array.isArray(value) && value.length === 3 && typeof value[0] === "string" && typeof value[1] === "string" && Number.isInteger(value[2])
      ? []
      : [`${path}: expected [string, string, integer]`];
}

let server: TestServer;
let initialData: Json;
beforeAll(async () => {
  server = await startServer();
  await populate(server);
  const res = await server.as("hamlet").post("/register", TERMINAL_REGISTER);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  initialData = res.body;
});
afterAll(() => server.stop());

describe("zulip-terminal's start-up against Rookery", () => {
  it("registers with the terminal's parameters", () => {
    expect(initialData.result).toBe("success");
    expect(initialData.ignored_parameters_unsupported).toBeUndefined();
  });

  it("gets every key the terminal reads, of the type it uses", () => {
    expect(problems(initialData, INITIAL_DATA)).toEqual([]);
  });

  it("gets the current user's own fields and the lists the terminal walks, not empty", () => {
    const { hamlet } = server.users;
    expect(initialData).toMatchObject({ user_id: hamlet.id, email: "hamlet@zulip.com", full_name: "King Hamlet" });
    for (const key of ["subscriptions", "muted_topics", "realm_user_groups", "custom_profile_fields", "realm_users", "cross_realm_bots", "starred_messages"]) {
      expect(initialData[key].length, key).toBeGreaterThan(0);
    }
    expect(Object.keys(initialData.presences).length).toBeGreaterThan(0);
    expect(Object.keys(initialData.realm_emoji).length).toBeGreaterThan(0);
    expect(initialData.unread_msgs.pms.length).toBeGreaterThan(0);
    // Subscribers come with include_subscribers=true.
    expect(initialData.subscriptions[0].subscribers.length).toBeGreaterThan(0);
  });

  it("gets nothing it did not ask for (the fetch_event_types are honoured)", () => {
    for (const key of ["streams", "user_topics", "drafts", "realm_bots", "alert_words", "recent_private_conversations"]) expect(initialData[key], key).toBeUndefined();
  });
});
