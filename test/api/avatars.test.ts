import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { checkAction } from "../events/check-action.js";
import { emojiNamed, uploadEmoji } from "./realm-emoji-helpers.js";
import { bombPng, download, makeGif, makePng } from "./uploads-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const image = (data: Buffer, type = "image/png", filename = "me.png") => ({ field: "file", filename, type, data });

describe("POST /users/me/avatar", () => {
  it("stores 100 px and 500 px square versions and tells everyone the new URL", async () => {
    const picture = await makePng(300, 200);
    let res: { status: number; body: { avatar_url: string } } = { status: 0, body: { avatar_url: "" } };
    const events = await checkAction(server, "othello", async () => (res = await server.as("hamlet").request("POST", "/users/me/avatar", {}, { files: [image(picture)] })), {
      expectEvents: ["realm_user"],
    });
    expect(res.status).toBe(200);
    const url = res.body.avatar_url;
    const realmId = server.users.hamlet.realm_id;
    expect(url).toMatch(new RegExp(`^/user_avatars/${realmId}/[0-9a-f]{40}\\.png\\?version=2$`));
    expect(res.body).toEqual(success({ avatar_url: url }));
    const medium = url.replace(".png?", "-medium.png?");
    expect(events[0]).toEqual({
      id: expect.any(Number),
      type: "realm_user",
      op: "update",
      person: { user_id: server.users.hamlet.id, avatar_source: "U", avatar_url: url, avatar_url_medium: medium, avatar_version: 2 },
    });
    const small = await fetch(server.url + url);
    expect([small.status, small.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(await sharp(Buffer.from(await small.arrayBuffer())).metadata()).toMatchObject({ format: "png", width: 100, height: 100 });
    const big = await download(server, undefined, medium);
    expect(await sharp(big.body).metadata()).toMatchObject({ width: 500, height: 500 });
    const listed = await server.as("othello").get(`/users/${server.users.hamlet.id}`);
    expect(listed.body.user.avatar_url).toBe(url);
    expect((await server.as("hamlet").get("/users/me")).body.avatar_url).toBe(url);
  });

  it("refuses anything but exactly one image of an accepted type, within limits", async () => {
    const me = server.as("cordelia");
    expect((await me.request("POST", "/users/me/avatar", {}, { files: [] })).body).toEqual(error("You must upload exactly one avatar."));
    const png = await makePng(4, 4);
    expect((await me.request("POST", "/users/me/avatar", {}, { files: [image(png), { ...image(png), field: "f2" }] })).body).toEqual(error("You must upload exactly one avatar."));
    expect((await me.request("POST", "/users/me/avatar", {}, { files: [image(Buffer.alloc(5 * 1024 * 1024 + 1))] })).body).toEqual(error("Uploaded file is larger than the allowed limit of 5 MiB"));
    // The type is read from the bytes; bytes that are no image keep the declared type.
    expect((await me.request("POST", "/users/me/avatar", {}, { files: [image(Buffer.from("%PDF-1.4 not an image"), "application/pdf")] })).body).toEqual(error("Invalid image format", "BAD_IMAGE"));
    expect((await me.request("POST", "/users/me/avatar", {}, { files: [image(Buffer.from("not an image"))] })).body).toEqual(error("Could not decode image; did you upload an image file?", "BAD_IMAGE"));
    expect((await me.request("POST", "/users/me/avatar", {}, { files: [image(bombPng(20000, 20000))] })).body).toEqual(error("Image size exceeds limit.", "BAD_IMAGE"));
    expect((await me.get("/users/me")).body.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
  });

  it("is refused when the organization disables avatar changes, except to administrators", async () => {
    const realm = await server.app.ctx.realms.get(server.users.hamlet.realm_id);
    if (!realm) throw new Error("no realm");
    const setDisabled = async (value: boolean) => {
      const props = { ...JSON.parse(realm.props), avatar_changes_disabled: value };
      await server.app.ctx.store.write((tx) => tx.updateTable("realm").set({ props: JSON.stringify(props) }).where("id", "=", realm.id).execute());
      server.app.ctx.realms.forget(realm.id);
    };
    await setDisabled(true);
    const png = await makePng(4, 4);
    expect((await server.as("othello").request("POST", "/users/me/avatar", {}, { files: [image(png)] })).body).toEqual(error("Avatar changes are disabled in this organization."));
    expect((await server.as("othello").delete("/users/me/avatar")).body).toEqual(error("Avatar changes are disabled in this organization."));
    expect((await server.as("iago").request("POST", "/users/me/avatar", {}, { files: [image(png)] })).status).toBe(200);
    await setDisabled(false);
  });
});

describe("DELETE /users/me/avatar", () => {
  it("goes back to Gravatar with a new version", async () => {
    const res = await server.as("hamlet").delete("/users/me/avatar");
    expect(res.status).toBe(200);
    expect(res.body.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=3$/);
    expect((await server.as("hamlet").get("/users/me")).body.avatar_version).toBe(3);
  });
});

describe("custom emoji images", () => {
  it("accepts JPEG and WebP, declared or not, resized to 64×64", async () => {
    const jpeg = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#00ff00" } }).jpeg().toBuffer();
    expect((await uploadEmoji(server, "hamlet", "tiny_jpeg", [{ field: "f", filename: "a.jpg", type: "image/jpeg", data: jpeg }])).body).toEqual(success());
    expect((await uploadEmoji(server, "hamlet", "undeclared", [{ field: "f", filename: "a", type: "application/octet-stream", data: jpeg }])).body).toEqual(success());
    const webp = await sharp({ create: { width: 90, height: 30, channels: 4, background: "#0000ff80" } }).webp().toBuffer();
    expect((await uploadEmoji(server, "hamlet", "wide_webp", [{ field: "f", filename: "a.webp", type: "image/webp", data: webp }])).body).toEqual(success());
    const served = await fetch(server.url + (await emojiNamed(server, "wide_webp")).source_url);
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ format: "webp", width: 64, height: 64 });
  });

  it("gives an animated emoji a still first frame", async () => {
    const gif = await makeGif(80, 40, 3);
    expect((await uploadEmoji(server, "hamlet", "blinking", [{ field: "f", filename: "a.gif", type: "image/gif", data: gif }])).body).toEqual(success());
    const emoji = await emojiNamed(server, "blinking");
    const all = (await server.as("hamlet").get("/realm/emoji")).body.emoji;
    const stillUrl: string = all[emoji.id].still_url;
    expect(stillUrl).toBe(emoji.source_url.replace(/\/images\/(\d+-[A-Za-z0-9]+)\.gif$/, "/images/still/$1.png"));
    const still = await fetch(server.url + stillUrl);
    expect(await sharp(Buffer.from(await still.arrayBuffer())).metadata()).toMatchObject({ format: "png", width: 64, height: 64 });
    const animated = await fetch(server.url + emoji.source_url);
    expect(await sharp(Buffer.from(await animated.arrayBuffer()), { animated: true }).metadata()).toMatchObject({ format: "gif", width: 64, pages: 3 });
  });

  it("refuses an image past the pixel limit", async () => {
    const res = await uploadEmoji(server, "hamlet", "huge_picture", [{ field: "f", filename: "b.png", type: "image/png", data: bombPng(20000, 20000) }]);
    expect(res.body).toEqual(error("Image size exceeds limit.", "BAD_IMAGE"));
  });
});
