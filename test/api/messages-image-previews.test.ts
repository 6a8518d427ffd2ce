import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "./messages-fixtures.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

// Zulip 9.0's HTML for this message, from its own rendering tests, byte for byte.
const URL = "http://cdn.wallpapersafari.com/13/6/16eVjx.jpeg";
const WITH_PREVIEW =
  '<div class="message_inline_image"><a href="http://cdn.wallpapersafari.com/13/6/16eVjx.jpeg"><img data-src-fullsize="/thumbnail?url=http%3A%2F%2Fcdn.wallpapersafari.com%2F13%2F6%2F16eVjx.jpeg&amp;size=full" src="/thumbnail?url=http%3A%2F%2Fcdn.wallpapersafari.com%2F13%2F6%2F16eVjx.jpeg&amp;size=thumbnail"></a></div>';
const WITHOUT_PREVIEW = '<p><a href="http://cdn.wallpapersafari.com/13/6/16eVjx.jpeg">http://cdn.wallpapersafari.com/13/6/16eVjx.jpeg</a></p>';

async function renderedOf(id: number): Promise<string> {
  const res = await server.as("hamlet").get(`/messages/${id}`);
  return res.body.message.content as string;
}

async function hasImage(id: number): Promise<boolean> {
  const res = await server.as("hamlet").get("/messages", { anchor: id, num_before: 0, num_after: 0, narrow: JSON.stringify([{ operator: "has", operand: "image" }]) });
  return (res.body.messages as { id: number }[]).some((m) => m.id === id);
}

async function setPreviews(on: boolean): Promise<void> {
  expect((await server.as("desdemona").patch("/realm", { inline_image_preview: on })).status).toBe(200);
}

describe("image previews of other sites in sent messages", () => {
  it("render as Zulip 9.0's, through /thumbnail, in sends, edits and /messages/render", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "pics", URL);
    expect([await renderedOf(id), await hasImage(id)]).toEqual([WITH_PREVIEW, true]);
    const render = await server.as("hamlet").post("/messages/render", { content: URL });
    expect(render.body.rendered).toBe(WITH_PREVIEW);
    const plain = await sendStream(server, "hamlet", "Verona", "pics", "no picture yet");
    expect((await server.as("hamlet").patch(`/messages/${plain}`, { content: URL })).status).toBe(200);
    expect([await renderedOf(plain), await hasImage(plain)]).toEqual([WITH_PREVIEW, true]);
  });

  it("are left out while the organisation's inline_image_preview is off", async () => {
    await setPreviews(false);
    try {
      const id = await sendStream(server, "hamlet", "Verona", "pics", URL);
      expect([await renderedOf(id), await hasImage(id)]).toEqual([WITHOUT_PREVIEW, false]);
    } finally {
      await setPreviews(true);
    }
    const id = await sendStream(server, "hamlet", "Verona", "pics", URL);
    expect(await renderedOf(id)).toBe(WITH_PREVIEW);
  });
});
