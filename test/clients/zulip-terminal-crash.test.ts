/**
 * The real zulip-terminal, unpatched, through a crash of the server. It runs in tmux against
 * `rookery serve`; the server is killed with SIGKILL straight after a message is sent, then started
 * again on the same data and port. The terminal must go on polling the queue it registered (it
 * registers again only on BAD_EVENT_QUEUE_ID, and says it may then have missed events), show the
 * message sent before the crash exactly once, show one sent after it, and log no traceback. Needs
 * what zulip-terminal-run.test.ts needs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "../harness/client.js";
import { freePort, launchFromSource } from "../harness/process.js";
import { clientsDir } from "./real-clients.js";
import { startTerminal, terminalRunnable } from "./terminal.js";
import { tmuxSession } from "./tmux.js";

const runnable = terminalRunnable;
if (!runnable) console.log(`zulip-terminal crash run skipped: needs zulip-terminal and python-zulip-api in ${clientsDir}, a Python 3 with their modules, and tmux`);

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const { tmux, screen, waitFor, kill } = tmuxSession(`rookery-ztc-${process.pid}`, "ztc");

/** The ids of the event queues the server keeps in its database. */
function queueIds(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, "rookery.sqlite3"), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT id FROM event_queue ORDER BY id").all() as { id: string }[]).map((row) => row.id);
  } finally {
    db.close();
  }
}

describe.skipIf(!runnable)("zulip-terminal through kill -9 of the server", () => {
  it("keeps polling its queue, and shows the message sent just before the crash once and one sent after", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-ztc-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const launch = async () => {
      const launched = await launchFromSource(dataDir, port);
      cleanups.push(() => {
        if (launched.child.exitCode === null) launched.child.kill("SIGKILL");
      });
      return launched;
    };
    const first = await launch();
    const email = /Email: +(\S+)/.exec(first.output)?.[1];
    const apiKey = /API key: +(\S+)/.exec(first.output)?.[1];
    if (!email || !apiKey) throw new Error(`no credentials in: ${first.output}`);
    const url = `http://127.0.0.1:${port}`;
    const owner = new Client(url, { email, apiKey });
    const created = await owner.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "harbour" }]) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const send = async (content: string) => {
      const res = await owner.post("/messages", { type: "stream", to: "harbour", topic: "tides", content });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    // The Welcome Bot's messages read, so that the terminal opens at the newest.
    expect((await owner.post("/mark_all_as_read")).status).toBe(200);
    await send("low tide at noon");

    const home = startTerminal(tmux, "ztc", { email, apiKey, site: url });
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true, maxRetries: 5 }));
    cleanups.push(kill);
    await waitFor(["low tide at noon"]);
    await send("high tide at six");
    await waitFor(["high tide at six"]);
    const before = queueIds(dataDir);
    expect(before).toHaveLength(1);

    // Killed as soon as the message is acknowledged: the terminal may or may not have had it.
    await send("the harbour is closed");
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    await launch();
    await waitFor(["the harbour is closed"]);
    await send("the harbour is open again");
    const shown = await waitFor(["the harbour is open again"]);

    expect(shown.split("the harbour is closed").length - 1).toBe(1);
    expect(shown.split("high tide at six").length - 1).toBe(1);
    // The same single queue: the terminal never registered again.
    expect(queueIds(dataDir)).toEqual(before);
    expect(screen()).not.toContain("exited");
    expect(fs.existsSync(path.join(home, "zulip-terminal-tracebacks.log"))).toBe(false);
  }, 120_000);
});
