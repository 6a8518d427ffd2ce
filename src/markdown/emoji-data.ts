/** Zulip's emoji names: Zulip's own name table, plus the Emoji 15.0 additions from the iamcal dataset. */
import { createRequire } from "node:module";
import { zulipEmojiNames } from "./emoji-names/index.js";

/** One unicode emoji as Zulip names it. */
export interface EmojiEntry {
  code: string; // lower-case hex code points joined by "-", without U+FE0F
  name: string; // the name it was looked up by, or its canonical name when looked up by code
}

interface RawEmoji {
  unified: string;
  shortNames: string[];
  category: string;
  addedIn: string;
}

// Zulip 9.0 builds from emoji-datasource 15.0: the Emoji 15.0 additions are named after the
// dataset, everything older after Zulip's table. Emoji 15.1 (🍋‍🟩, 🐦‍🔥…) is not known.
const datasetOnlyVersion = "15.0";

function readDataset(): RawEmoji[] {
  const require = createRequire(import.meta.url);
  const raw: unknown = require("emoji-datasource/emoji.json");
  if (!Array.isArray(raw)) throw new Error("emoji-datasource: unexpected format");
  const out: RawEmoji[] = [];
  for (const item of raw) {
    if (typeof item !== "object" || item === null) continue;
    const field = (key: string): unknown => Reflect.get(item, key);
    const [unified, shortNames, category, addedIn] = [field("unified"), field("short_names"), field("category"), field("added_in")];
    if (typeof unified !== "string" || !Array.isArray(shortNames) || typeof category !== "string") continue;
    out.push({
      unified,
      shortNames: shortNames.filter((n: unknown): n is string => typeof n === "string"),
      category,
      addedIn: typeof addedIn === "string" ? addedIn : "",
    });
  }
  return out;
}

/** The code Zulip keys an emoji by (get_emoji_code): lower-case hex code points joined by "-", U+FE0F removed. */
export function emojiCode(hex: string): string {
  return hex
    .toLowerCase()
    .split("-")
    .filter((part) => part !== "fe0f")
    .join("-");
}

interface Tables {
  byName: Map<string, string>;
  byCode: Map<string, string[]>;
}

function build(): Tables {
  const tables: Tables = { byName: new Map(), byCode: new Map() };
  const add = (code: string, names: string[]): void => {
    const fresh = names.filter((name) => name !== "" && !tables.byName.has(name));
    if (fresh.length === 0 || tables.byCode.has(code)) return;
    tables.byCode.set(code, fresh);
    for (const name of fresh) tables.byName.set(name, code);
  };
  for (const line of zulipEmojiNames.split("\n")) {
    const [code, ...names] = line.split(" ");
    if (code !== undefined && code !== "") add(code, names);
  }
  for (const emoji of readDataset()) {
    if (emoji.category === "Component" || emoji.addedIn !== datasetOnlyVersion) continue;
    add(emojiCode(emoji.unified), emoji.shortNames.map((name) => name.replace(/-/g, "_")));
  }
  return tables;
}

// Built on first use: the dataset is large and many processes never look up an emoji.
let built: Tables | undefined;
function tables(): Tables {
  built ??= build();
  return built;
}

/** Looks up a unicode emoji by Zulip name (canonical or alias). */
export function emojiByName(name: string): EmojiEntry | undefined {
  const code = tables().byName.get(name);
  if (code === undefined) return undefined;
  return { code, name };
}

/** Looks up a unicode emoji by its code (hex code points, no U+FE0F); the name is the canonical one. */
export function emojiByCode(code: string): EmojiEntry | undefined {
  const name = tables().byCode.get(code)?.[0];
  if (name === undefined) return undefined;
  return { code, name };
}

/** Every unicode emoji's code with all its Zulip names, the canonical one first (emoji_api.json's code_to_names). */
export function emojiCodeToNames(): Record<string, string[]> {
  return Object.fromEntries(tables().byCode);
}
