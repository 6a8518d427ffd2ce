import { bool, int, list, map, nullable, obj, str, type Shape } from "./shape.js";

/** Shapes several clients share: the unread_msgs snapshot and a channel's own fields. */
export const unreadMsgs: Shape = obj({
  count: int,
  pms: list(obj({ other_user_id: int, sender_id: int, unread_message_ids: list(int) })),
  streams: list(obj({ stream_id: int, topic: str, unread_message_ids: list(int) })),
  huddles: list(obj({ user_ids_string: str, unread_message_ids: list(int) })),
  mentions: list(int),
  old_unreads_missing: bool,
});

/** The channel fields of both `streams` and `subscriptions` entries. */
export const channelFields: Record<string, Shape> = {
  stream_id: int,
  name: str,
  description: str,
  rendered_description: str,
  date_created: int,
  invite_only: bool,
  is_web_public: bool,
  history_public_to_subscribers: bool,
  first_message_id: nullable(int),
  message_retention_days: nullable(int),
  stream_post_policy: int,
};

/** A user's custom profile values, keyed by field id. */
export const profileData: Shape = map(obj({ value: str }, { rendered_value: str }), /^\d+$/);
