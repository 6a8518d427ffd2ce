import { afterAll, beforeAll } from "vitest";
import { fakeWebDir } from "./browser.js";
import { startServer, type TestServer } from "./server.js";

/** A test server serving the stand-in for the built web app, and that stand-in's folder. */
export interface FakeWebSite {
  server: TestServer;
  webDir: string;
}

/**
 * Starts a test server serving `fakeWebDir()` before the calling file's tests, and stops it and
 * removes the folder after them. The fields are set once the file's `beforeAll` hooks have run.
 */
export function serveFakeWebApp(): FakeWebSite {
  const site = {} as FakeWebSite;
  let remove = (): void => undefined;
  beforeAll(async () => {
    const web = fakeWebDir();
    remove = web.remove;
    site.webDir = web.dir;
    site.server = await startServer({ webDir: web.dir });
  });
  afterAll(async () => {
    await site.server?.stop();
    remove();
  });
  return site;
}
