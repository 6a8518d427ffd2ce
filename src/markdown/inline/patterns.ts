/** Zulip's inline patterns, in priority order (earlier patterns win). */
import type { InlinePattern } from "./engine.js";
import { backtickPattern } from "./code.js";
import { delPattern, emphasisPattern, newlinePattern, strongEmPattern, strongPattern } from "./emphasis.js";
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
  emojiPattern,
  emoticonPattern,
  newlinePattern,
  unicodeEmojiPattern,
];
