import { createRequire } from "node:module";
import { emojiByCode, emojiCode } from "../markdown/emoji-data.js";

/** What the converter needs to know of the workspace. */
export interface MrkdwnNames {
  /** The full name a mention of this Slack user shows, or undefined for a user the export lacks. */
  userName(slackUserId: string): string | undefined;
  /** The imported channel's name for a Slack channel id, or undefined. */
  channelName(slackChannelId: string): string | undefined;
}

/** Markdown made of a Slack message's text, and the Slack users it mentions. */
export interface Converted {
  markdown: string;
  mentionedSlackIds: string[];
}

/**
 * Slack's mrkdwn to Zulip's Markdown: `*bold*` → `**bold**`, `_italic_` → `*italic*`,
 * `~strike~` → `~~strike~~` (only between word boundaries, as Slack formats them), `<@U…>` →
 * `@**Full Name**`, `<#C…|name>` → `#**name**`, `<!here>`/`<!channel>`/`<!everyone>` → `@**all**`,
 * `<url|text>` → `[text](url)`, `<url>` → `url`, `<mailto:a@b|a@b>` → `mailto:a@b`, and Slack's
 * three escapes (`&lt;` `&gt;` `&amp;`) back to characters. Code spans and blocks are left as
 * written (only unescaped); a one-line ```block``` becomes a fenced block.
 */
export function convertMrkdwn(text: string, names: MrkdwnNames): Converted {
  const mentioned: string[] = [];
  const pieces = splitCode(text);
  const markdown = pieces
    .map((piece) => {
      if (piece.kind === "block") return `\n\`\`\`\n${unescapeSlack(piece.text.replace(/^\n+|\n+$/g, ""))}\n\`\`\`\n`;
      if (piece.kind === "span") return "`" + unescapeSlack(piece.text) + "`";
      return unescapeSlack(convertProse(piece.text, names, mentioned));
    })
    .join("")
    .replace(/^\n+|\n+$/g, "");
  return { markdown, mentionedSlackIds: mentioned };
}

type Piece = { kind: "prose" | "span" | "block"; text: string };

/** Splits text into prose, `code spans` and ```code blocks```. */
function splitCode(text: string): Piece[] {
  const pieces: Piece[] = [];
  const pattern = /```([\s\S]*?)```|`([^`\n]+)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index;
    if (at > last) pieces.push({ kind: "prose", text: text.slice(last, at) });
    pieces.push(match[1] !== undefined ? { kind: "block", text: match[1] } : { kind: "span", text: match[2] ?? "" });
    last = at + match[0].length;
  }
  if (last < text.length) pieces.push({ kind: "prose", text: text.slice(last) });
  return pieces;
}

// A mark formats only when it follows the start of a line or a punctuation, space or symbol
// character, and precedes one or the end of a line (Slack formats no mid-word marks).
function formatting(mark: string): RegExp {
  const m = mark === "*" ? "\\*" : mark;
  const before = `(^|(?![${m}\`@\\\\\\p{Pf}\\p{Pe}])[\\p{P}\\p{Zs}\\p{S}])`;
  const after = `(?=(?![${m}\`@\\\\\\p{Pi}\\p{Ps}])[\\p{P}\\p{Zs}\\p{S}]|$)`;
  return new RegExp(`${before}${m}([^${m}\\n]+)${m}${after}`, "gmu");
}
const BOLD = formatting("*");
const STRIKE = formatting("~");
const ITALIC = formatting("_");

function convertProse(text: string, names: MrkdwnNames, mentioned: string[]): string {
  let out = text.replace(BOLD, "$1**$2**").replace(STRIKE, "$1~~$2~~").replace(ITALIC, "$1*$2*");
  out = out.replace(/<!(?:here|channel|everyone)(?:\|[^>]*)?>/g, "@**all**");
  out = out.replace(/<#([A-Z0-9]+)(?:\|([^>]*))?>/g, (whole, id: string, label: string | undefined) => {
    const name = names.channelName(id);
    if (name !== undefined) return `#**${name}**`;
    return label ? `#${label}` : whole;
  });
  out = out.replace(/<@([A-Za-z0-9]+)(?:\|[^>]*)?>/g, (whole, id: string) => {
    const name = names.userName(id);
    if (name === undefined) return whole;
    mentioned.push(id);
    return `@**${name}**`;
  });
  // Other special commands (<!subteam^S1|@team>, <!date^…|fallback>) show their label.
  out = out.replace(/<!([^>|]*)(?:\|([^>]*))?>/g, (_whole, command: string, label: string | undefined) => label ?? `@${command}`);
  out = out.replace(/<mailto:([^>|\s]+)(?:\|[^>]*)?>/g, "mailto:$1");
  out = out.replace(/<((?:https?|ftp):\/\/[^>|\s]+)(?:\|([^>]+))?>/g, (_whole, url: string, label: string | undefined) => (label !== undefined && label !== url ? `[${label}](${url})` : url));
  return out;
}

function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** A reaction as Zulip stores it: its Zulip name and code, or undefined for an emoji Zulip lacks. */
export interface MappedEmoji {
  name: string;
  code: string;
}

let slackCodes: Map<string, string> | undefined;

/**
 * Slack's emoji names are those of the iamcal dataset (emoji-datasource): a name maps to its code
 * point sequence, and the code to Zulip's canonical name for it. A skin tone (`clap::skin-tone-2`)
 * is dropped, as Zulip's reactions have none.
 */
export function mapSlackEmoji(slackName: string): MappedEmoji | undefined {
  const base = slackName.split("::")[0] ?? slackName;
  const hex = slackEmojiCodes().get(base);
  if (hex === undefined) return undefined;
  const entry = emojiByCode(emojiCode(hex));
  return entry ? { name: entry.name, code: entry.code } : undefined;
}

function slackEmojiCodes(): Map<string, string> {
  if (slackCodes) return slackCodes;
  const require = createRequire(import.meta.url);
  const raw: unknown = require("emoji-datasource/emoji.json");
  const codes = new Map<string, string>();
  if (Array.isArray(raw)) {
    for (const item of raw as unknown[]) {
      if (typeof item !== "object" || item === null) continue;
      const nonQualified: unknown = Reflect.get(item, "non_qualified");
      const unified: unknown = Reflect.get(item, "unified");
      const shortNames: unknown = Reflect.get(item, "short_names");
      const hex = typeof nonQualified === "string" ? nonQualified : typeof unified === "string" ? unified : undefined;
      if (hex === undefined || !Array.isArray(shortNames)) continue;
      for (const name of shortNames) if (typeof name === "string" && !codes.has(name)) codes.set(name, hex.toLowerCase());
    }
  }
  slackCodes = codes;
  return codes;
}
