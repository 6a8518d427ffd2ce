import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "../api/messages-fixtures.js";
import { file, makePng, pathIdOf, pauseThumbnails, resumeThumbnails, thumbnailsIdle, upload, uploaded } from "../api/uploads-helpers.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

// Attachments are not part of /register's state: these events change nothing there.
const noState = { changesState: false } as const;

describe("consistency of /register state and events: attachments", () => {
  it("an upload sends attachment add to the uploader", async () => {
    let url = "";
    const events = await checkAction(server, "hamlet", async () => (url = (await upload(server, "hamlet", file("a.txt", Buffer.from("abc"), "text/plain"))).body.url), {
      ...noState,
      expectEvents: ["attachment"],
    });
    expect(events[0]).toEqual({
      id: expect.any(Number),
      type: "attachment",
      op: "add",
      attachment: { id: expect.any(Number), name: "a.txt", path_id: pathIdOf(url), size: 3, create_time: server.clock.now(), messages: [] },
      upload_space_used: 3,
    });
    const others = await checkAction(server, "othello", () => upload(server, "hamlet", file("b.txt", Buffer.from("b"))), { ...noState, expectEvents: 0 });
    expect(others).toEqual([]);
  });

  it("a message that links it sends attachment update, with the message", async () => {
    const url = await uploaded(server, "hamlet", file("c.txt", Buffer.from("cc"), "text/plain"));
    let id = 0;
    const events = await checkAction(server, "hamlet", async () => (id = await sendStream(server, "hamlet", "Verona", "t", `[c.txt](${url})`)), {
      ...noState,
      eventTypes: ["attachment"],
      expectEvents: ["attachment"],
    });
    expect(events[0]).toMatchObject({ op: "update", attachment: { path_id: pathIdOf(url), messages: [{ id, date_sent: server.clock.now() }] }, upload_space_used: 6 });
  });

  it("deleting it sends attachment remove", async () => {
    const url = await uploaded(server, "hamlet", file("d.txt", Buffer.from("dddd"), "text/plain"));
    const attachments = (await server.as("hamlet").get("/attachments")).body.attachments as { id: number; path_id: string }[];
    const target = attachments.find((a) => a.path_id === pathIdOf(url));
    if (!target) throw new Error("upload not listed");
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").delete(`/attachments/${target.id}`), { ...noState, expectEvents: ["attachment"] });
    expect(events[0]).toEqual({ id: expect.any(Number), type: "attachment", op: "remove", attachment: { id: target.id }, upload_space_used: 6 });
  });

  it("a finished thumbnail re-renders the message for its recipients only", async () => {
    pauseThumbnails(server);
    const url = await uploaded(server, "hamlet", file("e.png", await makePng(20, 10), "image/png"));
    const id = await sendStream(server, "hamlet", "secret", "t", `[e.png](${url})`);
    const events = await checkAction(
      server,
      "iago",
      async () => {
        resumeThumbnails(server);
        await thumbnailsIdle(server);
      },
      { ...noState, expectEvents: ["update_message"] },
    );
    expect(events[0]).toMatchObject({ message_id: id, rendering_only: true, user_id: null });
    expect(events[0].rendered_content).toContain('<img data-original-dimensions="20x10" src="/user_uploads/thumbnail/');
    pauseThumbnails(server);
    const other = await uploaded(server, "hamlet", file("f.png", await makePng(20, 10), "image/png"));
    await sendStream(server, "hamlet", "secret", "t", `[f.png](${other})`);
    const outsider = await checkAction(
      server,
      "othello",
      async () => {
        resumeThumbnails(server);
        await thumbnailsIdle(server);
      },
      { ...noState, expectEvents: 0 },
    );
    expect(outsider).toEqual([]);
  });
});
