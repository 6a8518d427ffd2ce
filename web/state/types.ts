/** The client's copy of the server's state: the /register snapshot plus fetched messages, as plain immutable data. */

export type User = {
  user_id: number;
  email: string;
  full_name: string;
  avatar_url?: string | null;
  is_bot: boolean;
  is_active: boolean;
  role: number;
  timezone?: string;
  bot_type?: number | null;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
} & Record<string, unknown>;

export type Stream = {
  stream_id: number;
  name: string;
  description: string;
  rendered_description?: string;
  invite_only: boolean;
  is_web_public?: boolean;
} & Record<string, unknown>;

export type Sub = Stream & { color: string; pin_to_top: boolean; is_muted: boolean; subscribers?: number[] };

export type Reaction = { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number };

export type DmRecipient = { id: number; email: string; full_name: string };

export type Message = {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url?: string | null;
  type: "stream" | "private";
  stream_id?: number;
  subject: string;
  display_recipient: string | DmRecipient[];
  content: string;
  timestamp: number;
  last_edit_timestamp?: number;
  reactions: Reaction[];
  flags: string[];
  submessages: unknown[];
  is_me_message?: boolean;
} & Record<string, unknown>;

/** Where an unread message lives: a channel's topic, or a direct-message conversation (dmKey). */
export type UnreadRef = { kind: "stream"; streamId: number; topic: string } | { kind: "dm"; key: string };

/** A narrow's search term, as Zulip's narrow parameter carries it. */
export type Term = { operator: string; operand: string; negated?: boolean };

/** The fetched messages of one narrow, oldest first. */
export type MessageList = {
  key: string;
  terms: Term[];
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
  /** The message the narrow was opened at (near/with), if any. */
  anchor: number | null;
};

export type Group = { id: number; name: string; description: string; members: number[]; direct_subgroup_ids: number[]; is_system_group: boolean } & Record<string, unknown>;

export type Draft = { id: number; type: "" | "stream" | "private"; to: number[]; topic: string; content: string; timestamp: number };

export type Presence = { active: number; idle: number };

export type State = {
  me: number;
  serverGeneration: number;
  realm: Record<string, unknown>;
  settings: Record<string, unknown>;
  users: Map<number, User>;
  streams: Map<number, Stream>;
  subs: Map<number, Sub>;
  groups: Map<number, Group>;
  realmEmoji: Record<string, Record<string, unknown>>;
  messages: Map<number, Message>;
  lists: Map<string, MessageList>;
  unread: Map<number, UnreadRef>;
  mentions: Set<number>;
  starred: Set<number>;
  presence: Map<number, Presence>;
  userStatus: Map<number, Record<string, unknown>>;
  /** Conversation key (dmKey, or "s:<stream>:<topic>") → typist → when the indicator expires (ms). */
  typing: Map<string, Map<number, number>>;
  drafts: Map<number, Draft>;
  /** "<stream id>:<topic>" → visibility_policy. */
  userTopics: Map<string, number>;
  mutedUsers: Set<number>;
  /** Channel → topic → newest message id known in it (from fetched messages, events and /topics). */
  topics: Map<number, Map<string, number>>;
  /** dmKey → newest message id in that conversation. */
  recentDms: Map<string, number>;
  alertWords: string[];
  profileFields: Record<string, unknown>[];
  scheduled: Record<string, unknown>[];
  /** realm_bots: one's own bots (every bot for administrators), with their API keys. */
  bots: Map<number, Record<string, unknown>>;
};

/** An event as /events delivers it. */
export type ServerEvent = { id: number; type: string } & Record<string, unknown>;
