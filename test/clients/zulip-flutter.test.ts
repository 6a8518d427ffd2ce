/**
 * zulip-flutter (the mobile app) starting against Rookery: its registerQueue call
 * (lib/api/route/events.dart) with the same parameters, each encoded as the app encodes them
 * (jsonEncode of every value), then every key its InitialSnapshot decoder requires
 * (lib/api/model/initial_snapshot.dart and the models of model.dart: non-nullable fields without
 * a default), checked for presence and JSON type; then the emoji data its picker loads.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { populate } from "./populate.js";
import { any, bool, int, list, map, nullable, obj, oneOf, problems, str, url, type Shape } from "./shape.js";
import { channelFields, profileData } from "./shapes-common.js";

/** The body of the app's POST /register, as it sends it. */
const FLUTTER_REGISTER: Record<string, string> = {
  idle_queue_timeout: JSON.stringify("mobile"),
  apply_markdown: "true",
  client_gravatar: "false",
  slim_presence: "true",
  client_capabilities: JSON.stringify({
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  }),
};

const user = obj(
  { user_id: int, email: str, full_name: str, date_joined: str, is_bot: bool, role: int, timezone: str },
  { delivery_email: str, bot_type: int, avatar_url: str, profile_data: profileData, is_system_bot: bool, is_active: bool },
);

const streamOptional: Record<string, Shape> = {
  is_archived: bool,
  folder_id: int,
  is_recently_active: bool,
  stream_weekly_traffic: int,
  topics_policy: str,
  can_add_subscribers_group: any,
  can_send_message_group: any,
  can_subscribe_group: any,
};

const INITIAL_SNAPSHOT = obj(
  {
    last_event_id: int,
    zulip_feature_level: int,
    zulip_version: str,
    zulip_merge_base: str,
    alert_words: list(str),
    custom_profile_fields: list(obj({ id: int, type: int, order: int, name: str, hint: str, field_data: str }, { display_in_profile_summary: bool })),
    max_stream_name_length: int,
    max_topic_length: int,
    server_presence_ping_interval_seconds: int,
    server_presence_offline_threshold_seconds: int,
    muted_users: list(obj({ id: int })),
    presences: map(obj({ active_timestamp: int, idle_timestamp: int }), /^\d+$/),
    realm_emoji: map(obj({ id: str, name: str, source_url: str }, { still_url: str, author_id: int, deactivated: bool })),
    realm_user_groups: list(obj({ id: int, members: list(int), direct_subgroup_ids: list(int), name: str, description: str, is_system_group: bool }, { deactivated: bool })),
    recent_private_conversations: list(obj({ max_message_id: int, user_ids: list(int) })),
    subscriptions: list(
      obj(
        { ...channelFields, pin_to_top: bool, is_muted: bool, color: oneOfPattern(/^#[0-9a-f]{6}$/) },
        { ...streamOptional, desktop_notifications: bool, email_notifications: bool, wildcard_mentions_notify: bool, push_notifications: bool, audible_notifications: bool },
      ),
    ),
    unread_msgs: obj({
      count: int,
      pms: list(obj({ other_user_id: int, unread_message_ids: list(int) })),
      streams: list(obj({ topic: str, stream_id: int, unread_message_ids: list(int) })),
      huddles: list(obj({ user_ids_string: str, unread_message_ids: list(int) })),
      mentions: list(int),
      old_unreads_missing: bool,
    }),
    starred_messages: list(int),
    streams: list(obj(channelFields, streamOptional)),
    user_status: map(obj({}, { status_text: str, emoji_name: str, emoji_code: str, reaction_type: str, away: bool }), /^\d+$/),
    user_settings: obj(
      { twenty_four_hour_time: nullable(bool), starred_message_counts: bool, display_emoji_reaction_users: bool, emojiset: str, presence_enabled: bool },
      { web_inbox_show_channel_folders: bool },
    ),
    user_topics: list(obj({ stream_id: int, topic_name: str, last_updated: int, visibility_policy: int })),
    realm_wildcard_mention_policy: oneOf([1, 2, 3, 5, 6, 7]),
    realm_name: str,
    realm_waiting_period_threshold: int,
    realm_allow_message_editing: bool,
    realm_enable_read_receipts: bool,
    realm_icon_url: url,
    realm_presence_disabled: bool,
    realm_default_external_accounts: map(obj({ name: str, text: str, hint: str, url_pattern: str })),
    max_file_upload_size_mib: int,
    server_emoji_data_url: url,
    event_queue_longpoll_timeout_seconds: int,
    realm_users: list(user),
    realm_non_active_users: list(user),
    cross_realm_bots: list(user),
  },
  {
    queue_id: str,
    server_typing_started_expiry_period_milliseconds: int,
    server_typing_stopped_wait_period_milliseconds: int,
    server_typing_started_wait_period_milliseconds: int,
    realm_delete_own_message_policy: oneOf([1, 2, 3, 4, 5]),
    realm_mandatory_topics: bool,
    realm_message_content_delete_limit_seconds: int,
    realm_message_content_edit_limit_seconds: int,
    server_thumbnail_formats: list(obj({ name: str, max_width: int, max_height: int, animated: bool, format: str })),
    realm_moderation_request_channel_id: int,
    realm_empty_topic_display_name: str,
  },
);

function oneOfPattern(pattern: RegExp): Shape {
  return (value, path) => (typeof value === "string" && pattern.test(value) ? [] : [`${path}: expected a string matching ${pattern}`]);
}

let server: TestServer;
let snapshot: Json;
beforeAll(async () => {
  server = await startServer();
  await populate(server);
  const res = await server.as("hamlet").post("/register", FLUTTER_REGISTER);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  snapshot = res.body;
});
afterAll(() => server.stop());

describe("zulip-flutter's start-up against Rookery", () => {
  it("registers with the app's parameters; the newer idle_queue_timeout is reported as ignored, as Zulip 9 does", () => {
    expect(snapshot.result).toBe("success");
    expect(snapshot.ignored_parameters_unsupported).toEqual(["idle_queue_timeout"]);
  });

  it("gets every key InitialSnapshot requires, of the type it decodes", () => {
    expect(problems(snapshot, INITIAL_SNAPSHOT)).toEqual([]);
  });

  it("has read receipts on in a new organisation, as Zulip 9.0 makes one (issue 21)", () => {
    expect([snapshot.realm_enable_read_receipts, snapshot.realm_inline_image_preview]).toEqual([true, true]);
  });

  it("gets non-empty lists where the organisation has data, so the items were checked too", () => {
    for (const key of ["custom_profile_fields", "muted_users", "realm_user_groups", "recent_private_conversations", "subscriptions", "starred_messages", "streams", "user_topics", "realm_users", "cross_realm_bots"]) {
      expect(snapshot[key].length, key).toBeGreaterThan(0);
    }
    for (const key of ["presences", "realm_emoji", "user_status"]) expect(Object.keys(snapshot[key]).length, key).toBeGreaterThan(0);
    expect(snapshot.unread_msgs.pms.length * snapshot.unread_msgs.streams.length * snapshot.unread_msgs.huddles.length * snapshot.unread_msgs.mentions.length).toBeGreaterThan(0);
  });

  it("loads server_emoji_data_url without credentials, as ServerEmojiData", async () => {
    const res = await fetch(`${server.url}${new URL(snapshot.server_emoji_data_url).pathname}`);
    expect(res.status).toBe(200);
    const data: unknown = await res.json();
    expect(problems(data, obj({ code_to_names: map(list(str), /^[0-9a-f]+(-[0-9a-f]+)*$/) }))).toEqual([]);
  });
});
