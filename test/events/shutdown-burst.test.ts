import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../harness/client.js";
import { launchFromSource, freePort } from "../harness/process.js";

// SIGTERM stops the server within a bounded time however busy it is, and the event queues it held
// are saved: after a restart a client's queue answers, with what it had been given before the stop.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

async function launch(dataDir: string, port: number): Promise<{ child: ChildProcess; output: string }> {
  const launched = await launchFromSource(dataDir, port);
  cleanups.push(() => {
    if (launched.child.exitCode === null) launched.child.kill("SIGKILL");
  });
  return launched;
}

describe("SIGTERM during a burst of user creation", () => {
  it("exits within 10 s, and the owner's queue answers after a restart", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-burst-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const first = await launch(dataDir, port);
    const email = /Email: +(\S+)/.exec(first.output)?.[1];
    const apiKey = /API key: +(\S+)/.exec(first.output)?.[1];
    if (!email || !apiKey) throw new Error(`no credentials in: ${first.output}`);
    const owner = new Client(`http://127.0.0.1:${port}`, { email, apiKey });
    const reg = await owner.post("/register", { event_types: ["realm_user"], fetch_event_types: [] });
    expect(reg.status).toBe(200);

    // Hundreds of concurrent creations, each hashing a password and announcing the account.
    const burst = Array.from({ length: 400 }, (_, i) =>
      owner.post("/users", { email: `burst${i}@example.com`, password: "a-long-enough-password", full_name: `Burst ${i}` }).catch(() => undefined),
    );
    // The stop comes once the burst is under way: some accounts made, most still queued.
    while (((await owner.get("/users")).body.members as unknown[]).length < 5) await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = performance.now();
    first.child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => first.child.once("exit", resolve));
    const seconds = (performance.now() - stopped) / 1000;
    console.info(`SIGTERM to exit: ${seconds.toFixed(2)} s (exit code ${code})`);
    expect(seconds).toBeLessThan(10);
    expect([0, 1]).toContain(code);
    await Promise.all(burst);

    await launch(dataDir, port);
    const res = await owner.get("/events", { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
    expect(res.status).toBe(200);
    const events = res.body.events as { id: number; type: string; op?: string; person?: { email: string } }[];
    // Ids run from 0 without a gap; every saved event is a realm_user add of an account that exists.
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i));
    const members = new Set(((await owner.get("/users")).body.members as { email: string }[]).map((m) => m.email));
    for (const event of events) {
      expect(event).toMatchObject({ type: "realm_user", op: "add" });
      expect(members.has(event.person?.email ?? "")).toBe(true);
    }
  }, 90_000);
});
