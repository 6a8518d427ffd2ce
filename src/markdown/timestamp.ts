/** Parsing the free-form times of `<time:…>`, as Zulip's date parser reads them. */

const months = [
  "january", "february", "march", "april", "may", "june",
  "july", "august", "september", "october", "november", "december",
];

function monthIndex(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, "");
  return months.findIndex((m) => m === w || m.slice(0, 3) === w || (w === "sept" && m === "september"));
}

interface Clock {
  hour: number;
  minute: number;
  second: number;
  fraction: string;
  offsetMinutes: number | null;
}

// Time of day and zone, e.g. "10:00", "10:00:30.5 PM", "14:00 UTC", "T10:00+05:30".
function parseClock(rest: string): Clock | null {
  const s = rest.trim();
  if (s === "") return { hour: 0, minute: 0, second: 0, fraction: "", offsetMinutes: null };
  const m = /^T?(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?\s*(am|pm)?\s*(z|utc|gmt|[+-]\d{2}(?::?\d{2})?)?$/i.exec(s);
  if (!m) return null;
  let hour = Number(m[1]);
  const ampm = m[5]?.toLowerCase();
  if (ampm !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (ampm === "pm" ? 12 : 0);
  }
  const minute = Number(m[2]);
  const second = Number(m[3] ?? "0");
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes: number | null = null;
  const zone = m[6]?.toLowerCase();
  if (zone !== undefined) {
    if (zone === "z" || zone === "utc" || zone === "gmt") offsetMinutes = 0;
    else {
      const digits = zone.slice(1).replace(":", "");
      const mins = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
      offsetMinutes = zone.startsWith("-") ? -mins : mins;
    }
  }
  return { hour, minute, second, fraction: m[4] ?? "", offsetMinutes };
}

function build(year: number, month: number, day: number, clock: Clock): Date | null {
  if (month < 0 || month > 11 || day < 1 || day > 31 || year < 1 || year > 9999) return null;
  const ms = Date.UTC(year, month, day, clock.hour, clock.minute, clock.second);
  const date = new Date(ms - (clock.offsetMinutes ?? 0) * 60_000);
  // Reject dates such as 31 Feb that Date.UTC would silently roll over.
  if (new Date(Date.UTC(year, month, day)).getUTCDate() !== day) return null;
  return date;
}

const weekday = /^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+/i;

function parseDate(text: string): { date: Date; fraction: string } | null {
  const input = text.replace(weekday, "");
  const iso = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(input);
  if (iso) {
    const clock = parseClock(iso[4] ?? "");
    const date = clock && build(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]), clock);
    return date ? { date, fraction: clock?.fraction ?? "" } : null;
  }
  const dmy = /^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+\.?),?\s+(\d{4})(.*)$/i.exec(input);
  const mdy = /^([a-z]+\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(.*)$/i.exec(input);
  const parts = dmy ? { day: dmy[1], month: dmy[2], year: dmy[3], rest: dmy[4] } : mdy ? { day: mdy[2], month: mdy[1], year: mdy[3], rest: mdy[4] } : null;
  if (parts === null) return null;
  const clock = parseClock((parts.rest ?? "").replace(/^,/, ""));
  const date = clock && build(Number(parts.year), monthIndex(parts.month ?? ""), Number(parts.day), clock);
  return date ? { date, fraction: clock?.fraction ?? "" } : null;
}

function isoUtc(date: Date, fraction: string): string {
  const base = date.toISOString().slice(0, 19);
  const micro = fraction === "" ? "" : "." + fraction.padEnd(6, "0");
  return `${base}${/^\.0+$/.test(micro) ? "" : micro}Z`;
}

/** Returns the ISO UTC form Zulip puts in `datetime`, or null if the time is not understood. */
export function parseTimestamp(input: string): string | null {
  const s = input.trim();
  const parsed = parseDate(s);
  if (parsed) return isoUtc(parsed.date, parsed.fraction);
  const unix = /^-?\d+(?:\.(\d+))?$/.exec(s);
  if (unix) {
    const seconds = Number(s);
    const ms = Math.floor(seconds) * 1000;
    if (!Number.isFinite(seconds) || Math.abs(ms) > 8.64e15) return null;
    const date = new Date(ms);
    if (date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) return null;
    return isoUtc(date, (unix[1] ?? "").slice(0, 6));
  }
  return null;
}
