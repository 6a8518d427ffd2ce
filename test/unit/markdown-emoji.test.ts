/** Zulip 9.0's unicode emoji names, and how messages render them. */
import { describe, expect, it } from "vitest";
import { emojiByCode, emojiByName, emojiCodeToNames } from "../../src/markdown/emoji-data.js";
import { renderMarkdown } from "../../src/markdown/index.js";
import { testContext } from "./markdown-fixtures.js";

const html = (content: string) => renderMarkdown(content, testContext()).html;
const span = (code: string, name: string) =>
  `<span aria-label="${name.replace(/_/g, " ")}" class="emoji emoji-${code}" role="img" title="${name.replace(/_/g, " ")}">:${name}:</span>`;

// [name, code]: Zulip's own names, its aliases, keycaps, flags and the ZWJ sequences it names.
const names: [string, string][] = [
  ["holiday_tree", "1f384"],
  ["smile", "1f642"],
  ["smiling_face", "263a"],
  ["relaxed", "263a"],
  ["big_smile", "1f604"],
  ["grinning", "1f600"],
  ["happy", "1f600"],
  ["+1", "1f44d"],
  ["thumbs_up", "1f44d"],
  ["like", "1f44d"],
  ["heart", "2764"],
  ["love_you", "2764"],
  ["pray", "1f64f"],
  ["first_place", "1f947"],
  ["gold", "1f947"],
  ["hash", "0023-20e3"],
  ["flag_united_states", "1f1fa-1f1f8"],
  ["rainbow_flag", "1f3f3-200d-1f308"],
  ["pirate_flag", "1f3f4-200d-2620"],
  ["eye_in_speech_bubble", "1f441-200d-1f5e8"],
  ["heart_on_fire", "2764-200d-1f525"],
  ["man_technologist", "1f468-200d-1f4bb"],
  ["couple_with_heart_woman_man", "1f469-200d-2764-200d-1f468"],
  ["face_in_clouds", "1f636-200d-1f32b"],
  ["no_signal", "1f645"],
  ["nope", "1f645"],
  // Emoji 15.0, named after the dataset.
  ["shaking_face", "1fae8"],
  ["pink_heart", "1fa77"],
];

// Names other software uses that Zulip does not have.
const unknown = ["christmas_tree", "slightly_smiling_face", "slight_smile", "fried_egg", "hankey", "man-girl-girl", "man_girl_girl", "clock1", "skin-tone-2", "lime"];

describe("Zulip's unicode emoji names", () => {
  for (const [name, code] of names) {
    it(`:${name}: is ${code}`, () => {
      expect(emojiByName(name)?.code).toBe(code);
      expect(html(`:${name}:`)).toBe(`<p>${span(code, name)}</p>`);
    });
  }

  it.each(unknown)(":%s: is not an emoji", (name) => {
    expect(emojiByName(name)).toBeUndefined();
    expect(html(`:${name}:`)).toBe(`<p>:${name}:</p>`);
  });

  it("names an emoji by its canonical name when found by code", () => {
    expect(emojiByCode("1f44d")?.name).toBe("+1");
    expect(emojiByCode("1f384")?.name).toBe("holiday_tree");
    expect(emojiByCode("1f441-200d-1f5e8")?.name).toBe("eye_in_speech_bubble");
    // Codes are unqualified: no U+FE0F, and skin tones are not separate emoji.
    expect(emojiByCode("1f441-fe0f-200d-1f5e8-fe0f")).toBeUndefined();
    expect(emojiByCode("1f44d-1f3fd")).toBeUndefined();
  });

  it("lists every name of an emoji once, canonical first", () => {
    const codes = emojiCodeToNames();
    expect(codes["1f44d"]).toEqual(["+1", "thumbs_up", "like"]);
    expect(codes["1f3f4-200d-2620"]).toEqual(["pirate_flag", "jolly_roger", "plunder"]);
    const all = Object.values(codes).flat();
    expect(new Set(all).size).toBe(all.length);
  });
});

describe("unicode emoji in text", () => {
  it("wraps a known emoji, with or without U+FE0F, in its canonical name's span", () => {
    expect(html("🎄")).toBe(`<p>${span("1f384", "holiday_tree")}</p>`);
    expect(html("👍")).toBe(`<p>${span("1f44d", "+1")}</p>`);
    expect(html("❤️")).toBe(`<p>${span("2764", "heart")}</p>`);
  });

  it("wraps a ZWJ sequence Zulip names as one emoji", () => {
    expect(html("🏳️‍🌈")).toBe(`<p>${span("1f3f3-200d-1f308", "rainbow_flag")}</p>`);
    expect(html("👨‍💻")).toBe(`<p>${span("1f468-200d-1f4bb", "man_technologist")}</p>`);
    expect(html("👨‍👧‍👧")).toBe(`<p>${span("1f468-200d-1f467-200d-1f467", "family_man_girl_girl")}</p>`);
  });

  it("leaves skin-toned emoji and unnamed sequences as typed", () => {
    expect(html("👍🏽")).toBe("<p>👍🏽</p>");
    expect(html("🐦‍🔥")).toBe("<p>🐦‍🔥</p>");
  });

  it("leaves characters that default to text presentation alone", () => {
    expect(html("a 1 # * ↔ b")).toBe("<p>a 1 # * ↔ b</p>");
  });
});

describe("emoticons, with translate_emoticons on", () => {
  const translated = (content: string) => renderMarkdown(content, { ...testContext(), translateEmoticons: true }).html;
  // Zulip's EMOTICON_CONVERSIONS.
  const conversions: [string, string, string][] = [
    [":)", "1f642", "smile"],
    ["(:", "1f642", "smile"],
    [":(", "1f641", "frown"],
    ["<3", "2764", "heart"],
    [":|", "1f610", "neutral"],
    [":/", "1f615", "confused"],
    [";)", "1f609", "wink"],
    [":D", "1f600", "grinning"],
    [":o", "1f62e", "open_mouth"],
    [":O", "1f62e", "open_mouth"],
    [":p", "1f61b", "stuck_out_tongue"],
    [":P", "1f61b", "stuck_out_tongue"],
  ];
  for (const [emoticon, code, name] of conversions) {
    it(`turns ${emoticon} into :${name}: between spaces, punctuation and the text's ends`, () => {
      const emoji = span(code, name);
      expect(translated(emoticon)).toBe(`<p>${emoji}</p>`);
      expect(translated(`a ${emoticon} b`)).toBe(`<p>a ${emoji} b</p>`);
      expect(translated(`end ${emoticon}.`)).toBe(`<p>end ${emoji}.</p>`);
      expect(translated(`${emoticon}, ${emoticon}!`)).toBe(`<p>${emoji}, ${emoji}!</p>`);
      expect(translated(`"${emoticon}"`)).toBe(`<p>"${emoji}"</p>`);
      expect(translated(`[${emoticon}]`)).toBe(`<p>[${emoji}]</p>`);
    });
    it(`leaves ${emoticon} touching a letter or in code as typed`, () => {
      const escaped = emoticon.replace("<", "&lt;");
      expect(translated(`x${emoticon}`)).toBe(`<p>x${escaped}</p>`);
      expect(translated(`${emoticon}x`)).toBe(`<p>${escaped}x</p>`);
      expect(translated(`\`${emoticon}\``)).toBe(`<p><code>${escaped}</code></p>`);
      expect(html(emoticon)).toBe(`<p>${escaped}</p>`);
    });
  }

  it("takes the first conversion that matches at a position", () => {
    expect(translated("(:)")).toBe(`<p>${span("1f642", "smile")})</p>`);
  });
});
