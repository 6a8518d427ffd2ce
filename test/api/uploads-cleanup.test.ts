import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "./messages-fixtures.js";
import { scheduleToChannel } from "./scheduled-messages-fixtures.js";
import { download, file, makePng, pathIdOf, thumbnailsIdle, uploaded } from "./uploads-helpers.js";

let server: TestServer;
let channels: Awaited<ReturnType<typeof createChannels>>;
beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
});
afterAll(() => server.stop());

const WEEK = 7 * 24 * 3600;
const text = (name: string) => file(name, Buffer.from(`contents of ${name}`), "text/plain");

/** Moves the test clock on and runs the periodic job as its timer would. */
async function sweepAfter(seconds: number): Promise<void> {
  server.clock.advance(seconds);
  await server.app.ctx.unclaimedUploads.runDue();
}

async function listed(): Promise<{ names: string[]; sizes: Map<string, number>; used: number }> {
  const res = await server.as("hamlet").get("/attachments");
  expect(res.status).toBe(200);
  const attachments = res.body.attachments as { name: string; size: number }[];
  return { names: attachments.map((a) => a.name), sizes: new Map(attachments.map((a) => [a.name, a.size])), used: res.body.upload_space_used as number };
}

const stored = (key: string) => fs.existsSync(path.join(server.dataDir, "uploads", key));

describe("the periodic removal of unclaimed uploads", () => {
  it("removes an upload no message linked once it is five weeks old, with its file and thumbnails; keeps the rest", async () => {
    const unclaimed = await uploaded(server, "hamlet", text("forgotten.txt"));
    const image = await uploaded(server, "hamlet", file("forgotten.png", await makePng(900, 600), "image/png"));
    await thumbnailsIdle(server);
    const claimed = await uploaded(server, "hamlet", text("shared.txt"));
    await sendStream(server, "hamlet", "Denmark", "files", `[shared.txt](${claimed})`);
    const scheduled = await uploaded(server, "hamlet", text("later.txt"));
    await scheduleToChannel(server, "hamlet", channels.denmark, `[later.txt](${scheduled})`, { scheduled_delivery_timestamp: Math.floor(server.clock.now() / 1000) + 8 * WEEK });
    expect(stored(`thumbnail/${pathIdOf(image)}/840x560.webp`)).toBe(true);
    await sweepAfter(2 * WEEK);
    const recent = await uploaded(server, "hamlet", text("recent.txt"));
    const before = await listed();
    expect(before.names).toEqual(["forgotten.txt", "forgotten.png", "shared.txt", "later.txt", "recent.txt"]);

    await sweepAfter(3 * WEEK + 1);
    expect((await download(server, "hamlet", unclaimed)).status).toBe(404);
    expect((await download(server, "hamlet", image)).status).toBe(404);
    expect((await download(server, "hamlet", `/user_uploads/thumbnail/${pathIdOf(image)}/840x560.webp`)).status).toBe(404);
    expect(stored(pathIdOf(unclaimed))).toBe(false);
    expect(stored(pathIdOf(image))).toBe(false);
    expect(stored(`thumbnail/${pathIdOf(image)}`)).toBe(false);
    // The folders only they occupied go too; the realm's shared ones stay.
    const folder = (url: string) => pathIdOf(url).split("/").slice(0, 3).join("/");
    expect([stored(folder(unclaimed)), stored(folder(image)), stored(`thumbnail/${folder(image)}`)]).toEqual([false, false, false]);
    expect(stored(folder(claimed))).toBe(true);
    const after = await listed();
    expect(after.names).toEqual(["shared.txt", "later.txt", "recent.txt"]);
    expect(after.used).toBe(before.used - (before.sizes.get("forgotten.txt") ?? 0) - (before.sizes.get("forgotten.png") ?? 0));
    for (const url of [claimed, scheduled, recent]) expect((await download(server, "hamlet", url)).status).toBe(200);

    // Five weeks to the millisecond is not older than five weeks; a millisecond more is.
    await sweepAfter(2 * WEEK - 1);
    expect((await download(server, "hamlet", recent)).status).toBe(200);
    await sweepAfter(24 * 3600 + 0.001);
    expect((await download(server, "hamlet", recent)).status).toBe(404);
    expect((await listed()).names).toEqual(["shared.txt", "later.txt"]);
  });

  it("removes an upload whose only message was deleted, once old enough", async () => {
    const url = await uploaded(server, "hamlet", text("retracted.txt"));
    const id = await sendStream(server, "hamlet", "Denmark", "files", `[retracted.txt](${url})`);
    await sweepAfter(6 * WEEK);
    expect((await download(server, "hamlet", url)).status).toBe(200);
    expect((await server.as("iago").delete(`/messages/${id}`)).status).toBe(200);
    await sweepAfter(24 * 3600);
    expect((await download(server, "hamlet", url)).status).toBe(404);
    expect((await listed()).names).not.toContain("retracted.txt");
  });

  it("looks at most once a day, whatever wakes it", async () => {
    await sweepAfter(2 * 24 * 3600);
    const url = await uploaded(server, "hamlet", text("daily.txt"));
    await sweepAfter(5 * WEEK - 3600);
    expect((await download(server, "hamlet", url)).status).toBe(200);
    // Old enough two hours later, but the last run was two hours ago.
    await sweepAfter(2 * 3600);
    expect((await download(server, "hamlet", url)).status).toBe(200);
    await sweepAfter(24 * 3600);
    expect((await download(server, "hamlet", url)).status).toBe(404);
  });
});
