/**
 * Parsing the free-form times of `<time:…>` the way Zulip 9.0 does: python-dateutil's parser
 * (default options, no fuzzy matching) with Zulip's table of zone abbreviations, and a Unix
 * timestamp when that fails. What is not given is taken from today (UTC) at midnight.
 */

// Zulip's common_timezones (zerver/lib/timezone.py): abbreviation → offset in seconds.
const zoneOffsets: Record<string, number> = {
  SST: -39600, HST: -36000, AKST: -32400, HDT: -32400, AKDT: -28800, PST: -28800, MST: -25200,
  PDT: -25200, CST: -21600, MDT: -21600, CDT: -18000, EST: -18000, AST: -14400, EDT: -14400,
  NST: -12600, ADT: -10800, NDT: -9000, GMT: 0, UTC: 0, WET: 0, BST: 3600, CET: 3600, MET: 3600,
  WAT: 3600, WEST: 3600, CAT: 7200, CEST: 7200, EET: 7200, MEST: 7200, SAST: 7200, EAT: 10800,
  EEST: 10800, IDT: 10800, MSK: 10800, PKT: 18000, IST: 19800, WIB: 25200, AWST: 28800,
  HKT: 28800, WITA: 28800, JST: 32400, KST: 32400, WIT: 32400, ACST: 34200, AEST: 36000,
  ChST: 36000, ACDT: 37800, AEDT: 39600, NZST: 43200, NZDT: 46800,
};

// The words dateutil's parser knows (its English parserinfo).
const jumpWords = new Set([" ", ".", ",", ";", "-", "/", "'", "at", "on", "and", "ad", "m", "t", "of", "st", "nd", "rd", "th"]);
const weekdayWords = [["mon", "monday"], ["tue", "tuesday"], ["wed", "wednesday"], ["thu", "thursday"], ["fri", "friday"], ["sat", "saturday"], ["sun", "sunday"]];
const monthWords = [
  ["jan", "january"], ["feb", "february"], ["mar", "march"], ["apr", "april"], ["may"], ["jun", "june"],
  ["jul", "july"], ["aug", "august"], ["sep", "sept", "september"], ["oct", "october"], ["nov", "november"], ["dec", "december"],
];
const utcZones = new Set(["UTC", "GMT", "Z", "z"]);

function wordIndex(table: string[][], token: string): number | null {
  const t = token.toLowerCase();
  const i = table.findIndex((words) => words.includes(t));
  return i === -1 ? null : i;
}
const ampmOf = (token: string): number | null => ({ am: 0, a: 0, pm: 1, p: 1 })[token.toLowerCase()] ?? null;
const isJump = (token: string | undefined): boolean => token !== undefined && jumpWords.has(token.toLowerCase());
const isDigits = (token: string | undefined): boolean => token !== undefined && /^\d+$/.test(token);

/** Splits like dateutil's lexer: letter runs, numbers (with a decimal point), one token per space or sign. */
export function timeTokens(input: string): string[] {
  const out: string[] = [];
  const re = /[^\W\d_]+(?:\.(?:[^\W\d_]+|\d+))*\.?|\d+(?:[.,]\d*)*|\s|./gsu;
  for (const m of input.matchAll(re)) {
    const token = m[0];
    if (/\s/u.test(token)) out.push(" ");
    else if (/^\d+[.,]\d*$/.test(token) && (token.length > 3 || token.includes("."))) out.push(token.replace(",", "."));
    else if (token.includes(".") && (/[^\W\d_]/u.test(token) || token.split(".").length > 2 || token.endsWith("."))) {
      for (const part of token.split(/(\.)/)) if (part !== "") out.push(part);
    } else if (token.includes(",") && /^\d/.test(token)) {
      for (const part of token.split(/(,)/)) if (part !== "") out.push(part);
    } else out.push(token);
  }
  return out;
}

interface Ymd {
  values: number[];
  month: number | null; // index in values of a month given by name
  year: number | null; // index of a value known to be the year
  centurySpecified: boolean;
}

function appendYmd(ymd: Ymd, raw: string | number, label?: "M" | "Y"): void {
  let kind = label;
  if ((typeof raw === "string" && isDigits(raw) && raw.length > 2) || (typeof raw === "number" && raw > 100)) {
    ymd.centurySpecified = true;
    kind = "Y";
  }
  const value = typeof raw === "number" ? Math.trunc(raw) : Number.parseInt(raw, 10);
  if (!Number.isFinite(value)) throw new RangeError("not a number");
  // More than three parts can only end in failure; stopping here keeps long inputs cheap.
  if (ymd.values.length === 3) throw new RangeError("too many date parts");
  ymd.values.push(value);
  if (kind === "M") {
    if (ymd.month !== null) throw new RangeError("month twice");
    ymd.month = ymd.values.length - 1;
  } else if (kind === "Y") {
    if (ymd.year !== null) throw new RangeError("year twice");
    ymd.year = ymd.values.length - 1;
  }
}

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

function couldBeDay(ymd: Ymd, value: number): boolean {
  if (ymd.month === null) return value >= 1 && value <= 31;
  const month = ymd.values[ymd.month] ?? 1;
  const year = ymd.year === null ? 2000 : (ymd.values[ymd.year] ?? 2000);
  return value >= 1 && value <= daysIn(year, month);
}

interface Parsed {
  ymd: Ymd;
  hour: number | null;
  minute: number | null;
  second: number | null;
  micro: number | null;
  ampm: number | null;
  weekday: number | null;
  tzname: string | null;
  tzoffset: number | null;
}

function seconds(token: string): [number, number] {
  const [whole = "", frac] = token.split(".");
  return [Number.parseInt(whole, 10), frac === undefined ? 0 : Number((frac + "000000").slice(0, 6))];
}

function adjustAmpm(hour: number, ampm: number): number {
  if (hour < 12 && ampm === 1) return hour + 12;
  if (hour === 12 && ampm === 0) return 0;
  return hour;
}

// One number and what follows it; returns the index of the last token used.
function numeric(t: string[], i: number, res: Parsed): number {
  const token = t[i] ?? "";
  const value = Number(token);
  const len = token.length;
  const next = t[i + 1];
  const { ymd } = res;
  if (ymd.values.length === 3 && (len === 2 || len === 4) && res.hour === null && next !== ":" && wordIndex(hmsWords, next ?? "") === null) {
    res.hour = Number(token.slice(0, 2));
    if (len === 4) res.minute = Number(token.slice(2));
  } else if (len === 6 || (len > 6 && token.indexOf(".") === 6)) {
    if (ymd.values.length === 0 && !token.includes(".")) {
      appendYmd(ymd, token.slice(0, 2));
      appendYmd(ymd, token.slice(2, 4));
      appendYmd(ymd, token.slice(4));
    } else {
      res.hour = Number(token.slice(0, 2));
      res.minute = Number(token.slice(2, 4));
      [res.second, res.micro] = seconds(token.slice(4));
    }
  } else if (len === 8 || len === 12 || len === 14) {
    appendYmd(ymd, token.slice(0, 4), "Y");
    appendYmd(ymd, token.slice(4, 6));
    appendYmd(ymd, token.slice(6, 8));
    if (len > 8) {
      res.hour = Number(token.slice(8, 10));
      res.minute = Number(token.slice(10, 12));
      if (len > 12) res.second = Number(token.slice(12));
    }
  } else if (hmsAt(t, i) !== null) {
    const [unit, at] = hmsAt(t, i) ?? [0, i];
    setHms(res, unit, value);
    return Math.max(at, i);
  } else if (i + 2 < t.length && next === ":") {
    res.hour = Math.trunc(value);
    const minutes = Number(t[i + 2]);
    if (!Number.isFinite(minutes)) throw new RangeError("bad minutes");
    res.minute = Math.trunc(minutes);
    res.second = minutes % 1 ? Math.trunc(60 * (minutes % 1)) : null;
    if (i + 4 < t.length && t[i + 3] === ":") {
      [res.second, res.micro] = seconds(t[i + 4] ?? "");
      return i + 4;
    }
    return i + 2;
  } else if (next === "-" || next === "/" || next === ".") {
    appendYmd(ymd, token);
    const third = t[i + 2];
    if (third === undefined || isJump(third)) return i + 1;
    if (isDigits(third)) appendYmd(ymd, third);
    else {
      const month = wordIndex(monthWords, third);
      if (month === null) throw new RangeError("bad date");
      appendYmd(ymd, month + 1, "M");
    }
    if (t[i + 3] === next) {
      const fifth = t[i + 4] ?? "";
      const month = wordIndex(monthWords, fifth);
      if (month !== null) appendYmd(ymd, month + 1, "M");
      else appendYmd(ymd, fifth);
      return i + 4;
    }
    return i + 2;
  } else if (next === undefined || isJump(next)) {
    const after = t[i + 2];
    const ampm = after === undefined ? null : ampmOf(after);
    if (ampm !== null) {
      res.hour = adjustAmpm(Math.trunc(value), ampm);
      return i + 2;
    }
    appendYmd(ymd, value);
    return i + 1;
  } else if (ampmOf(next) !== null && value >= 0 && value < 24) {
    res.hour = adjustAmpm(Math.trunc(value), ampmOf(next) ?? 0);
    return i + 1;
  } else if (couldBeDay(ymd, value)) {
    appendYmd(ymd, value);
  } else throw new RangeError("bad number");
  return i;
}

const hmsWords = [["h", "hour", "hours"], ["m", "minute", "minutes"], ["s", "second", "seconds"]];

// "10h", "10 h", "30 minutes", or the number after "10h" in "10h30": which unit, and the index of its word.
function hmsAt(t: string[], i: number): [number, number] | null {
  const next = t[i + 1];
  if (next !== undefined) {
    const unit = wordIndex(hmsWords, next);
    if (unit !== null) return [unit, i + 1];
    const after = t[i + 2];
    const spaced = next === " " && after !== undefined ? wordIndex(hmsWords, after) : null;
    if (spaced !== null) return [spaced, i + 2];
  }
  const before = i > 0 ? wordIndex(hmsWords, t[i - 1] ?? "") : null;
  if (before !== null && before < 2) return [before + 1, i];
  return null;
}

function setHms(res: Parsed, unit: number, value: number): void {
  const whole = Math.trunc(value);
  const frac = value % 1;
  if (unit === 0) {
    res.hour = whole;
    if (frac) res.minute = Math.trunc(60 * frac);
  } else if (unit === 1) {
    res.minute = whole;
    if (frac) res.second = Math.trunc(60 * frac);
  } else [res.second, res.micro] = seconds(String(value));
}

function couldBeZone(res: Parsed, token: string): boolean {
  return res.hour !== null && res.tzname === null && res.tzoffset === null && token.length <= 5 && (/^[A-Z]+$/.test(token) || utcZones.has(token));
}

function zoneSign(t: string[], i: number, res: Parsed): number {
  const sign = t[i] === "+" ? 1 : -1;
  const digits = t[i + 1] ?? "";
  let hours: number;
  let minutes = 0;
  let last = i + 1;
  if (digits.length === 4) {
    hours = Number(digits.slice(0, 2));
    minutes = Number(digits.slice(2));
  } else if (t[i + 2] === ":") {
    hours = Number(digits);
    minutes = Number(t[i + 3]);
    last = i + 3;
  } else if (digits.length <= 2) hours = Number(digits.slice(0, 2));
  else throw new RangeError("bad offset");
  if (!Number.isInteger(hours) || !Number.isInteger(minutes) || digits === "") throw new RangeError("bad offset");
  res.tzoffset = sign * (hours * 3600 + minutes * 60);
  return last;
}

function tokensToFields(t: string[]): Parsed {
  const res: Parsed = {
    ymd: { values: [], month: null, year: null, centurySpecified: false },
    hour: null, minute: null, second: null, micro: null, ampm: null, weekday: null, tzname: null, tzoffset: null,
  };
  for (let i = 0; i < t.length; i++) {
    const token = t[i] ?? "";
    const weekday = wordIndex(weekdayWords, token);
    const month = wordIndex(monthWords, token);
    const ampm = ampmOf(token);
    if (token !== "" && Number.isFinite(Number(token)) && /^[\d.]+$/.test(token)) i = numeric(t, i, res);
    else if (weekday !== null) res.weekday = weekday;
    else if (month !== null) {
      appendYmd(res.ymd, month + 1, "M");
      const sep = t[i + 1];
      if (sep === "-" || sep === "/") {
        appendYmd(res.ymd, t[i + 2] ?? "");
        if (t[i + 3] === sep) {
          appendYmd(res.ymd, t[i + 4] ?? "");
          i += 2;
        }
        i += 2;
      } else if (t[i + 1] === " " && t[i + 3] === " " && t[i + 2]?.toLowerCase() === "of" && i + 4 < t.length) {
        if (isDigits(t[i + 4])) appendYmd(res.ymd, String(convertYear(Number(t[i + 4]), false)), "Y");
        i += 4;
      }
    } else if (ampm !== null) {
      if (res.hour === null || res.hour < 0 || res.hour > 12) throw new RangeError("bad am/pm");
      res.hour = adjustAmpm(res.hour, ampm);
      res.ampm = ampm;
    } else if (couldBeZone(res, token)) {
      res.tzname = token;
      res.tzoffset = utcZones.has(token) ? 0 : null;
      // "GMT+3" means three hours behind GMT, as in POSIX zone strings.
      const sign = t[i + 1];
      if (sign === "+" || sign === "-") {
        t[i + 1] = sign === "+" ? "-" : "+";
        res.tzoffset = null;
        if (utcZones.has(token)) res.tzname = null;
      }
    } else if (res.hour !== null && (token === "+" || token === "-")) {
      i = zoneSign(t, i, res);
    } else if (!isJump(token)) throw new RangeError("unknown word");
  }
  return res;
}

function convertYear(year: number, centurySpecified: boolean, thisYear = new Date().getUTCFullYear()): number {
  if (year >= 100 || centurySpecified) return year;
  let y = year + Math.floor(thisYear / 100) * 100;
  if (y >= thisYear + 50) y -= 100;
  else if (y < thisYear - 50) y += 100;
  return y;
}

function resolveYmd(ymd: Ymd): [number | null, number | null, number | null] {
  const v = ymd.values;
  const [a = 0, b = 0, c = 0] = v;
  const known = (ymd.month === null ? 0 : 1) + (ymd.year === null ? 0 : 1);
  if ((v.length === known && known > 0) || (v.length === 3 && known === 2)) {
    const out: [number | null, number | null, number | null] = [null, null, null];
    const used = new Set<number>();
    if (ymd.year !== null) { out[0] = v[ymd.year] ?? null; used.add(ymd.year); }
    if (ymd.month !== null) { out[1] = v[ymd.month] ?? null; used.add(ymd.month); }
    const rest = v.findIndex((_, i) => !used.has(i));
    if (rest !== -1) out[2] = v[rest] ?? null;
    return out;
  }
  if (v.length > 3) throw new RangeError("too many date parts");
  if (v.length === 1 || (ymd.month !== null && v.length === 2)) {
    const month = ymd.month === null ? null : (v[ymd.month] ?? null);
    const other = ymd.month === null ? a : (v.at(ymd.month - 1) ?? 0);
    if (v.length > 1 || ymd.month === null) return other > 31 ? [other, month, null] : [null, month, other];
    return [null, month, null];
  }
  if (v.length === 2) {
    if (a > 31) return [a, b, null];
    if (b > 31) return [b, a, null];
    return [null, a, b];
  }
  if (v.length === 3) {
    if (ymd.month === 0) return b > 31 ? [b, a, c] : [c, a, b];
    if (ymd.month === 1) return a > 31 ? [a, b, c] : [c, b, a];
    if (ymd.month === 2) return b > 31 ? [b, c, a] : [a, c, b];
    if (a > 31 || ymd.year === 0) return [a, b, c];
    if (a > 12) return [c, b, a];
    return [c, a, b];
  }
  return [null, null, null];
}

function isoUtc(ms: number, micro: number): string {
  const base = new Date(ms).toISOString().slice(0, 19);
  return `${base}${micro === 0 ? "" : "." + String(micro).padStart(6, "0")}Z`;
}

function parseDateutil(input: string, now: number): string | null {
  const res = tokensToFields(timeTokens(input));
  const fields = [res.hour, res.minute, res.second, res.micro, res.ampm, res.weekday, res.tzname, res.tzoffset];
  if (res.ymd.values.length === 0 && fields.every((f) => f === null)) return null;
  const [givenYear, month, day] = resolveYmd(res.ymd);
  const year = givenYear === null ? null : convertYear(givenYear, res.ymd.centurySpecified);
  const today = new Date(now);
  const y = year ?? today.getUTCFullYear();
  const mo = month ?? today.getUTCMonth() + 1;
  let d = day ?? today.getUTCDate();
  if (day === null && mo >= 1 && mo <= 12) d = Math.min(d, daysIn(y, mo));
  const [h, mi, s, us] = [res.hour ?? 0, res.minute ?? 0, res.second ?? 0, res.micro ?? 0];
  if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return null;
  if (h > 23 || mi > 59 || s > 59 || h < 0 || mi < 0 || s < 0) return null;
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi, s, 0);
  let ms = utc.getTime();
  // A weekday without a day moves forward to the next such day.
  if (res.weekday !== null && day === null) ms += (((res.weekday + 1) % 7) - utc.getUTCDay() + 7) % 7 * 86_400_000;
  let offset: number | null = null;
  if (res.tzname !== null && res.tzname in zoneOffsets) offset = zoneOffsets[res.tzname] ?? 0;
  else if (res.tzoffset !== null) offset = res.tzoffset;
  ms -= (offset ?? 0) * 1000;
  const shifted = new Date(ms).getUTCFullYear();
  if (shifted < 1 || shifted > 9999) return null;
  return isoUtc(ms, us);
}

/** Returns the ISO UTC form Zulip puts in `datetime`, or null if the time is not understood. */
export function parseTimestamp(input: string, now: number = Date.now()): string | null {
  try {
    const parsed = parseDateutil(input, now);
    if (parsed !== null) return parsed;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const s = input.trim();
  const unix = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.exec(s);
  if (!unix) return null;
  const secs = Number(s);
  if (!Number.isFinite(secs)) return null;
  const ms = Math.floor(secs * 1e6) / 1e3;
  if (Math.abs(ms) > 8.64e15) return null;
  const year = new Date(Math.floor(ms)).getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  const whole = Math.floor(ms / 1000) * 1000;
  return isoUtc(whole, Math.round((ms - whole) * 1000));
}
