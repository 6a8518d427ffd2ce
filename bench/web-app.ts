/**
 * The web app in Debian's Chromium, against an organisation of 1,000 users whose channel holds
 * 10,000 messages (issue 23's figures):
 *   cold load   — a fresh browser context opens Rookery's address (the home view set to the
 *                 Combined feed, which holds the channel's messages) and, apart, a link to the
 *                 channel, CPU throttled 4x through the DevTools protocol; the figure is the time
 *                 the first message list is on screen:
 *                 the page's first contentful paint (boot.js's first draw, which the app then
 *                 takes over, is the first thing the page shows), beside the same browser's first
 *                 contentful paint of a static page of the same 50 messages' HTML. Also printed:
 *                 when the frame that paints the list begins (the rookery:list-painted mark, a
 *                 requestAnimationFrame after the rows are in the DOM: the paint itself comes after).
 *   narrows     — switching between topics and back (to the list drawn).
 *   scrolling   — from the newest to the oldest of all 10,000: frame times, long tasks, the most
 *                 message rows ever in the DOM, the JS heap at the end, and the main thread's busy
 *                 time a frame (script, style, layout, paint: steadier from run to run than the
 *                 frame times, which a busy machine spreads), each beside a static page's.
 *   idle tab    — main-thread CPU while the 1,000 users' presence changes, beside the same tab idle.
 *
 *   npx vite-node bench/web-app.ts
 * ROOKERY_BENCH_SHORT=1: 100 users, 1,000 messages, one run of each.
 * ROOKERY_BENCH_ONLY=cold,narrows,scroll,idle runs only the parts named (for profiling one of them);
 * ROOKERY_BENCH_PROFILE=1 prints the functions with the most self time in the cold loads, the switches and the scroll;
 * ROOKERY_BENCH_DEBUG=1 prints the cold load's requests and marks, and each narrow switch's time and requests;
 * ROOKERY_BENCH_TRACE=1 prints the main thread's time by trace event in the cold loads and the scroll;
 * ROOKERY_BENCH_TRACE_OUT=<prefix> writes each part's trace (and profile) to <prefix>-<part>.json
 * (.cpuprofile), for DevTools: the cold loads (home-N, link-N, static-N), narrows and scroll.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { Browser, BrowserContext, CDPSession, Page, Response } from "playwright-core";
import { buildApp, type App } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { RecipientType, recipientId } from "../src/db/queries/messages.js";
import { buildWeb } from "../web/build.js";
import { CHROMIUM, hasChromium, launch } from "../test/web/browser.js";
import { buildCommand } from "../test/harness/build.js";
import { freePort, spawnServer } from "../test/harness/process.js";
import { basicAuth } from "./auth.js";
import { benchOrganisation, type BenchUser } from "./org.js";
import { SHORT } from "./short.js";

const USERS = SHORT ? 100 : 1000;
const MESSAGES = SHORT ? 1000 : 10_000;
const TOPICS = 20;
const RUNS = SHORT ? 1 : Number(process.env.ROOKERY_BENCH_RUNS ?? 5);
const PASSWORD = "bench-password";
const ONLY = new Set((process.env.ROOKERY_BENCH_ONLY ?? "cold,narrows,scroll,idle").split(","));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? NaN;
/** The share of frames that took longer than one and a half frame intervals (the median): frames the screen missed, whatever the machine's own jitter. */
const missed = (xs: number[]) => xs.filter((x) => x > median(xs) * 1.5).length / Math.max(1, xs.length);
const verdict = (value: number, target: number, unit: string) => `(target ≤ ${target} ${unit}: ${value <= target ? "met" : "MISSED"})`;

async function seed(app: App, owner: BenchUser, users: BenchUser[]): Promise<{ streamId: number }> {
  const auth = basicAuth(owner.email, owner.key);
  const res = await fetch(`${listening}/api/v1/users/me/subscriptions`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ subscriptions: JSON.stringify([{ name: "bench", description: "Ten thousand messages" }]), principals: JSON.stringify(users.map((u) => u.id)) }),
  });
  if (res.status !== 200) throw new Error(`subscribe: ${await res.text()}`);
  const stream = await app.ctx.db.selectFrom("stream").select("id").where("name", "=", "bench").executeTakeFirstOrThrow();
  const realm = await app.ctx.db.selectFrom("user").select("realm_id").where("id", "=", owner.id).executeTakeFirstOrThrow();
  const now = Math.floor(Date.now() / 1000) - MESSAGES * 30;
  const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
  await app.ctx.store.write(async (tx) => {
    const recipient = { id: await recipientId(tx, RecipientType.STREAM, stream.id) };
    for (let start = 0; start < MESSAGES; start += 500) {
      const rows = [];
      for (let i = start; i < Math.min(MESSAGES, start + 500); i++) {
        const sender = users[1 + (i % 40)] ?? owner;
        const text = Array.from({ length: 6 + (i % 30) }, (_, k) => words[(i * 7 + k) % words.length]).join(" ");
        const rendered = i % 10 === 0 ? `<p>${text}</p>\n<ul>\n<li>${words[i % 10]}</li>\n<li><code>item ${i}</code></li>\n</ul>` : `<p>${text} <strong>${i}</strong></p>`;
        rows.push({ realm_id: realm.realm_id, sender_id: sender.id, stream_id: stream.id, topic: `topic ${Math.floor(i / 10) % TOPICS}`, dm_key: "", content: text, rendered_content: rendered, date_sent: now + i * 30, last_edit_time: null, edit_history: null, has_link: 0, has_image: 0, has_attachment: 0, is_me_message: 0, client: "bench", recipient_id: recipient.id });
      }
      const ids = await tx.insertInto("message").values(rows).returning("id").execute();
      await tx
        .insertInto("user_message")
        .values(ids.map((r) => ({ user_id: owner.id, message_id: r.id, flags: 1 })))
        .execute();
    }
  });
  return { streamId: stream.id };
}

/** The server's address (set once it listens). */
let listening = "";

/** A browser context with the owner's session cookie, logged in without loading the app (its cache stays cold). */
async function loggedIn(browser: Browser, email: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1024 } });
  const res = await context.request.post(`${listening}/login/`, { form: { username: email, password: PASSWORD }, headers: { origin: listening }, maxRedirects: 0 });
  if (res.status() !== 302) throw new Error(`login: ${res.status()} ${await res.text()}`);
  return context;
}

async function throttle(page: Page, rate: number): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate });
  return cdp;
}

/** Waits for the app's n-th "list painted" mark and returns its time (ms since navigation start). */
async function painted(page: Page, n = 1): Promise<number> {
  await page.waitForFunction((count) => performance.getEntriesByName("rookery:list-painted").length >= count, n, { timeout: 60000, polling: 10 });
  return page.evaluate((count) => performance.getEntriesByName("rookery:list-painted")[count - 1]?.startTime ?? NaN, n);
}

type Profile = { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[]; samples: number[]; timeDeltas: number[] };

/** The functions with the most self time in a CPU profile (ROOKERY_BENCH_PROFILE=1). */
function printProfile(profile: Profile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)?.callFrame;
    const key = f ? `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber}` : "?";
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  for (const [k, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${k}`);
}

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tid: number; args?: { data?: { url?: string } } };

/** Main-thread time by trace event (ROOKERY_BENCH_TRACE=1): the tasks, forced layouts, and what the longest tasks did. */
function printTrace(trace: Buffer, options: { timeline: boolean; longest: number } = { timeline: true, longest: 1 }): void {
  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.name === "thread_name" && (e.args as { name?: string } | undefined)?.name === "CrRendererMain");
  const byName = new Map<string, number>();
  const timeline: string[] = [];
  const start = events.filter((e) => e.tid === main?.tid && e.ph === "X").reduce((m, e) => Math.min(m, e.ts), Infinity);
  for (const e of events) {
    if (e.tid !== main?.tid || e.ph !== "X" || !e.dur) continue;
    byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
    if (e.name === "RunTask" && e.dur > 8000) timeline.push(`${((e.ts - start) / 1000).toFixed(0)}+${(e.dur / 1000).toFixed(0)}`);
    if (e.name === "Layout" && e.dur > 10000) {
      const begin = (e.args as { beginData?: { dirtyObjects?: number; totalObjects?: number; stackTrace?: { functionName: string; lineNumber: number }[] } } | undefined)?.beginData;
      const stack = (begin?.stackTrace ?? []).slice(0, 4).map((f) => `${f.functionName}:${f.lineNumber}`).join(" < ");
      timeline.push(`[layout ${(e.dur / 1000).toFixed(0)} ms, ${begin?.dirtyObjects}/${begin?.totalObjects} objects${stack ? `, forced by ${stack}` : ""}]`);
    }
  }
  if (options.timeline) console.log(`  tasks over 8 ms (start+ms): ${timeline.join(" ")}`);
  const tasks = events.filter((e) => e.tid === main?.tid && e.name === "RunTask").sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
  for (const longest of tasks.slice(0, options.longest)) {
    const inside = new Map<string, number>();
    for (const e of events) if (e.tid === main?.tid && e.ph === "X" && e !== longest && e.ts >= longest.ts && e.ts < longest.ts + (longest.dur ?? 0)) inside.set(e.name, (inside.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    console.log(`  inside the longest task (${((longest.dur ?? 0) / 1000).toFixed(0)} ms): ${[...inside.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(", ")}`);
  }
  for (const [k, ms] of [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${k}`);
}

const TRACE_OUT = process.env.ROOKERY_BENCH_TRACE_OUT;

/**
 * Starts a CPU profile of the page when ROOKERY_BENCH_PROFILE is set; the function returned stops
 * it, prints its busiest functions and writes it to <TRACE_OUT>-<name>.cpuprofile.
 */
async function profiling(page: Page, name: string): Promise<() => Promise<void>> {
  if (!process.env.ROOKERY_BENCH_PROFILE) return async () => undefined;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  return async () => {
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile };
    await cdp.detach();
    if (TRACE_OUT) fs.writeFileSync(`${TRACE_OUT}-${name}.cpuprofile`, JSON.stringify(profile));
    printProfile(profile);
  };
}

/**
 * Starts a timeline trace of the page when ROOKERY_BENCH_TRACE or ROOKERY_BENCH_TRACE_OUT is set;
 * the function returned stops it, writes it to <TRACE_OUT>-<name>.json and gives it (null when
 * not tracing) for printTrace under ROOKERY_BENCH_TRACE.
 */
async function tracing(page: Page, name: string): Promise<() => Promise<Buffer | null>> {
  const browser = page.context().browser();
  if (!browser || !(process.env.ROOKERY_BENCH_TRACE || TRACE_OUT)) return async () => null;
  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"] });
  return async () => {
    const trace = await browser.stopTracing();
    if (TRACE_OUT) fs.writeFileSync(`${TRACE_OUT}-${name}.json`, trace);
    return process.env.ROOKERY_BENCH_TRACE ? trace : null;
  };
}

type Opening = { contentful: number; frame: number; adopted: number };

/** One cold load of `url` in a fresh context: the page's first contentful paint, the list's painted mark, and when the app took the list over. */
async function openCold(browser: Browser, owner: BenchUser, url: string, run: number): Promise<Opening> {
  const context = await loggedIn(browser, owner.email);
  const page = await context.newPage();
  await throttle(page, 4);
  const name = `${url.includes("#") ? "link" : "home"}-${run}`;
  const stopProfile = await profiling(page, name);
  const stopTrace = await tracing(page, name);
  // The page is left alone until the list is painted: Playwright's polling (waitForFunction)
  // first puts its own script in the page, tens of milliseconds of main thread at 4x that would
  // land in the middle of the first draw. The page says when instead (a console message from an
  // init script, which the CSP does not govern), and the mark's time is read after.
  await context.addInitScript(() => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "rookery:list-painted") console.debug("rookery:list-painted");
    }).observe({ type: "mark" });
  });
  const said = page.waitForEvent("console", { predicate: (m) => m.text() === "rookery:list-painted", timeout: 60000 });
  await page.goto(url, { waitUntil: "commit" });
  await said;
  const frame = await painted(page);
  await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0 && performance.getEntriesByName("rookery:list-adopted").length > 0, null, { timeout: 60000, polling: 10 }).catch(() => undefined);
  const cross = await page.evaluate(() => [performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN, performance.getEntriesByName("rookery:list-adopted")[0]?.startTime ?? NaN]);
  const trace = await stopTrace();
  if (trace) printTrace(trace);
  await stopProfile();
  if (process.env.ROOKERY_BENCH_DEBUG) {
    console.log(
      await page.evaluate(() =>
        JSON.stringify([
          ...performance.getEntriesByType("navigation").map((e) => ["nav", Math.round((e as PerformanceNavigationTiming).responseEnd), Math.round((e as PerformanceNavigationTiming).domContentLoadedEventEnd)]),
          ...performance.getEntriesByType("resource").map((e) => [e.name.replace(location.origin, "").slice(0, 40), Math.round(e.startTime), Math.round((e as PerformanceResourceTiming).requestStart), Math.round((e as PerformanceResourceTiming).responseStart), Math.round((e as PerformanceResourceTiming).responseEnd), (e as PerformanceResourceTiming).decodedBodySize]),
          ...performance.getEntriesByType("mark").map((e) => [e.name, Math.round(e.startTime)]),
        ]),
      ),
    );
  }
  await context.close();
  return { contentful: cross[0] ?? NaN, frame, adopted: cross[1] ?? NaN };
}

/** The same browser's first contentful paint of a static page of `html`. */
async function staticPaint(browser: Browser, html: string, run: number): Promise<number> {
  const plain = await browser.newContext({ viewport: { width: 1400, height: 1024 } });
  const page = await plain.newPage();
  await throttle(page, 4);
  await page.route(`${listening}/bench-static.html`, (route) => route.fulfill({ contentType: "text/html", body: html }));
  const stopTrace = await tracing(page, `static-${run}`);
  await page.goto(`${listening}/bench-static.html`);
  await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, null, { polling: 10 });
  await stopTrace();
  const paint = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN);
  await plain.close();
  return paint;
}

/**
 * Cold loads, in turn with the static page: Rookery's address (the owner's home view set to the
 * Combined feed, whose first page the page carries), and a link to the channel (the page asks for
 * its first page once boot.js has read the link).
 */
async function coldLoad(browser: Browser, owner: BenchUser, streamId: number, staticHtml: string): Promise<void> {
  const res = await fetch(`${listening}/api/v1/settings`, { method: "PATCH", headers: { authorization: basicAuth(owner.email, owner.key), "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ web_home_view: "all_messages" }) });
  if (res.status !== 200) throw new Error(`settings: ${await res.text()}`);
  // Everything read, as the channel's messages are: the Combined feed opens at its newest, the channel's.
  const read = await fetch(`${listening}/api/v1/mark_all_as_read`, { method: "POST", headers: { authorization: basicAuth(owner.email, owner.key) } });
  if (read.status !== 200) throw new Error(`mark_all_as_read: ${await read.text()}`);
  const home: Opening[] = [];
  const link: Opening[] = [];
  const baseline: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    home.push(await openCold(browser, owner, `${listening}/`, run));
    link.push(await openCold(browser, owner, `${listening}/#narrow/channel/${streamId}-bench`, run));
    baseline.push(await staticPaint(browser, staticHtml, run));
  }
  const b = median(baseline);
  console.log(`cold load, CPU 4x slower: first message list on screen (first contentful paint)`);
  for (const [label, runs] of [
    ["Rookery's address, home view the Combined feed", home],
    ["a link to the channel                         ", link],
  ] as const) {
    const a = median(runs.map((r) => r.contentful));
    console.log(`  ${label}  median ${a.toFixed(0)} ms  (app/static ${(a / b).toFixed(2)}x)  ${verdict(a, 300, "ms")}`);
    console.log(`    the frame that paints the list begins at median ${median(runs.map((r) => r.frame)).toFixed(0)} ms; the app has taken the drawn list over at median ${median(runs.map((r) => r.adopted)).toFixed(0)} ms`);
  }
  console.log(`  baseline: static page of the same 50 messages' HTML, first contentful paint  median ${b.toFixed(0)} ms`);
}

async function switching(page: Page, streamId: number): Promise<void> {
  const hashes = [0, 1, 2, 3, 4].map((t) => `#narrow/channel/${streamId}-bench/topic/topic.20${t}`);
  hashes.push(`#narrow/channel/${streamId}-bench`, "#feed");
  const first: number[] = [];
  const again: number[] = [];
  const marks = async () => page.evaluate(() => performance.getEntriesByName("rookery:list-painted").length);
  const stopProfile = await profiling(page, "narrows");
  const stopTrace = await tracing(page, "narrows");
  for (const round of [first, again]) {
    for (const hash of hashes) {
      if (round === again) {
        // A list drawn before is marked again only when its narrow is opened afresh.
        await page.evaluate(() => (location.hash = "#inbox"));
        await page.locator(".inbox").waitFor();
      }
      const before = await marks();
      const t = await page.evaluate((h) => {
        const t0 = performance.now();
        location.hash = h;
        return t0;
      }, hash);
      const at = await painted(page, before + 1);
      round.push(at - t);
      if (process.env.ROOKERY_BENCH_DEBUG) console.log(`  ${hash}: ${(at - t).toFixed(0)} ms; ${await drawnRows(page)}; GET /messages ${await fetchesSince(page, t)}`);
    }
  }
  await stopTrace();
  await stopProfile();
  const m1 = median(first);
  const m2 = median(again);
  console.log(`switching narrows (first visit, messages fetched)  median ${m1.toFixed(0)} ms  max ${Math.max(...first).toFixed(0)} ms  ${verdict(m1, 100, "ms")}`);
  console.log(`switching narrows (visited before)                  median ${m2.toFixed(0)} ms  max ${Math.max(...again).toFixed(0)} ms  ${verdict(m2, 100, "ms")}`);
}

/** The feed's rows: how many are in the DOM and on screen, and their height beside the scroller's (ROOKERY_BENCH_DEBUG). */
function drawnRows(page: Page): Promise<string> {
  return page.evaluate(() => {
    const box = document.querySelector(".feed .scroller")?.getBoundingClientRect();
    const rows = [...document.querySelectorAll(".feed .message")].map((e) => e.getBoundingClientRect());
    const seen = box ? rows.filter((r) => r.bottom > box.top && r.top < box.bottom).length : 0;
    return `${rows.length} rows (${rows.reduce((a, r) => a + r.height, 0).toFixed(0)} px), ${seen} on screen (${box?.height.toFixed(0) ?? 0} px)`;
  });
}

/** The page's GET /messages requests since `t0` (ms): when each was sent, answered and read, relative to t0 (ROOKERY_BENCH_DEBUG). */
function fetchesSince(page: Page, t0: number): Promise<string> {
  return page.evaluate(
    (from) =>
      performance
        .getEntriesByType("resource")
        .filter((e): e is PerformanceResourceTiming => e.startTime >= from && e.name.includes("/json/messages?"))
        .map((e) => `sent ${(e.requestStart - from).toFixed(0)}, answered ${(e.responseStart - from).toFixed(0)}, read ${(e.responseEnd - from).toFixed(0)}`)
        .join("; ") || "none",
    t0,
  );
}

/** The page's main-thread busy time so far (ms): tasks of every kind, script, style, layout and paint. */
async function busyMs(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  return (metrics.find((m) => m.name === "TaskDuration")?.value ?? 0) * 1000;
}

/** Starts counting the page's main-thread busy time; the function returned stops and gives it (ms). */
async function busyMeter(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const start = await busyMs(cdp);
  return async () => {
    const ms = (await busyMs(cdp)) - start;
    await cdp.detach();
    return ms;
  };
}

/** p95 frame time scrolling a static page of `html` rows up by 400 px a frame, `frames` times (the floor on this machine). */
async function staticScroll(page: Page, html: string, frames: number): Promise<{ p95: number; missed: number; busy: number }> {
  await page.route(`${listening}/bench-scroll.html`, (route) => route.fulfill({ contentType: "text/html", body: html }));
  await page.goto(`${listening}/bench-scroll.html`);
  const busyFor = await busyMeter(page);
  const times = await page.evaluate(async (n) => {
    const out: number[] = [];
    window.scrollTo(0, document.body.scrollHeight);
    let last = performance.now();
    await new Promise<void>((resolve) => {
      const step = () => {
        const now = performance.now();
        out.push(now - last);
        last = now;
        if (out.length > n) return resolve();
        if (window.scrollY < 500) window.scrollTo(0, document.body.scrollHeight);
        else window.scrollBy(0, -400);
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    return out.slice(1);
  }, frames);
  return { p95: p95(times), missed: missed(times), busy: (await busyFor()) / Math.max(1, times.length) };
}

async function scrolling(page: Page, streamId: number, staticRows: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), `#narrow/channel/${streamId}-bench`);
  await page.locator(".feed .message").first().waitFor();
  const stopProfile = await profiling(page, "scroll");
  const stopTrace = await tracing(page, "scroll");
  const busyFor = await busyMeter(page);
  const result = await page.evaluate(async (total) => {
    const box = document.querySelector<HTMLElement>(".feed .scroller");
    if (!box) throw new Error("no scroller");
    const frames: number[] = [];
    const longTasks: number[] = [];
    let maxRows = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push(e.duration);
    }).observe({ type: "longtask", buffered: false });
    let last = performance.now();
    // Rows are counted as the feed adds them (a MutationObserver), not by reading all 300 every
    // frame: that reading cost the app's frames 0.7 ms each, which the static page's did not pay.
    const seen = new Set<string>();
    const rows = box.getElementsByClassName("message");
    maxRows = rows.length;
    for (const r of rows) seen.add(r.getAttribute("data-id") ?? "");
    new MutationObserver((changes) => {
      maxRows = Math.max(maxRows, rows.length);
      for (const c of changes) for (const n of c.addedNodes) if (n instanceof HTMLElement && n.classList.contains("message")) seen.add(n.dataset.id ?? "");
    }).observe(box, { childList: true, subtree: true });
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const step = () => {
        const now = performance.now();
        frames.push(now - last);
        last = now;
        const atStart = box.querySelector(".edge")?.textContent?.startsWith("This is the start") === true && box.scrollTop === 0;
        if ((atStart && seen.size >= total) || now - started > 240000) return resolve();
        box.scrollTop -= 400;
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    return { frames: frames.slice(1), longTasks, maxRows, seen: seen.size, seconds: (performance.now() - started) / 1000 };
  }, MESSAGES);
  const busy = (await busyFor()) / Math.max(1, result.frames.length);
  await stopProfile();
  const trace = await stopTrace();
  if (trace) printTrace(trace, { timeline: false, longest: 5 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  const frameP95 = p95(result.frames);
  const longest = Math.max(0, ...result.longTasks);
  console.log(`scrolling all ${result.seen} messages (${result.frames.length} frames, ${result.seconds.toFixed(1)} s): p95 frame ${frameP95.toFixed(1)} ms ${verdict(frameP95, 16.7, "ms")}`);
  console.log(`  longest task ${longest.toFixed(0)} ms ${verdict(longest, 50, "ms")}, ${result.longTasks.length} tasks over 50 ms; most rows in the DOM ${result.maxRows} ${verdict(result.maxRows, 300, "rows")}`);
  console.log(`  JS heap after scrolling ${(usedSize / 1048576).toFixed(1)} MB ${verdict(usedSize / 1048576, 50, "MB")}`);
  const floor = await staticScroll(page, staticRows, result.frames.length);
  console.log(`  baseline: the same browser scrolling a static page of 300 such rows: p95 frame ${floor.p95.toFixed(1)} ms (app/static ${(frameP95 / floor.p95).toFixed(2)}x)`);
  console.log(`  frames missed (over 1.5 frame intervals): app ${(missed(result.frames) * 100).toFixed(1)}%, static page ${(floor.missed * 100).toFixed(1)}%`);
  console.log(`  main thread busy a frame: app ${busy.toFixed(1)} ms, static page ${floor.busy.toFixed(1)} ms (app/static ${(busy / floor.busy).toFixed(2)}x)`);
}

async function idle(page: Page, users: BenchUser[]): Promise<void> {
  const window = SHORT ? 3000 : 10000;
  // The main thread's busy share of the time that passed.
  const measure = async (during: () => Promise<void>) => {
    const busyFor = await busyMeter(page);
    const w0 = performance.now();
    await Promise.all([during(), new Promise((r) => setTimeout(r, window))]);
    const elapsed = performance.now() - w0;
    return (await busyFor()) / elapsed;
  };
  const quiet = await measure(async () => {});
  // Presence events the tab was sent (above 100 users the server sends none, as Zulip's does not).
  let delivered = 0;
  const count = (res: Response) => {
    if (!res.url().includes("/json/events?")) return;
    void res
      .json()
      .then((body: { events?: { type: string }[] }) => (delivered += (body.events ?? []).filter((e) => e.type === "presence").length))
      .catch(() => undefined);
  };
  page.on("response", count);
  let sent = 0;
  const busy = await measure(async () => {
    // Every user goes active then idle: two presence changes each, spread over the window.
    const gap = window / 2 / users.length;
    for (const status of ["active", "idle"]) {
      for (let i = 0; i < users.length; i += 20) {
        await Promise.all(
          users.slice(i, i + 20).map((u) =>
            fetch(`${listening}/api/v1/users/me/presence`, { method: "POST", headers: { authorization: basicAuth(u.email, u.key), "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ status, new_user_input: "true" }) }).then(() => {
              sent += 1;
            }),
          ),
        );
        await new Promise((r) => setTimeout(r, gap * 20));
      }
    }
  });
  page.off("response", count);
  console.log(`idle tab while ${users.length} users' presence changes (${sent} updates, ${delivered} presence events delivered to the tab): main-thread CPU ${(busy * 100).toFixed(2)}% ${verdict(busy * 100, 1, "%")}`);
  console.log(`  baseline: the same tab with nothing happening ${(quiet * 100).toFixed(2)}%`);
}

/** A part of the bench may take this long at most: the page's own loops wait on frames, which a stalled browser stops giving. */
const STAGE_LIMIT_MS = 300_000;

/** Runs one part, failing with its name (rather than hanging the run) when it takes longer than STAGE_LIMIT_MS. */
async function stage(name: string, part: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench/web-app: ${name} took over ${STAGE_LIMIT_MS / 1000} s`)), STAGE_LIMIT_MS);
  });
  try {
    await Promise.race([part(), limit]);
  } finally {
    clearTimeout(timer);
  }
}

async function main(): Promise<void> {
  if (!hasChromium) {
    console.log(`bench/web-app skipped: no Chromium at ${CHROMIUM}`);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-web-"));
  const webDir = path.join(dir, "web");
  const [built, command] = await Promise.all([buildWeb(webDir, { minify: !process.env.ROOKERY_BENCH_PROFILE }), buildCommand("bench-web")]);
  const config = { ...loadConfig({}), dataDir: dir, databaseUrl: `sqlite:${path.join(dir, "bench.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0, anonRateLimitPerMinute: 0, webDir };
  // The organisation is made in this process; the server then runs as `npm start` runs it, from the
  // built file in a process of its own. In this one it would share an event loop with the
  // browser's driver, and its modules would be the ones compiled from source on first use.
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  listening = await app.http.listen({ host: "127.0.0.1", port: 0 });
  await app.listening(listening);
  let seeding = true;
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  try {
    const users = await benchOrganisation(app, USERS, Date.now());
    const owner = users[0];
    if (!owner) throw new Error("no owner");
    const { streamId } = await seed(app, owner, users);
    const newest = await app.ctx.db.selectFrom("message").select("rendered_content").where("stream_id", "=", streamId).orderBy("id", "desc").limit(300).execute();
    const page = (rows: typeof newest) =>
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" href="/static/${built.manifest["app.css"]}"></head><body>${[...rows]
        .reverse()
        .map((m) => `<article class="message"><div class="body"><div class="content rendered">${m.rendered_content}</div></div></article>`)
        .join("")}</body></html>`;
    const staticHtml = page(newest.slice(0, 50));
    const staticRows = page(newest);
    await app.close();
    seeding = false;
    const port = await freePort();
    const env = { ...process.env, ROOKERY_DATA_DIR: dir, ROOKERY_PORT: String(port), ROOKERY_DATABASE_URL: config.databaseUrl, ROOKERY_WEB_DIR: webDir, ROOKERY_LOG_LEVEL: "warn", ROOKERY_RATE_LIMIT_PER_MINUTE: "0", ROOKERY_ANON_RATE_LIMIT_PER_MINUTE: "0" };
    server = (await spawnServer(command.main, env)).child;
    listening = `http://127.0.0.1:${port}`;
    console.log(`web app: ${USERS} users, ${MESSAGES} messages in one channel; first-load JS ${(built.firstLoadJsGzip / 1024).toFixed(1)} KB gzipped`);
    const chromium = await launch();
    browser = chromium;
    if (ONLY.has("cold")) await stage("cold load", () => coldLoad(chromium, owner, streamId, staticHtml));
    const context = await loggedIn(chromium, owner.email);
    const tab = await context.newPage();
    await tab.goto(`${listening}/#inbox`);
    await tab.locator(".inbox").waitFor();
    if (ONLY.has("narrows")) await stage("switching narrows", () => switching(tab, streamId));
    if (ONLY.has("scroll")) await stage("scrolling", () => scrolling(tab, streamId, staticRows));
    await tab.goto(`${listening}/#inbox`);
    await tab.locator(".inbox").waitFor();
    if (ONLY.has("idle")) await stage("idle tab", () => idle(tab, users.slice(1)));
  } finally {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    if (seeding) await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
    command.remove();
  }
}

await main();
