import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type UploadFile } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { png, uploadEmoji } from "./realm-emoji-helpers.js";
import { setRealmProps } from "./streams-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const upload = (who: FixtureName, name: string, files?: UploadFile[]) => uploadEmoji(server, who, name, files);
const list = async () => (await server.as("othello").get("/realm/emoji")).body.emoji as Record<string, Record<string, unknown>>;
const byName = async (name: string) => Object.values(await list()).filter((e) => e.name === name);

describe("POST /realm/emoji/{emoji_name}", () => {
  it("stores the image, lists it and serves its bytes at source_url", async () => {
    const res = await upload("hamlet", "green_tick");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    const [emoji] = await byName("green_tick");
    const realmId = server.users.hamlet.realm_id;
    expect(emoji).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: "green_tick",
      source_url: expect.stringMatching(new RegExp(`^/user_avatars/${realmId}/emoji/images/${emoji?.id}-[A-Za-z0-9]+\\.png$`)),
      still_url: null,
      deactivated: false,
      author_id: server.users.hamlet.id,
    });
    const image = await fetch(server.url + String(emoji?.source_url));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    // Resized to Zulip's 64×64 emoji size, in the uploaded format.
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ format: "png", width: 64, height: 64 });
    expect((await fetch(`${server.url}/user_avatars/${realmId}/emoji/images/999-nothing.png`)).status).toBe(404);
  });

  it("turns spaces into underscores after trimming", async () => {
    expect((await upload("cordelia", " party time ")).body).toEqual(success());
    expect(await byName("party_time")).toHaveLength(1);
  });

  it.each([
    ["my_EMoji", "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."],
    ["my_em*oji", "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."],
    ["my_emoji_", "Emoji names must end with either a letter or digit."],
    ["my-emoji-", "Emoji names must end with either a letter or digit."],
    [" ", "Emoji name is missing"],
  ])("refuses the name %j", async (name, msg) => {
    const res = await upload("iago", name);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("takes the rest of the path as the name, so slashes fail validation", async () => {
    // The document's {emoji_name} template cannot match a path with slashes: checked by hand.
    const res = await server.as("iago").request("POST", "/realm/emoji/my/emoji/with/forward/slash/", {}, { files: [png()], validate: false });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."));
  });

  it("refuses guests and bots before anything else", async () => {
    expect((await upload("polonius", "Bad*Name")).body).toEqual(error("Not allowed for guest users"));
    expect((await upload("bot", "fine")).body).toEqual(error("This endpoint does not accept bot requests."));
  });

  it("follows add_custom_emoji_policy", async () => {
    try {
      await setRealmProps(server, { add_custom_emoji_policy: 2 });
      expect((await upload("hamlet", "admins_only")).body).toEqual(error("Insufficient permission"));
      expect((await upload("shiva", "admins_only")).body).toEqual(error("Insufficient permission"));
      expect((await upload("iago", "admins_only")).body).toEqual(success());
      await setRealmProps(server, { add_custom_emoji_policy: 4 });
      expect((await upload("hamlet", "mods_only")).body).toEqual(error("Insufficient permission"));
      expect((await upload("shiva", "mods_only")).body).toEqual(success());
      const state = await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
      expect(state.body.realm_add_custom_emoji_policy).toBe(4);
    } finally {
      await setRealmProps(server, { add_custom_emoji_policy: 1 });
    }
  });

  it("refuses a name in use, and anything but exactly one file", async () => {
    await upload("hamlet", "taken");
    expect((await upload("iago", "taken")).body).toEqual(error("A custom emoji with this name already exists."));
    expect((await upload("hamlet", "nofile", [])).body).toEqual(error("You must upload exactly one file."));
    expect((await upload("hamlet", "twofiles", [png("f1"), png("f2")])).body).toEqual(error("You must upload exactly one file."));
  });

  it("lets only administrators override default emoji", async () => {
    expect((await upload("hamlet", "smile")).body).toEqual(error("Only administrators can override default emoji."));
    expect((await upload("hamlet", "zulip")).body).toEqual(error("Only administrators can override default emoji."));
    expect((await upload("iago", "smile")).body).toEqual(success());
  });

  it("refuses files over 5 MiB and images of other types", async () => {
    const big: UploadFile = { field: "file", filename: "big.png", type: "image/png", data: Buffer.alloc(5 * 1024 * 1024 + 1) };
    expect((await upload("iago", "big", [big])).body).toEqual(error("Uploaded file is larger than the allowed limit of 5 MiB"));
    const tiffBytes = await sharp({ create: { width: 2, height: 2, channels: 3, background: { r: 1, g: 2, b: 3 } } }).tiff().toBuffer();
    const tiff: UploadFile = { field: "file", filename: "img.tif", type: "image/png", data: tiffBytes };
    // Zulip raises BadImageError here (zerver/actions/realm_emoji.py): code BAD_IMAGE.
    expect((await upload("iago", "tiff", [tiff])).body).toEqual(error("Invalid image format", "BAD_IMAGE"));
    expect(await byName("big")).toEqual([]);
  });
});

describe("DELETE /realm/emoji/{emoji_name}", () => {
  it("deactivates: the emoji stays listed as deactivated, and the name can be used again", async () => {
    await upload("othello", "short_lived");
    expect((await server.as("othello").delete("/realm/emoji/short_lived")).body).toEqual(success());
    expect(await byName("short_lived")).toEqual([expect.objectContaining({ deactivated: true })]);
    expect((await server.as("othello").delete("/realm/emoji/short_lived")).status).toBe(404);
    expect((await upload("othello", "short_lived")).body).toEqual(success());
    expect((await byName("short_lived")).map((e) => e.deactivated)).toEqual([true, false]);
  });

  it("allows the author and administrators only", async () => {
    await upload("othello", "othellos");
    expect((await server.as("cordelia").delete("/realm/emoji/othellos")).body).toEqual(error("Must be an organization administrator or emoji author"));
    expect((await server.as("shiva").delete("/realm/emoji/othellos")).body).toEqual(error("Must be an organization administrator or emoji author"));
    expect((await server.as("iago").delete("/realm/emoji/othellos")).body).toEqual(success());
  });

  it("answers 404 for a name with no active emoji", async () => {
    const res = await server.as("iago").delete("/realm/emoji/invalid_emoji");
    expect(res.status).toBe(404);
    expect(res.body).toEqual(error("Emoji 'invalid_emoji' does not exist"));
  });
});

describe("GET /realm/emoji", () => {
  it("is open to every user of the realm, guests included", async () => {
    const res = await server.as("polonius").get("/realm/emoji");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.emoji).length).toBeGreaterThan(0);
  });
});
