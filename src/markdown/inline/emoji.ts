/** `:name:` emoji, emoticons and unicode emoji, with Zulip's markup. */
import { emojiByCode, emojiByName } from "../emoji-data.js";
import { escapeAttr, escapeText } from "../escape.js";
import { regexPattern, type InlineEnv, type InlinePattern } from "./engine.js";

// The markup of an emoji depends only on its code and name, so it is built once.
const spanCache = new Map<string, string>();

function unicodeEmoji(env: InlineEnv, code: string, name: string): string {
  const key = `${code} ${name}`;
  let html = spanCache.get(key);
  if (html === undefined) {
    const title = escapeAttr(name.replace(/_/g, " "));
    html = `<span aria-label="${title}" class="emoji emoji-${escapeAttr(code)}" role="img" title="${title}">${escapeText(`:${name}:`)}</span>`;
    spanCache.set(key, html);
  }
  return env.stash.put({ kind: "raw", html });
}

function imageEmoji(env: InlineEnv, src: string, name: string): string {
  const attrs: [string, string][] = [
    ["alt", `:${name}:`],
    ["class", "emoji"],
    ["src", src],
    ["title", name.replace(/_/g, " ")],
  ];
  return env.stash.put({ kind: "element", tag: "img", attrs, children: "" });
}

/** `:name:` — custom emoji first, then `:zulip:`, then unicode; unknown names stay text. */
export const emojiPattern: InlinePattern = regexPattern(
  "emoji",
  /:[\p{L}\p{N}_+-]+:/gu,
  (m, env) => {
    const name = m[0].slice(1, -1);
    const custom = env.ctx.realmEmoji?.(name);
    if (custom !== undefined) return imageEmoji(env, custom.url, name);
    if (name === "zulip") return imageEmoji(env, "/static/generated/emoji/images/emoji/unicode/zulip.png", name);
    const emoji = emojiByName(name);
    if (emoji !== undefined) return unicodeEmoji(env, emoji.code, name);
    // Left as text; scanning resumes after it, so its colons cannot pair with the next name.
    return null;
  },
  ":",
);

// Zulip's EMOTICON_CONVERSIONS (tools/setup/emoji/emoji_setup_utils.py), in its order: at one
// position the first that matches wins, so "(:)" is "(:" then ")".
const emoticons: Record<string, string> = {
  ":)": "smile",
  "(:": "smile",
  ":(": "frown",
  "<3": "heart",
  ":|": "neutral",
  ":/": "confused",
  ";)": "wink",
  ":D": "grinning",
  ":o": "open_mouth",
  ":O": "open_mouth",
  ":p": "stuck_out_tongue",
  ":P": "stuck_out_tongue",
};
// Zulip's terminal_symbols (zerver/lib/emoji.py): an emoticon stands between these or the text's ends.
const terminal = String.raw`,.;?!()\[\] "'\n\t`;
const emoticonRe = new RegExp(
  `(?<![^${terminal}])(${Object.keys(emoticons).map((e) => e.replace(/[()|/[\]]/g, "\\$&")).join("|")})(?![^${terminal}])`,
  "g",
);

/** Emoticons such as `:)`, only when the sender turned the setting on. */
export const emoticonPattern: InlinePattern = {
  name: "translate_emoticons",
  apply(text, env, index) {
    if (env.ctx.translateEmoticons !== true) return text;
    return regexPattern("translate_emoticons", emoticonRe, (m) => {
      const name = emoticons[m[0]];
      const emoji = name === undefined ? undefined : emojiByName(name);
      return emoji === undefined || name === undefined ? null : unicodeEmoji(env, emoji.code, name);
    }).apply(text, env, index);
  },
};

const possibleEmoji = new RegExp(
  // ASCII digits, # and * count as emoji only as keycaps; skipping them early keeps digits cheap.
  String.raw`\p{RI}\p{RI}|[#*0-9]\uFE0F?\u20E3|(?![#*0-9])\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?(?:\u200D(?:\p{RI}\p{RI}|\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?))*`,
  "gu",
);
const textPresentation = /^\P{Emoji_Presentation}\u20E3?$/u;

/** Unicode emoji characters, wrapped in the same span as their `:name:` form. */
export const unicodeEmojiPattern: InlinePattern = regexPattern("unicodeemoji", possibleEmoji, (m, env) => {
  const seq = m[0];
  // Arrows, digits and other characters that default to text are left alone.
  if (textPresentation.test(seq)) return null;
  const code = [...seq]
    .filter((ch) => ch !== "\uFE0F")
    .map((ch) => (ch.codePointAt(0) ?? 0).toString(16).padStart(4, "0"))
    .join("-");
  const emoji = emojiByCode(code);
  return emoji === undefined ? null : unicodeEmoji(env, emoji.code, emoji.name);
});
