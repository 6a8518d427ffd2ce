import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendDirect, sendStream } from "./messages-fixtures.js";
import { download, file, pathIdOf, uploaded } from "./uploads-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

const text = (name: string) => file(name, Buffer.from(`contents of ${name}`), "text/plain");

describe("who may download an upload", () => {
  it("only its owner, before any message links it", async () => {
    const url = await uploaded(server, "hamlet", text("draft.txt"));
    expect((await download(server, "hamlet", url)).status).toBe(200);
    const other = await download(server, "othello", url);
    expect([other.status, other.body.toString(), other.headers.get("content-type")]).toEqual([403, "<p>You are not authorized to view this file.</p>", "text/html; charset=utf-8"]);
    const anonymous = await download(server, undefined, url);
    expect(anonymous.status).toBe(403);
    const missing = await download(server, "hamlet", url.replace(/[^/]+$/, "nothing.txt"));
    expect([missing.status, missing.body.toString()]).toEqual([404, "<p>File not found.</p>"]);
  });

  it("the recipients of a private channel's message, not others", async () => {
    const url = await uploaded(server, "hamlet", text("plan.txt"));
    await sendStream(server, "hamlet", "secret", "plans", `[plan.txt](${url})`);
    expect((await download(server, "hamlet", url)).status).toBe(200);
    expect((await download(server, "iago", url)).body.toString()).toBe("contents of plan.txt");
    expect((await download(server, "othello", url)).status).toBe(403);
    expect((await download(server, "polonius", url)).status).toBe(403);
    // A later subscriber of a channel with shared history may.
    await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "secret" }], principals: [server.users.cordelia.id] });
    expect((await download(server, "cordelia", url)).status).toBe(200);
  });

  it("everyone but guests for a public channel's message; a guest who received it", async () => {
    const inDenmark = await uploaded(server, "hamlet", text("denmark.txt"));
    await sendStream(server, "hamlet", "Denmark", "t", `see [denmark.txt](${inDenmark})`);
    expect((await download(server, "othello", inDenmark)).status).toBe(200);
    expect((await download(server, "polonius", inDenmark)).status).toBe(403);
    const inVerona = await uploaded(server, "hamlet", text("verona.txt"));
    await sendStream(server, "hamlet", "Verona", "t", `[verona.txt](${inVerona})`);
    expect((await download(server, "polonius", inVerona)).status).toBe(200);
  });

  it("the participants of a direct message", async () => {
    const url = await uploaded(server, "othello", text("dm.txt"));
    await sendDirect(server, "othello", ["cordelia"], `[dm.txt](${url})`);
    expect((await download(server, "cordelia", url)).status).toBe(200);
    expect((await download(server, "iago", url)).status).toBe(403);
  });

  it("a link to someone else's file that the sender cannot read claims nothing", async () => {
    const url = await uploaded(server, "iago", text("iago.txt"));
    const id = await sendStream(server, "othello", "Verona", "t", `[stolen](${url})`);
    expect((await download(server, "cordelia", url)).status).toBe(403);
    const fetched = await server.as("othello").get(`/messages/${id}`);
    expect(fetched.status).toBe(200);
  });

  it("accepts the API key as a query parameter", async () => {
    const url = await uploaded(server, "hamlet", text("key.txt"));
    const res = await fetch(`${server.url}${url}?api_key=${server.users.hamlet.api_key}`);
    expect([res.status, await res.text()]).toEqual([200, "contents of key.txt"]);
    const wrong = await fetch(`${server.url}${url}?api_key=${"x".repeat(32)}`);
    expect([wrong.status, await wrong.json()]).toEqual([401, error("Invalid API key", "UNAUTHORIZED")]);
  });

  it("after the message is deleted, only the owner", async () => {
    const url = await uploaded(server, "hamlet", text("gone.txt"));
    const id = await sendStream(server, "hamlet", "Verona", "t", `[gone.txt](${url})`);
    expect((await download(server, "othello", url)).status).toBe(200);
    expect((await server.as("iago").delete(`/messages/${id}`)).status).toBe(200);
    expect((await download(server, "othello", url)).status).toBe(403);
    expect((await download(server, "hamlet", url)).status).toBe(200);
  });

  it("after the attachment is deleted, nobody", async () => {
    const url = await uploaded(server, "hamlet", text("deleted.txt"));
    await sendStream(server, "hamlet", "Verona", "t", `[deleted.txt](${url})`);
    const attachment = (await server.as("hamlet").get("/attachments")).body.attachments.find((a: { path_id: string }) => a.path_id === pathIdOf(url));
    expect((await server.as("othello").delete(`/attachments/${attachment.id}`)).body).toEqual(error("Invalid attachment"));
    expect((await server.as("hamlet").delete(`/attachments/${attachment.id}`)).body).toEqual(success());
    expect((await download(server, "hamlet", url)).status).toBe(404);
    expect((await download(server, "othello", url)).status).toBe(404);
    expect((await server.as("hamlet").delete(`/attachments/${attachment.id}`)).body).toEqual(error("Invalid attachment"));
  });
});

describe("editing a message", () => {
  it("claims the uploads the new content links and lets go of those it no longer does", async () => {
    const url = await uploaded(server, "othello", text("edited.txt"));
    const id = await sendStream(server, "othello", "Verona", "edits", "nothing yet");
    expect((await download(server, "cordelia", url)).status).toBe(403);
    expect((await server.as("othello").patch(`/messages/${id}`, { content: `now [edited.txt](${url})` })).status).toBe(200);
    expect((await download(server, "cordelia", url)).status).toBe(200);
    const linked = async () => ((await server.as("othello").get("/attachments")).body.attachments as { path_id: string; messages: { id: number }[] }[]).find((a) => a.path_id === pathIdOf(url))?.messages;
    expect(await linked()).toEqual([{ id, date_sent: server.clock.now() }]);
    expect((await server.as("othello").get("/messages", { anchor: id, num_before: 0, num_after: 0, narrow: [{ operator: "has", operand: "attachment" }] })).body.messages.map((m: { id: number }) => m.id)).toEqual([id]);
    expect((await server.as("othello").patch(`/messages/${id}`, { content: "gone again" })).status).toBe(200);
    expect(await linked()).toEqual([]);
    expect((await download(server, "cordelia", url)).status).toBe(403);
  });
});

describe("GET /api/v1/user_uploads/{realm_id}/{path}", () => {
  it("gives a temporary URL that works without credentials for about a minute", async () => {
    const url = await uploaded(server, "hamlet", text("temp.txt"));
    // {filename} spans several path segments, which the OpenAPI matcher cannot follow; the body is checked here.
    const res = await server.as("hamlet").get(url, {}, { validate: false });
    expect(res.status).toBe(200);
    const temporary: string = res.body.url;
    expect(temporary).toMatch(/^\/user_uploads\/temporary\/[0-9a-f]+\/temp\.txt$/);
    expect(res.body).toEqual(success({ url: temporary }));
    const got = await download(server, undefined, temporary);
    expect([got.status, got.body.toString()]).toEqual([200, "contents of temp.txt"]);
    const renamed = await fetch(server.url + temporary.replace(/temp\.txt$/, "other.txt"));
    expect([renamed.status, await renamed.json()]).toEqual([400, error("Invalid filename")]);
    const forged = await fetch(server.url + temporary.replace(/\/temporary\/[0-9a-f]{4}/, "/temporary/abcd"));
    expect([forged.status, await forged.json()]).toEqual([400, error("Invalid token")]);
    server.clock.advance(61);
    const late = await fetch(server.url + temporary);
    expect([late.status, await late.json()]).toEqual([400, error("Invalid token")]);
  });

  it("refuses those who may not read the file, in the API's envelope with Zulip's words", async () => {
    const url = await uploaded(server, "hamlet", text("private.txt"));
    const res = await server.as("othello").get(url, {}, { validate: false });
    expect([res.status, res.body]).toEqual([403, error("You are not authorized to view this file.")]);
    const missing = await server.as("hamlet").get(url.replace(/[^/]+$/, "none.txt"), {}, { validate: false });
    expect([missing.status, missing.body]).toEqual([404, error("File not found.")]);
  });
});

describe("GET /attachments", () => {
  it("lists the caller's uploads with the messages that link them", async () => {
    const url = await uploaded(server, "cordelia", text("listed.txt"));
    const id = await sendStream(server, "cordelia", "Verona", "t", `[listed.txt](${url})`);
    const res = await server.as("cordelia").get("/attachments");
    const mine = res.body.attachments.find((a: { path_id: string }) => a.path_id === pathIdOf(url));
    expect(mine).toEqual({ id: expect.any(Number), name: "listed.txt", path_id: pathIdOf(url), size: 22, create_time: server.clock.now(), messages: [{ id, date_sent: server.clock.now() }] });
    expect(res.body.upload_space_used).toBeGreaterThan(22);
    const fetched = await server.as("cordelia").get(`/messages/${id}`);
    expect(fetched.body.message.content).toContain('<a href="/user_uploads/');
  });
});
