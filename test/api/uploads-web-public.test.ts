import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendDirect, sendStream } from "./messages-fixtures.js";
import { createStreams } from "./streams-helpers.js";
import { download, file, makePng, pathIdOf, thumbnailsIdle, uploaded } from "./uploads-helpers.js";

let server: TestServer;
let square: number;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
  expect((await server.as("desdemona").patch("/realm", { enable_spectator_access: true })).status).toBe(200);
  const ids = await createStreams(server, "desdemona", ["Square"], { is_web_public: true, principals: [server.users.hamlet.id, server.users.desdemona.id] });
  square = ids.Square ?? 0;
});
afterAll(() => server.stop());

const text = (name: string) => file(name, Buffer.from(`contents of ${name}`), "text/plain");
const FORBIDDEN = [403, "<p>You are not authorized to view this file.</p>"];

async function anonymous(url: string): Promise<[number, string]> {
  const res = await download(server, undefined, url);
  return [res.status, res.body.toString()];
}

describe("downloads without credentials (spectators)", () => {
  it("serve a file a web-public channel's message links, its download form and its thumbnails", async () => {
    const url = await uploaded(server, "hamlet", text("notice.txt"));
    expect(await anonymous(url)).toEqual(FORBIDDEN);
    await sendStream(server, "hamlet", "Square", "news", `[notice.txt](${url})`);
    const res = await download(server, undefined, url);
    expect([res.status, res.body.toString(), res.headers.get("content-disposition")]).toEqual([200, "contents of notice.txt", 'attachment; filename="notice.txt"']);
    expect(await anonymous(url.replace("/user_uploads/", "/user_uploads/download/"))).toEqual([200, "contents of notice.txt"]);

    const image = await uploaded(server, "hamlet", file("poster.png", await makePng(900, 600), "image/png"));
    await sendStream(server, "hamlet", "Square", "news", `[poster](${image})`);
    await thumbnailsIdle(server);
    const thumbnail = await download(server, undefined, `/user_uploads/thumbnail/${pathIdOf(image)}/840x560.webp`);
    expect([thumbnail.status, thumbnail.headers.get("content-type")]).toEqual([200, "image/webp"]);
  });

  it("refuse files of other channels and direct messages (403), and say 404 for none", async () => {
    const inPublic = await uploaded(server, "hamlet", text("public.txt"));
    await sendStream(server, "hamlet", "Verona", "t", `[public.txt](${inPublic})`);
    const inPrivate = await uploaded(server, "hamlet", text("private.txt"));
    await sendStream(server, "hamlet", "secret", "t", `[private.txt](${inPrivate})`);
    const inDirect = await uploaded(server, "hamlet", text("direct.txt"));
    await sendDirect(server, "hamlet", ["othello"], `[direct.txt](${inDirect})`);
    for (const url of [inPublic, inPrivate, inDirect]) expect(await anonymous(url)).toEqual(FORBIDDEN);
    expect((await download(server, undefined, `/user_uploads/thumbnail/${pathIdOf(inPublic)}/840x560.webp`)).status).toBe(403);
    expect(await anonymous(inPublic.replace(/[^/]+$/, "nothing.txt"))).toEqual([404, "<p>File not found.</p>"]);
    expect(await anonymous("/user_uploads/abc/file.txt")).toEqual([404, "<p>File not found.</p>"]);
  });

  it("stop when the channel stops being web-public, and when the organisation turns spectator access off", async () => {
    const url = await uploaded(server, "hamlet", text("bulletin.txt"));
    await sendStream(server, "hamlet", "Square", "news", `[bulletin.txt](${url})`);
    expect((await anonymous(url))[0]).toBe(200);
    expect((await server.as("desdemona").patch(`/streams/${square}`, { is_web_public: false })).status).toBe(200);
    expect(await anonymous(url)).toEqual(FORBIDDEN);
    // Signed-in members still read it: the channel is public.
    expect((await download(server, "othello", url)).status).toBe(200);
    expect((await server.as("desdemona").patch(`/streams/${square}`, { is_web_public: true })).status).toBe(200);
    expect((await anonymous(url))[0]).toBe(200);
    expect((await server.as("desdemona").patch("/realm", { enable_spectator_access: false })).status).toBe(200);
    expect(await anonymous(url)).toEqual(FORBIDDEN);
    expect((await server.as("desdemona").patch("/realm", { enable_spectator_access: true })).status).toBe(200);
  });

  it("a file whose channel became private is no longer readable by non-subscribers", async () => {
    const ids = await createStreams(server, "iago", ["Closing"], { principals: [server.users.iago.id, server.users.hamlet.id] });
    const url = await uploaded(server, "hamlet", text("closing.txt"));
    await sendStream(server, "hamlet", "Closing", "t", `[closing.txt](${url})`);
    expect((await download(server, "othello", url)).status).toBe(200);
    expect((await server.as("iago").patch(`/streams/${ids.Closing ?? 0}`, { is_private: true })).status).toBe(200);
    expect((await download(server, "othello", url)).status).toBe(403);
    expect((await download(server, "hamlet", url)).status).toBe(200);
  });

  it("serve one file at most 1000 times a day (Zulip's spectator_attachment_access_by_file)", async () => {
    const url = await uploaded(server, "hamlet", text("popular.txt"));
    await sendStream(server, "hamlet", "Square", "news", `[popular.txt](${url})`);
    for (let i = 0; i < 999; i++) await server.app.ctx.limits.spectatorFiles.hit(pathIdOf(url), server.clock.now());
    expect((await anonymous(url))[0]).toBe(200);
    expect(await anonymous(url)).toEqual(FORBIDDEN);
    // Signed-in readers are not counted.
    expect((await download(server, "othello", url)).status).toBe(200);
    server.clock.advance(24 * 3600);
    expect((await anonymous(url))[0]).toBe(200);
  });
});
