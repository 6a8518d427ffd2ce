/**
 * Martin Porter's stemming algorithm (1980, with the "bli" and "logi" rules of his reference
 * implementation), as SQLite's FTS5 porter tokenizer applies it: lower-case ASCII words of three
 * letters or more; anything else is its own stem.
 */
export function porterStem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  let w = step1a(word);
  w = step1b(w);
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}

const STEP2: [string, string][] = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"], ["bli", "ble"],
  ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"], ["ization", "ize"], ["ation", "ate"],
  ["ator", "ate"], ["alism", "al"], ["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"],
  ["iviti", "ive"], ["biliti", "ble"], ["logi", "log"],
];
const STEP3: [string, string][] = [["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""]];
const STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false;
  if (c === "y") return i === 0 || !isConsonant(w, i - 1);
  return true;
}

/** The number of vowel-consonant sequences in a stem (Porter's m). */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  while (i < stem.length && isConsonant(stem, i)) i++;
  while (i < stem.length) {
    while (i < stem.length && !isConsonant(stem, i)) i++;
    if (i >= stem.length) break;
    while (i < stem.length && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** Consonant-vowel-consonant at the end, the last not w, x or y (Porter's *o). */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3 || !isConsonant(w, n - 1) || isConsonant(w, n - 2) || !isConsonant(w, n - 3)) return false;
  return !"wxy".includes(w[n - 1] ?? "");
}

function step1a(w: string): string {
  if (w.endsWith("sses") || w.endsWith("ies")) return w.slice(0, -2);
  if (w.endsWith("ss")) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

function step1b(w: string): string {
  if (w.endsWith("eed")) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  const suffix = w.endsWith("ed") ? 2 : w.endsWith("ing") ? 3 : 0;
  if (suffix === 0 || !hasVowel(w.slice(0, -suffix))) return w;
  const stem = w.slice(0, -suffix);
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return `${stem}e`;
  if (endsDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`;
  return stem;
}

/** Replaces the longest listed suffix when the stem before it has m > minMeasure. */
function replaceSuffix(w: string, rules: readonly [string, string][], minMeasure: number): string {
  let best: [string, string] | undefined;
  for (const rule of rules) if (w.endsWith(rule[0]) && (!best || rule[0].length > best[0].length)) best = rule;
  if (!best) return w;
  const stem = w.slice(0, -best[0].length);
  return measure(stem) > minMeasure ? stem + best[1] : w;
}

function step4(w: string): string {
  let best = "";
  for (const suffix of STEP4) if (w.endsWith(suffix) && suffix.length > best.length) best = suffix;
  if (!best) return w;
  const stem = w.slice(0, -best.length);
  if (best === "ion" && !/[st]$/.test(stem)) return w;
  return measure(stem) > 1 ? stem : w;
}

function step5(w: string): string {
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (w.endsWith("ll") && measure(w) > 1) w = w.slice(0, -1);
  return w;
}
