/** Shared formatting for views: times in the user's time zone, emoji, links. */
import type { State } from "../state/types.js";

const formats = new Map<string, Intl.DateTimeFormat>();

/** The user's time zone, or undefined for the browser's. */
const zoneOf = (state: State) => (typeof state.settings.timezone === "string" && state.settings.timezone !== "" ? state.settings.timezone : undefined);

function format(state: State, kind: "time" | "day" | "full"): Intl.DateTimeFormat {
  const zone = zoneOf(state);
  const h24 = state.settings.twenty_four_hour_time === true;
  const key = `${kind}:${zone ?? ""}:${h24}`;
  let f = formats.get(key);
  if (!f) {
    const base: Intl.DateTimeFormatOptions = { timeZone: zone, hour12: !h24 };
    const opts: Intl.DateTimeFormatOptions =
      kind === "time" ? { ...base, hour: "numeric", minute: "2-digit" } : kind === "day" ? { timeZone: zone, weekday: "short", month: "short", day: "numeric" } : { ...base, dateStyle: "full", timeStyle: "long" };
    try {
      f = new Intl.DateTimeFormat(undefined, opts);
    } catch {
      f = new Intl.DateTimeFormat(undefined, { ...opts, timeZone: undefined });
    }
    formats.set(key, f);
  }
  return f;
}

/** Formatted strings by format and second: a feed shows each minute and day many times over. */
const formatted = new WeakMap<Intl.DateTimeFormat, Map<number, string>>();
const FORMATTED_KEPT = 5000;

function cached(state: State, kind: "time" | "day" | "full", seconds: number): string {
  // "time" and "day" change only on the minute; the full form shows seconds.
  const at = kind === "full" ? seconds : Math.floor(seconds / 60) * 60;
  // Before the page has any formatter (boot.ts's first draw): written here when that gives the same.
  if (formats.size === 0 && zoneOf(state) === undefined) {
    const text = plainFormat(kind, at, typeof navigator === "object" ? navigator.language : "", state.settings.twenty_four_hour_time === true);
    if (text !== null) return text;
  }
  const f = format(state, kind);
  let byTime = formatted.get(f);
  if (!byTime) formatted.set(f, (byTime = new Map()));
  let text = byTime.get(at);
  if (text === undefined) {
    if (byTime.size >= FORMATTED_KEPT) byTime.clear();
    text = f.format(at * 1000);
    byTime.set(at, text);
  }
  return text;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A time or day in the browser's time zone as the "time" and "day" formats write it in `locale`
 * with 12-hour time, without Intl; null for any other locale, for 24-hour time (midnight is 00 or
 * 24 depending on the ICU version) and for the full form. A page's first Intl formatter loads the
 * browser's locale data, tens of milliseconds on a slow CPU, and the first list is drawn before the
 * app has run: that draw does without it, and the app's formats (which it makes at once,
 * warmFormats) write the same. `locale` is navigator.language, which is Intl's default locale but in
 * a browser set to prefer another language than its own: then the app rewrites the times it draws.
 */
export function plainFormat(kind: "time" | "day" | "full", seconds: number, locale: string, h24: boolean): string | null {
  if (locale !== "en-US" || kind === "full" || h24) return null;
  const d = new Date(seconds * 1000);
  if (kind === "day") return `${WEEKDAYS[d.getDay()]}, ${MONTHS[d.getMonth()]} ${d.getDate()}`;
  const minutes = String(d.getMinutes()).padStart(2, "0");
  return `${d.getHours() % 12 || 12}:${minutes} ${d.getHours() < 12 ? "AM" : "PM"}`;
}

/** "3:04 PM" (or "15:04") in the user's time zone. */
export const timeOf = (state: State, seconds: number) => cached(state, "time", seconds);
/** "Fri, Nov 27". */
export const dayOf = (state: State, seconds: number) => cached(state, "day", seconds);
/** The full date and time, for a tooltip. */
export const fullTimeOf = (state: State, seconds: number) => cached(state, "full", seconds);

/**
 * Makes the time and day formats ready (a formatter's first use loads locale and time zone data,
 * tens of milliseconds on a slow CPU): called while the page waits for its first answers.
 */
export function warmFormats(state: State): void {
  const now = Math.floor(Date.now() / 1000);
  timeOf(state, now);
  dayOf(state, now);
}

/** A short relative time for lists: "5 min", "3 h", or the day. */
export function ago(state: State, seconds: number, nowMs = Date.now()): string {
  const diff = nowMs / 1000 - seconds;
  if (diff < 60) return "now";
  if (diff < 3600) return `${Math.floor(diff / 60)} min`;
  if (diff < 86400) return `${Math.floor(diff / 3600)} h`;
  return dayOf(state, seconds);
}

/** The character(s) of a Unicode emoji from its code ("1f44d" or "1f1fa-1f1f8"). */
export function emojiChar(code: string): string {
  try {
    return String.fromCodePoint(...code.split("-").map((h) => parseInt(h, 16)));
  } catch {
    return "?";
  }
}
