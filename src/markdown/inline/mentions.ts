/** User, group and wildcard mentions, and links to channels and topics. */
import { regexPattern, type InlinePattern } from "./engine.js";

// A mention or channel link must not start mid-word.
const before = String.raw`(?<![^\s'"({\[/<])`;
const streamWildcards = new Set(["all", "everyone", "stream", "channel"]);
// Shown for the empty topic, which has no name of its own.
const emptyTopicName = "general chat";

/** Encodes a URL fragment component the way Zulip's narrow URLs do. */
export function hashEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/\./g, "%2E")
    .replace(/%/g, ".");
}

/** Zulip's encode_stream: `<id>-<name>` for narrow URLs. */
export function channelSlug(id: number, name: string): string {
  return `${id}-${hashEncode(name.replace(/ /g, "-"))}`;
}

/** `@**Full Name**`, `@**Full Name|id**`, `@_**…**` and the wildcards. */
export const userMentionPattern: InlinePattern = regexPattern(
  "usermention",
  new RegExp(String.raw`${before}@(_?)\*\*([^*\u0002\u0003]+)\*\*`, "g"),
  (m, env) => {
    let name = m[2] ?? "";
    // Quoting a message must not notify the people it mentioned.
    const silent = m[1] === "_" || env.inBlockquote;
    const topicWildcard = name === "topic";
    const streamWildcard = streamWildcards.has(name);
    let userId: string | null = null;
    if (streamWildcard) {
      if (!silent) env.found.streamWildcard = true;
      userId = "*";
    } else if (topicWildcard) {
      if (!silent) env.found.topicWildcard = true;
    } else {
      const idSyntax = /^(.+)?\|(\d+)$/.exec(name);
      let user;
      if (idSyntax) {
        user = env.ctx.userById(Number(idSyntax[2]));
        if (user && idSyntax[1] !== undefined && user.fullName !== idSyntax[1]) return null;
      } else {
        user = env.ctx.userByName(name)[0];
      }
      if (user === undefined) return null;
      if (!silent) env.found.mentionedUserIds.add(user.id);
      name = user.fullName;
      userId = String(user.id);
    }
    let cls = topicWildcard ? "topic-mention" : streamWildcard ? "user-mention channel-wildcard-mention" : "user-mention";
    if (silent) cls += " silent";
    const attrs: [string, string][] = [["class", cls]];
    if (userId !== null) attrs.push(["data-user-id", userId]);
    return env.stash.put({ kind: "element", tag: "span", attrs, children: env.stash.put({ kind: "text", text: silent ? name : `@${name}` }) });
  },
  "@",
);

/** `@*group*` and the silent `@_*group*`. */
export const groupMentionPattern: InlinePattern = regexPattern(
  "usergroupmention",
  new RegExp(String.raw`${before}@(_?)\*([^*\u0002\u0003]+)\*`, "g"),
  (m, env) => {
    const group = env.ctx.groupByName(m[2] ?? "");
    if (group === undefined) return null;
    const silent = m[1] === "_" || env.inBlockquote;
    if (!silent) env.found.mentionedGroupIds.add(group.id);
    const attrs: [string, string][] = [
      ["class", silent ? "user-group-mention silent" : "user-group-mention"],
      ["data-user-group-id", String(group.id)],
    ];
    const text = silent ? group.name : `@${group.name}`;
    return env.stash.put({ kind: "element", tag: "span", attrs, children: env.stash.put({ kind: "text", text }) });
  },
  "@",
);

function topicChildren(env: Parameters<InlinePattern["apply"]>[1], channel: string, topic: string, suffix: string): string {
  if (topic !== "") return env.stash.put({ kind: "text", text: `#${channel} > ${topic}${suffix}` });
  const em = env.stash.put({ kind: "element", tag: "em", attrs: [], children: env.stash.put({ kind: "text", text: emptyTopicName }) });
  return env.stash.put({ kind: "text", text: `#${channel} > ` }) + em + (suffix === "" ? "" : env.stash.put({ kind: "text", text: suffix }));
}

/** `#**channel>topic@123**`: a link to one message. */
export const messageLinkPattern: InlinePattern = regexPattern(
  "stream_topic_message",
  new RegExp(String.raw`${before}#\*\*([^*>\u0002\u0003]+)>([^*\u0002\u0003]*)@(\d+)\*\*`, "g"),
  (m, env) => {
    const channelName = m[1] ?? "";
    const topic = m[2] ?? "";
    const channel = env.ctx.channelByName(channelName);
    if (channel === undefined) return null;
    const href = `/#narrow/channel/${channelSlug(channel.id, channelName)}/topic/${hashEncode(topic)}/near/${m[3] ?? ""}`;
    const attrs: [string, string][] = [["class", "message-link"], ["href", href]];
    return env.stash.put({ kind: "element", tag: "a", attrs, children: topicChildren(env, channelName, topic, " @ 💬") });
  },
  "#**",
);

/** `#**channel>topic**`. */
export const topicLinkPattern: InlinePattern = regexPattern(
  "topic",
  new RegExp(String.raw`${before}#\*\*([^*>\u0002\u0003]+)>([^*\u0002\u0003]*)\*\*`, "g"),
  (m, env) => {
    const channelName = m[1] ?? "";
    const topic = m[2] ?? "";
    const channel = env.ctx.channelByName(channelName);
    if (channel === undefined) return null;
    const href = `/#narrow/channel/${channelSlug(channel.id, channelName)}/topic/${hashEncode(topic)}`;
    const attrs: [string, string][] = [["class", "stream-topic"], ["data-stream-id", String(channel.id)], ["href", href]];
    return env.stash.put({ kind: "element", tag: "a", attrs, children: topicChildren(env, channelName, topic, "") });
  },
  "#**",
);

/** `#**channel**`. */
export const channelLinkPattern: InlinePattern = regexPattern(
  "stream",
  new RegExp(String.raw`${before}#\*\*([^*\u0002\u0003]+)\*\*`, "g"),
  (m, env) => {
    const channelName = m[1] ?? "";
    const channel = env.ctx.channelByName(channelName);
    if (channel === undefined) return null;
    const href = `/#narrow/channel/${channelSlug(channel.id, channelName)}`;
    const attrs: [string, string][] = [["class", "stream"], ["data-stream-id", String(channel.id)], ["href", href]];
    return env.stash.put({ kind: "element", tag: "a", attrs, children: env.stash.put({ kind: "text", text: `#${channelName}` }) });
  },
  "#**",
);
