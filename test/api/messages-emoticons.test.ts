/** translate_emoticons: the sender's setting decides whether `:)` in their messages becomes an emoji. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "./messages-fixtures.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
  const res = await server.as("hamlet").patch("/settings", { translate_emoticons: true });
  expect(res.status).toBe(200);
});
afterAll(() => server.stop());

const smile = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';

async function renderedBy(who: "hamlet" | "othello", content: string): Promise<string> {
  const res = await server.as(who).post("/messages/render", { content });
  expect(res.status).toBe(200);
  return res.body.rendered as string;
}

async function storedContent(id: number): Promise<string> {
  const res = await server.as("hamlet").get(`/messages/${id}`);
  expect(res.status).toBe(200);
  return (res.body.message as { content: string }).content;
}

describe("translate_emoticons", () => {
  it("applies to the previews of a user who turned it on, and only theirs", async () => {
    expect(await renderedBy("hamlet", "hi :)")).toBe(`<p>hi ${smile}</p>`);
    expect(await renderedBy("othello", "hi :)")).toBe("<p>hi :)</p>");
  });

  it("applies to sent messages by the sender's setting", async () => {
    expect(await storedContent(await sendStream(server, "hamlet", "Verona", "emoticons", "hi :)"))).toBe(`<p>hi ${smile}</p>`);
    expect(await storedContent(await sendStream(server, "othello", "Verona", "emoticons", "hi :)"))).toBe("<p>hi :)</p>");
  });

  it("applies when the sender edits the content", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "emoticons", "first");
    const res = await server.as("hamlet").patch(`/messages/${id}`, { content: "then :)" });
    expect(res.status).toBe(200);
    expect(await storedContent(id)).toBe(`<p>then ${smile}</p>`);
  });

  it("stops once the setting is turned off", async () => {
    await server.as("hamlet").patch("/settings", { translate_emoticons: false });
    expect(await renderedBy("hamlet", "hi :)")).toBe("<p>hi :)</p>");
    await server.as("hamlet").patch("/settings", { translate_emoticons: true });
  });
});
