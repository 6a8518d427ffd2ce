/** The named character groups RE2 knows (its Unicode 15 tables), as JavaScript can spell them. */

/** An inclusive code-point range. */
export type Range = readonly [number, number];

/** RE2's Perl classes: ASCII only, whatever the flags. */
export const PERL_GROUPS: Readonly<Record<string, { ranges: readonly Range[]; negated: boolean }>> = {
  "\\d": { ranges: [[0x30, 0x39]], negated: false },
  "\\D": { ranges: [[0x30, 0x39]], negated: true },
  "\\s": { ranges: [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]], negated: false },
  "\\S": { ranges: [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]], negated: true },
  "\\w": { ranges: wordRanges(), negated: false },
  "\\W": { ranges: wordRanges(), negated: true },
};

function wordRanges(): Range[] {
  return [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
}

const POSIX: Readonly<Record<string, readonly Range[]>> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: wordRanges(),
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};

/** A POSIX class by its bracketed name ("[:alpha:]", "[:^alpha:]"), or undefined. */
export function posixGroup(name: string): { ranges: readonly Range[]; negated: boolean } | undefined {
  const m = /^\[:(\^?)([a-z]+):\]$/.exec(name);
  const ranges = m ? POSIX[m[2] ?? ""] : undefined;
  return m && ranges && Object.hasOwn(POSIX, m[2] ?? "") ? { ranges, negated: m[1] === "^" } : undefined;
}

const CATEGORIES = new Set(
  "C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs".split(" "),
);

const SCRIPTS = new Set(
  (
    "Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali " +
    "Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian " +
    "Chakma Cham Cherokee Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret " +
    "Devanagari Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian " +
    "Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo " +
    "Hatran Hebrew Hiragana Imperial_Aramaic Inherited Inscriptional_Pahlavi Inscriptional_Parthian " +
    "Javanese Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki " +
    "Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani Makasar Malayalam " +
    "Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive " +
    "Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nag_Mundari Nandinagari " +
    "New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic " +
    "Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya " +
    "Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic " +
    "Samaritan Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo " +
    "Sundanese Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut " +
    "Telugu Thaana Thai Tibetan Tifinagh Tirhuta Toto Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi " +
    "Zanabazar_Square"
  ).split(" "),
);

/**
 * A Unicode group of \\p{Name} (or its complement) as a JavaScript class item for use inside
 * [...] with the u flag, or undefined for a name RE2 does not know. RE2's "C" leaves out
 * unassigned code points; its complement here leaves them out too (the nearest JavaScript has).
 */
export function unicodeGroup(name: string, negated: boolean): string | undefined {
  if (name === "Any") return negated ? "" : "\\u{0}-\\u{10FFFF}";
  if (name === "C") return negated ? "\\P{C}" : "\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}";
  const p = negated ? "P" : "p";
  if (CATEGORIES.has(name)) return `\\${p}{${name}}`;
  if (SCRIPTS.has(name)) return `\\${p}{Script=${name}}`;
  return undefined;
}

/** The characters RE2 accepts in a capture name (Python 3's identifier categories). */
export const CAPTURE_NAME = /^[\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]+$/u;
