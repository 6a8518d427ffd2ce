/**
 * Settings and administration in Debian's Chromium (issue 26's figures), as the organisation's owner:
 *   settings pages — opening each personal and organisation page from another one (hash change to
 *                    the page drawn and laid out); the first opening also fetches the lazy chunk.
 *                    Baseline: switching the app's Recent view to Inbox in the same tab.
 *   user list      — #organization/users with 10,000 users drawn, then search-as-you-type, per key.
 *                    Baseline: the same rows as static HTML put into the page (innerHTML, laid out).
 *
 *   npx vite-node bench/web-settings.ts
 * ROOKERY_BENCH_SHORT=1: 500 users, one run of each.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { Page } from "playwright-core";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { buildWeb } from "../web/build.js";
import { CHROMIUM, hasChromium, launch } from "../test/web/browser.js";
import { benchOrganisation } from "./org.js";
import { SHORT } from "./short.js";

const USERS = SHORT ? 500 : 10_000;
const RUNS = SHORT ? 1 : 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const verdict = (value: number, target: number) => `(target ≤ ${target} ms: ${value <= target ? "met" : "MISSED"})`;

/** Sets the hash and resolves with the ms until `selector` shows `text` and the page is laid out. */
function timeHash(page: Page, hash: string, selector: string, text: string): Promise<number> {
  return page.evaluate(
    ({ hash, selector, text }) =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        location.hash = hash;
        const check = () => {
          const el = document.querySelector(selector);
          if (el?.textContent?.includes(text)) {
            void document.body.offsetHeight;
            resolve(performance.now() - t0);
          } else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    { hash, selector, text },
  );
}

/** Types one more character into the search box; ms until the table is redrawn and laid out. */
function timeKey(page: Page, value: string): Promise<number> {
  return page.evaluate(
    (value) =>
      new Promise<number>((resolve) => {
        const input = document.querySelector<HTMLInputElement>('input[type="search"]');
        if (!input) throw new Error("no search box");
        const t0 = performance.now();
        input.value = value;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        requestAnimationFrame(() => {
          void document.body.offsetHeight;
          resolve(performance.now() - t0);
        });
      }),
    value,
  );
}

async function main(): Promise<void> {
  if (!hasChromium) {
    console.log(`bench/web-settings skipped: no Chromium at ${CHROMIUM}`);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-settings-"));
  const webDir = path.join(dir, "web");
  await buildWeb(webDir);
  const config = { ...loadConfig({}), dataDir: dir, databaseUrl: `sqlite:${path.join(dir, "bench.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0, anonRateLimitPerMinute: 0, webDir };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  const url = await app.http.listen({ host: "127.0.0.1", port: 0 });
  await app.listening(url);
  const browser = await launch();
  try {
    const users = await benchOrganisation(app, USERS, Date.now());
    const owner = users[0];
    if (!owner) throw new Error("no owner");
    const context = await browser.newContext({ viewport: { width: 1400, height: 1024 } });
    const login = await context.request.post(`${url}/login/`, { form: { username: owner.email, password: "bench-password" }, headers: { origin: url }, maxRedirects: 0 });
    if (login.status() !== 302) throw new Error(`login: ${login.status()}`);
    const page = await context.newPage();
    await page.goto(`${url}/#inbox`);
    await page.locator("nav.left").waitFor();
    console.log(`settings: ${USERS} users, owner's browser`);

    const baseline: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await timeHash(page, "#recent", ".middle", "");
      baseline.push(await timeHash(page, "#inbox", ".middle", ""));
    }
    const first = await timeHash(page, "#settings/profile", "#settings-heading", "Profile");
    console.log(`  first settings page (lazy chunk fetched): ${first.toFixed(1)} ms`);
    const pages: [string, string][] = [
      ["#settings/profile", "Profile"],
      ["#settings/account-and-privacy", "Account & privacy"],
      ["#settings/preferences", "Preferences"],
      ["#settings/notifications", "Notifications"],
      ["#settings/channels", "Channels"],
      ["#organization/organization-profile", "Organization profile"],
      ["#organization/organization-settings", "Organization settings"],
      ["#organization/invites", "Invitations"],
    ];
    let worst = 0;
    for (const [hash, title] of pages) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        await timeHash(page, "#settings/status", "#settings-heading", "Status");
        times.push(await timeHash(page, hash, "#settings-heading", title));
      }
      worst = Math.max(worst, median(times));
      console.log(`  ${hash.padEnd(38)} median ${median(times).toFixed(1)} ms`);
    }
    const base = median(baseline);
    console.log(`  slowest settings page ${worst.toFixed(1)} ms, ${(worst / base).toFixed(2)}x the baseline (Recent → Inbox ${base.toFixed(1)} ms) ${verdict(worst, 100)}`);

    const drawn: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await timeHash(page, "#settings/status", "#settings-heading", "Status");
      drawn.push(await timeHash(page, "#organization/users", ".settings-table tbody", "User 1"));
    }
    const rowsHtml = await page.locator(".settings-table").evaluate((t) => t.outerHTML);
    const staticTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      staticTimes.push(
        await page.evaluate((html) => {
          const box = document.createElement("div");
          const t0 = performance.now();
          box.innerHTML = html;
          document.body.append(box);
          void document.body.offsetHeight;
          const ms = performance.now() - t0;
          box.remove();
          return ms;
        }, rowsHtml),
      );
    }
    const listMs = median(drawn);
    console.log(`  user list of ${USERS} drawn: median ${listMs.toFixed(1)} ms, ${(listMs / median(staticTimes)).toFixed(2)}x static HTML of the same rows (${median(staticTimes).toFixed(1)} ms) ${verdict(listMs, 200)}`);

    const keys: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const query = "user 12";
      for (let n = 1; n <= query.length; n++) keys.push(await timeKey(page, query.slice(0, n)));
      for (let n = query.length - 1; n >= 0; n--) keys.push(await timeKey(page, query.slice(0, n)));
    }
    const keyMs = median(keys);
    const worstKey = Math.max(...keys);
    console.log(`  search as you type: median ${keyMs.toFixed(1)} ms per key, slowest ${worstKey.toFixed(1)} ms, ${(keyMs / median(staticTimes)).toFixed(2)}x the static rows ${verdict(keyMs, 50)}`);
  } finally {
    await browser.close();
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
