/** Debian's Chromium driven by playwright-core: launch with a fresh profile, log in, collect console errors. */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = process.env.ROOKERY_CHROMIUM ?? "/usr/bin/chromium";
/** Whether the browser tests and benchmarks can run here. */
export const hasChromium = existsSync(CHROMIUM);
export const NO_CHROMIUM = `browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium fonts-noto-color-emoji)`;

/** Starts headless Chromium on a fresh temporary profile, never downloading anything. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  });
}

/** A page that records console errors and uncaught exceptions (checked at the end of a test). */
export async function openPage(context: BrowserContext, errors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`${page.url()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`${page.url()}: ${err.message}`));
  // Console errors about failed loads do not name the URL; this does.
  page.on("response", (res) => {
    if (res.status() >= 400) errors.push(`${res.request().method()} ${new URL(res.url()).pathname}: ${res.status()}`);
  });
  return page;
}

/** Signs in through /login/ as a person would, and waits for the app to draw. */
export async function logIn(page: Page, baseUrl: string, email: string, password: string, hash = ""): Promise<void> {
  await page.goto(`${baseUrl}/${hash}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.locator("nav.left").waitFor();
}

/** The folder screenshots go to (printed by the test so a person can look at them). */
export function screenshotDir(): string {
  const dir = path.resolve(import.meta.dirname, "../../dist/screenshots");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Calls /json from inside the page, with its session cookie and CSRF token (what compose and actions do). */
export async function jsonCall(page: Page, method: string, urlPath: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  return page.evaluate(
    async ({ method, urlPath, params }) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) body.set(k, typeof v === "string" ? v : JSON.stringify(v));
      const res = await fetch(`/json/${urlPath}`, { method, headers: { "X-CSRFToken": token }, body, credentials: "same-origin" });
      return (await res.json()) as Record<string, unknown>;
    },
    { method, urlPath, params },
  );
}
