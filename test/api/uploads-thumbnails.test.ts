import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "./messages-fixtures.js";
import { bombPng, download, file, makeGif, makePng, pathIdOf, pauseThumbnails, resumeThumbnails, thumbnailsIdle, uploaded } from "./uploads-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

const SPINNER = '<img class="image-loading-placeholder" src="/static/images/loading/loader-black.svg">';

async function renderedOf(id: number): Promise<string> {
  const res = await server.as("hamlet").get(`/messages/${id}`);
  return res.body.message.content as string;
}

describe("image previews and thumbnails", () => {
  it("shows a spinner, then re-renders the message with update_message once the thumbnail exists", async () => {
    pauseThumbnails(server);
    const url = await uploaded(server, "hamlet", file("pic.png", await makePng(1000, 600), "image/png"));
    const id = await sendStream(server, "hamlet", "Verona", "pics", `[pic.png](${url})`);
    expect(await renderedOf(id)).toBe(`<p><a href="${url}">pic.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="pic.png">${SPINNER}</a></div>`);
    const queue = await server.as("othello").post("/register", { event_types: ["update_message"] });
    resumeThumbnails(server);
    await thumbnailsIdle(server);
    const thumbnail = `/user_uploads/thumbnail/${pathIdOf(url)}/840x560.webp`;
    const final = `<p><a href="${url}">pic.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="pic.png"><img data-original-dimensions="1000x600" src="${thumbnail}"></a></div>`;
    const events = await server.as("othello").get("/events", { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true });
    expect(events.body.events).toEqual([
      {
        id: 0,
        type: "update_message",
        user_id: null,
        edit_timestamp: Math.floor(server.clock.now() / 1000),
        message_id: id,
        message_ids: [id],
        content: `[pic.png](${url})`,
        rendered_content: final,
        rendering_only: true,
        flags: [],
      },
    ]);
    expect(await renderedOf(id)).toBe(final);
    const got = await download(server, "othello", thumbnail);
    expect([got.status, got.headers.get("content-type"), got.headers.get("content-disposition")]).toEqual([200, "image/webp", 'inline; filename="840x560.webp"']);
    expect(await sharp(got.body).metadata()).toMatchObject({ format: "webp", width: 840, height: 504 });
  });

  it("serves each format of server_thumbnail_formats, and the closest for an unknown one", async () => {
    const state = await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
    expect(state.body.server_thumbnail_formats).toEqual([
      { name: "840x560-anim.webp", max_width: 840, max_height: 560, format: "webp", animated: true },
      { name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false },
      { name: "300x200-anim.webp", max_width: 300, max_height: 200, format: "webp", animated: true },
      { name: "300x200.webp", max_width: 300, max_height: 200, format: "webp", animated: false },
      { name: "300x200.jpg", max_width: 300, max_height: 200, format: "jpg", animated: false },
    ]);
    const url = await uploaded(server, "hamlet", file("small.png", await makePng(400, 100), "image/png"));
    await thumbnailsIdle(server);
    const base = `/user_uploads/thumbnail/${pathIdOf(url)}`;
    const jpg = await download(server, "hamlet", `${base}/300x200.jpg`);
    expect(jpg.headers.get("content-type")).toBe("image/jpeg");
    expect(await sharp(jpg.body).metadata()).toMatchObject({ format: "jpeg", width: 300, height: 75 });
    // Never scaled up: a small image keeps its size.
    expect(await sharp((await download(server, "hamlet", `${base}/840x560.webp`)).body).metadata()).toMatchObject({ width: 400, height: 100 });
    const closest = await download(server, "hamlet", `${base}/320x240.webp`);
    expect([closest.status, closest.headers.get("content-disposition")]).toEqual([200, 'inline; filename="300x200.webp"']);
    expect((await download(server, "othello", `${base}/300x200.jpg`)).status).toBe(403);
  });

  it("renders the thumbnail at once when it already exists, and marks animations", async () => {
    const url = await uploaded(server, "hamlet", file("anim.gif", await makeGif(60, 40, 3), "image/gif"));
    await thumbnailsIdle(server);
    const id = await sendStream(server, "hamlet", "Verona", "pics", `look ${url.slice(1)} [anim](${url})`);
    const thumbnail = `/user_uploads/thumbnail/${pathIdOf(url)}/840x560-anim.webp`;
    expect(await renderedOf(id)).toContain(`<div class="message_inline_image"><a href="${url}" title="anim"><img data-animated="true" data-original-dimensions="60x40" src="${thumbnail}"></a></div>`);
    const got = await download(server, "hamlet", thumbnail);
    expect(await sharp(got.body).metadata()).toMatchObject({ format: "webp", pages: 3 });
  });

  it("previews nothing for a file that is not an image, or for a decompression bomb", async () => {
    const fake = await uploaded(server, "hamlet", file("fake.png", Buffer.from("text"), "image/png"));
    const bomb = await uploaded(server, "hamlet", file("bomb.png", bombPng(20000, 20000), "image/png"));
    await thumbnailsIdle(server);
    const id = await sendStream(server, "hamlet", "Verona", "pics", `[fake.png](${fake}) [bomb.png](${bomb})`);
    expect(await renderedOf(id)).toBe(`<p><a href="${fake}">fake.png</a> <a href="${bomb}">bomb.png</a></p>`);
    const got = await download(server, "hamlet", bomb);
    expect([got.status, got.headers.get("content-disposition")]).toEqual([200, 'attachment; filename="bomb.png"']);
    expect((await download(server, "hamlet", `/user_uploads/thumbnail/${pathIdOf(bomb)}/840x560.webp`)).status).toBe(404);
  });

  it("keeps previews in quotes out, and previews a list item's image inside the item", async () => {
    const url = await uploaded(server, "hamlet", file("q.png", await makePng(10, 10), "image/png"));
    await thumbnailsIdle(server);
    const quoted = await sendStream(server, "hamlet", "Verona", "pics", `> [q.png](${url})`);
    expect(await renderedOf(quoted)).toBe(`<blockquote>\n<p><a href="${url}">q.png</a></p>\n</blockquote>`);
    const listed = await sendStream(server, "hamlet", "Verona", "pics", `* [q.png](${url})`);
    const img = `<img data-original-dimensions="10x10" src="/user_uploads/thumbnail/${pathIdOf(url)}/840x560.webp">`;
    expect(await renderedOf(listed)).toBe(`<ul>\n<li><a href="${url}">q.png</a><div class="message_inline_image"><a href="${url}" title="q.png">${img}</a></div></li>\n</ul>`);
  });
});
