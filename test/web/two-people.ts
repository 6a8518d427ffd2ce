/** Two people, hamlet and othello, signed in to the web app in two Chromium contexts, for a file's browser tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { buildWeb } from "../../web/build.js";
import { startServer, type TestServer } from "../harness/server.js";
import { launch, logIn, openPage, screenshotDir } from "./browser.js";

export interface TwoPeople {
  server: TestServer;
  browser: Browser;
  /** Every context opened, closed at the end; a test that opens another pushes it here. */
  contexts: BrowserContext[];
  hamlet: Page;
  othello: Page;
  /** Console errors and failed loads of every page opened with `openPage(…, errors)`. */
  errors: string[];
  /** Writes a screenshot of `page` as `<name>.png` into the screenshot folder. */
  shot(page: Page, name: string): Promise<Buffer>;
}

/**
 * Builds the web app, starts a server serving it, runs `prepare` (channels, clock) and signs both
 * people in, before the calling block's tests; closes everything after them. The fields are set
 * once the block's `beforeAll` hooks have run.
 */
export function twoPeople(options: { context?: BrowserContextOptions; defaultTimeout?: number; prepare?: (server: TestServer) => Promise<void> }): TwoPeople {
  const shots = screenshotDir();
  const webDir = mkdtempSync(path.join(tmpdir(), "rookery-web-test-"));
  const people = { contexts: [] as BrowserContext[], errors: [] as string[], shot: (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`) }) } as TwoPeople;
  beforeAll(async () => {
    await buildWeb(webDir);
    people.server = await startServer({ webDir });
    await options.prepare?.(people.server);
    people.browser = await launch();
    const pages: Page[] = [];
    for (let i = 0; i < 2; i++) {
      const context = await people.browser.newContext({ viewport: { width: 1400, height: 1024 }, ...options.context });
      if (options.defaultTimeout !== undefined) context.setDefaultTimeout(options.defaultTimeout);
      people.contexts.push(context);
      pages.push(await openPage(context, people.errors));
    }
    [people.hamlet, people.othello] = pages as [Page, Page];
    const { server } = people;
    await logIn(people.hamlet, server.url, server.users.hamlet.delivery_email, server.password);
    await logIn(people.othello, server.url, server.users.othello.delivery_email, server.password);
  }, 60000);
  afterAll(async () => {
    for (const context of people.contexts.splice(0)) await context.close().catch(() => undefined);
    await people.browser?.close();
    await people.server?.stop();
    rmSync(webDir, { recursive: true, force: true });
    console.log(`screenshots of the web app: ${shots}`);
  });
  return people;
}
