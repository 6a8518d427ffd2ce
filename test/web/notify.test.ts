/** Which messages notify and what the title counts (web/state/notify.ts), rule by rule. */
import { describe, expect, it } from "vitest";
import { attentionCount, notifies } from "../../web/state/notify.js";
import { fromRegister } from "../../web/state/snapshot.js";
import type { Message, State } from "../../web/state/types.js";

const ME = 10;

function snapshot(settings: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): State {
  return fromRegister({
    user_id: ME,
    realm_users: [10, 11, 12].map((id) => ({ user_id: id, email: `u${id}@x.org`, full_name: `User ${id}`, is_bot: false, is_active: true, role: 400 })),
    subscriptions: [
      { stream_id: 1, name: "general", description: "", invite_only: false, color: "#abc", pin_to_top: false, is_muted: false, desktop_notifications: null, audible_notifications: null, wildcard_mentions_notify: null },
      { stream_id: 2, name: "quiet", description: "", invite_only: false, color: "#abc", pin_to_top: false, is_muted: true, desktop_notifications: null, audible_notifications: null, wildcard_mentions_notify: null },
      { stream_id: 3, name: "loud", description: "", invite_only: false, color: "#abc", pin_to_top: false, is_muted: false, desktop_notifications: true, audible_notifications: false, wildcard_mentions_notify: false },
    ],
    user_settings: {
      enable_desktop_notifications: true,
      enable_sounds: true,
      enable_stream_desktop_notifications: false,
      enable_stream_audible_notifications: false,
      enable_followed_topic_desktop_notifications: true,
      enable_followed_topic_audible_notifications: false,
      wildcard_mentions_notify: true,
      enable_followed_topic_wildcard_mentions_notify: true,
      desktop_icon_count_display: 1,
      ...settings,
    },
    user_topics: [
      { stream_id: 1, topic_name: "Muted", visibility_policy: 1 },
      { stream_id: 2, topic_name: "unmuted", visibility_policy: 2 },
      { stream_id: 1, topic_name: "followed", visibility_policy: 3 },
      { stream_id: 2, topic_name: "followed", visibility_policy: 3 },
    ],
    muted_users: [{ id: 12, timestamp: 1 }],
    ...extra,
  });
}

const stream = (streamId: number, topic: string, extra: Partial<Message> = {}): Message => ({
  id: 1,
  sender_id: 11,
  sender_full_name: "User 11",
  sender_email: "u11@x.org",
  type: "stream",
  stream_id: streamId,
  subject: topic,
  display_recipient: "general",
  content: "<p>hi</p>",
  timestamp: 1,
  reactions: [],
  flags: [],
  submessages: [],
  ...extra,
});
const dm = (extra: Partial<Message> = {}): Message => ({ ...stream(0, ""), type: "private", stream_id: undefined, display_recipient: [{ id: 10, email: "u10@x.org", full_name: "User 10" }, { id: 11, email: "u11@x.org", full_name: "User 11" }], ...extra });

describe("notifies", () => {
  const s = snapshot();
  const desktop = (m: Message, flags: string[] = [], state = s) => notifies(state, m, flags, "desktop");
  const audible = (m: Message, flags: string[] = [], state = s) => notifies(state, m, flags, "audible");

  it("direct messages notify, but never one's own, a muted sender's or one already read", () => {
    expect(desktop(dm())).toBe(true);
    expect(audible(dm())).toBe(true);
    expect(desktop(dm({ sender_id: ME }))).toBe(false);
    expect(desktop(dm({ sender_id: 12 }))).toBe(false);
    expect(desktop(dm(), ["read"])).toBe(false);
    expect(desktop(dm(), [], snapshot({ enable_desktop_notifications: false }))).toBe(false);
    expect(audible(dm(), [], snapshot({ enable_sounds: false }))).toBe(false);
  });

  it("channel messages notify on a mention or an alert word, not otherwise (channel notifications off)", () => {
    expect(desktop(stream(1, "chat"))).toBe(false);
    expect(desktop(stream(1, "chat"), ["mentioned"])).toBe(true);
    expect(desktop(stream(1, "chat"), ["has_alert_word"])).toBe(true);
    expect(desktop(stream(1, "chat"), [], snapshot({ enable_stream_desktop_notifications: true }))).toBe(true);
  });

  it("a channel's own setting overrides the default, for desktop and sound separately", () => {
    expect(desktop(stream(3, "chat"))).toBe(true);
    expect(audible(stream(3, "chat"), [], snapshot({ enable_stream_audible_notifications: true }))).toBe(false);
  });

  it("muted topics and channels are silent unless the topic is unmuted or followed, or a direct mention", () => {
    expect(desktop(stream(1, "muted"), ["has_alert_word"])).toBe(false);
    expect(desktop(stream(1, "MUTED"), ["mentioned"])).toBe(true);
    expect(desktop(stream(2, "chat"), ["has_alert_word"])).toBe(false);
    expect(desktop(stream(2, "unmuted"), ["has_alert_word"])).toBe(true);
    expect(desktop(stream(2, "followed"))).toBe(true);
    expect(desktop(stream(4, "not subscribed"), ["has_alert_word"])).toBe(false);
  });

  it("followed topics notify per their own settings", () => {
    expect(desktop(stream(1, "followed"))).toBe(true);
    expect(audible(stream(1, "followed"))).toBe(false);
    expect(desktop(stream(1, "followed"), [], snapshot({ enable_followed_topic_desktop_notifications: false }))).toBe(false);
  });

  it("wildcard mentions follow wildcard_mentions_notify and the channel's own value", () => {
    expect(desktop(stream(1, "chat"), ["stream_wildcard_mentioned"])).toBe(true);
    expect(desktop(stream(1, "chat"), ["stream_wildcard_mentioned"], snapshot({ wildcard_mentions_notify: false }))).toBe(false);
    expect(desktop(stream(3, "chat"), ["stream_wildcard_mentioned"], snapshot({ enable_stream_desktop_notifications: false }, {}))).toBe(true); // channel 3 notifies everything
    expect(desktop(stream(1, "chat"), ["topic_wildcard_mentioned"], snapshot({ wildcard_mentions_notify: false }))).toBe(false);
    expect(desktop(stream(1, "followed"), ["topic_wildcard_mentioned"], snapshot({ wildcard_mentions_notify: false, enable_followed_topic_desktop_notifications: false }))).toBe(true);
  });
});

describe("attentionCount", () => {
  const unread = {
    unread_msgs: {
      streams: [
        { stream_id: 1, topic: "chat", unread_message_ids: [1, 2] },
        { stream_id: 1, topic: "muted", unread_message_ids: [3] },
        { stream_id: 1, topic: "followed", unread_message_ids: [4] },
        { stream_id: 2, topic: "chat", unread_message_ids: [5] },
        { stream_id: 2, topic: "unmuted", unread_message_ids: [6] },
      ],
      pms: [{ other_user_id: 11, unread_message_ids: [7] }],
      huddles: [],
      mentions: [2, 5],
    },
  };
  const count = (mode: number) => attentionCount(snapshot({ desktop_icon_count_display: mode }, unread));

  it("1: every unread message outside muted topics and channels (mentions always)", () => {
    expect(count(1)).toBe(6); // 1, 2, 4, 5 (a mention), 6, 7
  });
  it("2: direct messages, mentions and followed topics", () => {
    expect(count(2)).toBe(4); // 2, 4, 5, 7
  });
  it("3: direct messages and mentions", () => {
    expect(count(3)).toBe(3); // 2, 5, 7
  });
  it("4: none", () => {
    expect(count(4)).toBe(0);
  });
});
