/** Zulip's inline patterns, in priority order (earlier patterns win). */
import type { InlinePattern } from "./engine.js";
import { backtickPattern } from "./code.js";
import { delPattern, emphasisPattern, newlinePattern, notStrongPattern, strongEmPattern, strongPattern } from "./emphasis.js";
import { emojiPattern, emoticonPattern, unicodeEmojiPattern } from "./emoji.js";
import { autolinkPattern, linkPattern } from "./links.js";
import {
  channelLinkPattern,
  groupMentionPattern,
  messageLinkPattern,
  topicLinkPattern,
  userMentionPattern,
} from "./mentions.js";
import { texPattern, timestampPattern } from "./special.js";
import type { RenderLinkifier } from "../context.js";
import { linkifierPattern } from "./linkifiers.js";

/** The pattern list every paragraph, heading and table cell goes through. */
export const inlinePatterns: readonly InlinePattern[] = [
  backtickPattern,
  strongEmPattern,
  userMentionPattern,
  texPattern,
  messageLinkPattern,
  topicLinkPattern,
  channelLinkPattern,
  timestampPattern,
  groupMentionPattern,
  linkPattern,
  autolinkPattern,
  strongPattern,
  emphasisPattern,
  delPattern,
  notStrongPattern,
  emojiPattern,
  emoticonPattern,
  newlinePattern,
  unicodeEmojiPattern,
];

const withLinkifiers = new WeakMap<readonly RenderLinkifier[], readonly InlinePattern[]>();

/** The pattern list with a realm's linkifiers in Zulip's place for them: after bare URLs, before bold. */
export function inlinePatternsWith(linkifiers: readonly RenderLinkifier[] | undefined): readonly InlinePattern[] {
  if (linkifiers === undefined || linkifiers.length === 0) return inlinePatterns;
  let list = withLinkifiers.get(linkifiers);
  if (list === undefined) {
    const at = inlinePatterns.indexOf(autolinkPattern) + 1;
    list = [...inlinePatterns.slice(0, at), ...linkifiers.map(linkifierPattern), ...inlinePatterns.slice(at)];
    withLinkifiers.set(linkifiers, list);
  }
  return list;
}
