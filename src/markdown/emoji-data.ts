/** Zulip's emoji names: the iamcal dataset Zulip builds from, with Zulip's own naming on top. */
import { createRequire } from "node:module";

/** One unicode emoji as Zulip names it. */
export interface EmojiEntry {
  code: string; // lower-case hex code points joined by "-", without U+FE0F
  name: string; // canonical name, used for the title of a rendered unicode emoji
}

interface RawEmoji {
  unified: string;
  nonQualified: string | null;
  shortNames: string[];
  category: string;
  addedIn: number;
}

// Zulip renamed a number of emoji; these are the names its clients send and
// expect, so they take precedence over the dataset's short names. The first
// name of each entry is canonical.
const zulipNames: Record<string, string[]> = {
  "1f642": ["smile", "slight_smile"],
  "1f604": ["big_smile"],
  "1f408": ["cat"],
  "1f431": ["cat_face"],
  "1f415": ["dog"],
  "1f436": ["dog_face"],
  "1f407": ["rabbit"],
  "1f430": ["rabbit_face"],
  "1f95d": ["kiwi"],
  "1f947": ["gold"],
  "1f948": ["silver"],
  "1f949": ["bronze"],
  "1f4a9": ["poop", "pile_of_poo"],
  "1f373": ["cooking"],
  "1f44d": ["+1", "thumbs_up", "like"],
  "1f44e": ["-1", "thumbs_down"],
  "1f641": ["frown", "slight_frown"],
  "1f610": ["neutral"],
  "1f615": ["confused"],
  "1f389": ["tada"],
  "2705": ["check", "all_good", "approved"],
  "1f6e0": ["working_on_it", "hammer_and_wrench", "tools"],
  "1f602": ["joy", "tears", "laughter_tears"],
  "1f600": ["grinning", "happy"],
  "1f44b": ["wave", "hello", "hi"],
  "2764": ["heart", "love"],
  "1f441-200d-1f5e8": ["eye_in_speech_bubble"],
  "1f3f3-200d-1f308": ["rainbow_flag"],
  "1f3f4-200d-2620": ["pirate_flag"],
};

// Dataset names Zulip deliberately does not accept.
const bannedNames = new Set(["fried_egg", "hankey", "shit", "slightly_smiling_face"]);

// Zulip's dataset stops before Emoji 15.1.
const newestEmojiVersion = 15.0;

function readDataset(): RawEmoji[] {
  const require = createRequire(import.meta.url);
  const raw: unknown = require("emoji-datasource/emoji.json");
  if (!Array.isArray(raw)) throw new Error("emoji-datasource: unexpected format");
  const out: RawEmoji[] = [];
  for (const item of raw) {
    if (typeof item !== "object" || item === null) continue;
    const field = (key: string): unknown => Reflect.get(item, key);
    const [unified, nonQualified, shortNames, category, addedIn] = [
      field("unified"), field("non_qualified"), field("short_names"), field("category"), field("added_in"),
    ];
    if (typeof unified !== "string" || !Array.isArray(shortNames) || typeof category !== "string") continue;
    out.push({
      unified,
      nonQualified: typeof nonQualified === "string" ? nonQualified : null,
      shortNames: shortNames.filter((n: unknown): n is string => typeof n === "string"),
      category,
      addedIn: typeof addedIn === "string" ? Number(addedIn) : 0,
    });
  }
  return out;
}

function toCode(hex: string): string {
  return hex
    .toLowerCase()
    .split("-")
    .filter((part) => part !== "fe0f")
    .join("-");
}

function build(): { byName: Map<string, string>; byCode: Map<string, string> } {
  const byName = new Map<string, string>();
  const byCode = new Map<string, string>();
  for (const [code, names] of Object.entries(zulipNames)) {
    const canonical = names[0];
    if (canonical !== undefined) byCode.set(code, canonical);
    for (const name of names) byName.set(name, code);
  }
  for (const emoji of readDataset()) {
    if (emoji.category === "Component" || emoji.addedIn > newestEmojiVersion) continue;
    const code = toCode(emoji.nonQualified ?? emoji.unified);
    // Zulip leaves out ZWJ sequences (families, professions) except a few.
    if (code.includes("200d") && !(code in zulipNames)) continue;
    for (const shortName of emoji.shortNames) {
      const name = shortName.replace(/-/g, "_");
      if (bannedNames.has(name) || byName.has(name)) continue;
      byName.set(name, code);
      if (!byCode.has(code)) byCode.set(code, name);
    }
  }
  return { byName, byCode };
}

// Built on first use: the dataset is large and many processes never look up an emoji.
let built: ReturnType<typeof build> | undefined;
function tables(): ReturnType<typeof build> {
  built ??= build();
  return built;
}

/** Looks up a unicode emoji by Zulip name. */
export function emojiByName(name: string): EmojiEntry | undefined {
  const code = tables().byName.get(name);
  if (code === undefined) return undefined;
  return { code, name };
}

/** Looks up a unicode emoji by its code (hex code points, no U+FE0F). */
export function emojiByCode(code: string): EmojiEntry | undefined {
  const name = tables().byCode.get(code);
  if (name === undefined) return undefined;
  return { code, name };
}

/** Every unicode emoji's code with all its Zulip names, the canonical one first (emoji_api.json's code_to_names). */
export function emojiCodeToNames(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  // byName keeps insertion order, and each code's first name is the one byCode calls canonical.
  for (const [name, code] of tables().byName) (out[code] ??= []).push(name);
  return out;
}
