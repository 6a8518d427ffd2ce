/** Zulip's URL rules: which schemes may be linked and how bare URLs are found. */
import { createRequire } from "node:module";

// Schemes Zulip links: the web ones plus the HTML standard's safelisted schemes.
const allowedSchemes = new Set([
  "http", "https", "ftp", "file",
  "bitcoin", "geo", "im", "irc", "ircs", "magnet", "mailto", "matrix", "mms", "news", "nntp",
  "openpgp4fpr", "sip", "sms", "smsto", "ssh", "tel", "urn", "webcal", "wtai", "xmpp",
]);

/** Returns a safe href for `url`, or null when the URL must stay plain text. */
export function sanitizeUrl(url: string): string | null {
  return sanitize(url.replace(/ /g, "%20"), false);
}

function sanitize(raw: string, retried: boolean): string | null {
  // Browsers ignore these inside URLs, so "java\tscript:" must not slip past the scheme check.
  // eslint-disable-next-line no-control-regex
  const url = raw.replace(/^[\u0000-\u0020]+/, "").replace(/[\t\n\r]/g, "");
  const schemeMatch = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  const scheme = schemeMatch?.[1]?.toLowerCase() ?? "";
  const rest = schemeMatch ? url.slice(schemeMatch[0].length) : url;
  const hasNetloc = rest.startsWith("//");
  if (scheme === "") {
    const path = hasNetloc ? "" : rest.split(/[?#]/, 1)[0] ?? "";
    if (!hasNetloc && path.includes("@")) return "mailto:" + url;
    if (!hasNetloc && path.startsWith("/")) return url;
    if (!hasNetloc && path === "" && url.startsWith("#") && url.length > 1) return url;
    if (retried) return null;
    return sanitize("http://" + url, true);
  }
  if (!allowedSchemes.has(scheme)) return null;
  return url;
}

/** Makes links into this organisation relative, as Zulip stores them. */
export function localizeUrl(href: string, realmUrl: string): string {
  const prefix = realmUrl.replace(/\/+$/, "") + "/";
  if (href.startsWith(prefix + "#") || href.startsWith(prefix + "user_uploads/")) {
    return href.slice(prefix.length);
  }
  return href;
}

// Zulip leaves out TLDs that are mostly file extensions.
const tldFalsePositives = new Set(["java", "md", "mov", "py", "zip"]);
const tlds = loadTlds();

function loadTlds(): Set<string> {
  const require = createRequire(import.meta.url);
  const raw: unknown = require("tlds");
  const out = new Set<string>();
  if (Array.isArray(raw)) {
    for (const t of raw) if (typeof t === "string" && !tldFalsePositives.has(t)) out.add(t);
  }
  return out;
}

const startChars = new Set([..."'\"(,:<"]);
// Quick test for anything that could start a bare URL: a dotted name, an e-mail or a scheme.
const candidateRe = /[\p{L}\p{N}_-]\.[\p{L}\p{N}_-]|@|:\/\//u;

function isSpace(c: string): boolean {
  return c === " " || c === "\n" || c === "\t" || (c > "~" && /\s/.test(c)) || c === "\r" || c === "\f" || c === "\v";
}
const trailingPunct = new Set([..."!:;?),.'\">"]);
const domainChar = /[\p{L}\p{N}_-]/u;
const hostChar = /[\p{L}\p{N}_.:@-]/u;
const emailRe = /[\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+\.[\p{L}\p{N}_]+/uy;
const maxParenDepth = 7;
// Bounds the work per candidate so hostile input stays near-linear.
const maxPathLength = 2048;

/** A bare URL found in text. */
export interface AutolinkMatch {
  start: number;
  end: number;
  url: string;
}

/**
 * Finds bare URLs by Zulip's autolink rules. Whitespace positions and each
 * token's trailing punctuation are computed once, so a scan stays linear.
 */
export class AutolinkScanner {
  private readonly tokenEnds: Int32Array;
  private readonly punctFrom = new Map<number, number>();

  constructor(private readonly text: string) {
    this.tokenEnds = new Int32Array(text.length + 1);
    let e = text.length;
    for (let i = text.length; i >= 0; i--) {
      if (i < text.length && isSpace(text[i] ?? "")) e = i;
      this.tokenEnds[i] = e;
    }
  }

  /** Whether `text` could contain a bare URL at all. */
  static worthScanning(text: string): boolean {
    return candidateRe.test(text);
  }

  /** The next bare URL starting at or after `from`. */
  next(from: number): AutolinkMatch | null {
    const text = this.text;
    for (let i = from; i < text.length; i++) {
      const prev = text[i - 1] ?? " ";
      if (i > 0 && !isSpace(prev) && !startChars.has(prev)) continue;
      const c = text[i] ?? "";
      if (!domainChar.test(c) && c !== ".") continue;
      const end = this.matchAt(i);
      if (end !== null) return { start: i, end, url: text.slice(i, end) };
    }
    return null;
  }

  // Start of the run of trailing punctuation that ends the token ending at `end`.
  private punctStart(end: number): number {
    const known = this.punctFrom.get(end);
    if (known !== undefined) return known;
    let q = end;
    while (q > 0 && trailingPunct.has(this.text[q - 1] ?? "")) q--;
    this.punctFrom.set(end, q);
    return q;
  }

  private matchAt(start: number): number | null {
    const end = this.tokenEnds[start] ?? start;
    const text = this.text;
    if (text.startsWith("http://", start) || text.startsWith("https://", start)) {
      return this.withProtocol(text.indexOf("//", start) + 2, end);
    }
    const domainEnd = this.bareDomain(start, end);
    if (domainEnd !== null) {
      const r = this.finish(domainEnd, end);
      if (r !== null) return r;
    }
    emailRe.lastIndex = start;
    const m = emailRe.exec(text);
    if (!m) return null;
    const stop = start + m[0].length;
    return stop <= end && stop >= this.punctStart(end) ? stop : null;
  }

  private withProtocol(hostStart: number, end: number): number | null {
    let runEnd = hostStart;
    while (runEnd < end && hostChar.test(this.text[runEnd] ?? "")) runEnd++;
    if (runEnd === hostStart) return null;
    // The host is lazy: the shortest host after which only punctuation remains wins.
    const q = Math.max(this.punctStart(end), hostStart + 1);
    if (q < runEnd) return q;
    return this.finish(runEnd, end);
  }

  private bareDomain(start: number, end: number): number | null {
    const text = this.text;
    let i = start;
    let dots = 0;
    let labelStart = start;
    for (;;) {
      labelStart = i;
      while (i < end && domainChar.test(text[i] ?? "")) i++;
      if (i === labelStart) return null;
      if (text[i] !== "." || !domainChar.test(text[i + 1] ?? "")) break;
      dots++;
      i++;
    }
    if (dots === 0) return null;
    return tlds.has(text.slice(labelStart, i)) ? i : null;
  }

  private finish(pos: number, end: number): number | null {
    const text = this.text;
    const q = Math.max(this.punctStart(end), pos + 1);
    if (text[pos] !== "/") return pos >= this.punctStart(end) ? pos : null;
    // Paths are lazy too: take the shortest balanced path leaving only punctuation.
    if (q - pos > maxPathLength) return null;
    let depth = 0;
    for (let k = pos + 1; k <= end; k++) {
      if (k >= q && depth === 0) return k;
      const c = text[k];
      if (c === '"') return null;
      if (c === "(") {
        depth++;
        if (depth > maxParenDepth) return null;
      } else if (c === ")") {
        if (depth === 0) return null;
        depth--;
      }
    }
    return null;
  }
}
