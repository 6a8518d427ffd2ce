import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../harness/fuzz.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

let jpeg: Buffer;
beforeAll(async () => {
  jpeg = await sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().toBuffer();
});

/**
 * A request built as python-zulip-api's call_endpoint(url, method="POST", files=[fp]) builds it
 * (through requests): the other parameters first, as parts without a file name; then each file a
 * part named after the open file's path, its base name as the file name, and no Content-Type; a
 * 32-hex-digit boundary.
 */
function pythonClientUpload(data: Buffer, fields: Record<string, string>): { headers: Record<string, string>; body: Buffer } {
  const boundary = "8c7e5c9d1a7b4f2e9e0d3c6b5a4f3e2d";
  const name = "/srv/zulip/zerver/tests/images/img.jpg";
  const params = Object.entries(fields).map(([key, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`);
  const head = `${params.join("")}--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="img.jpg"\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const user = server.users.iago;
  return {
    headers: {
      "content-type": `multipart/form-data; boundary=${boundary}`,
      authorization: "Basic " + Buffer.from(`${user.delivery_email}:${user.api_key}`).toString("base64"),
      "user-agent": "ZulipPython/0.9.0",
    },
    body,
  };
}

async function post(path: string, data: Buffer): Promise<{ status: number; body: Record<string, unknown> }> {
  const { headers, body } = pythonClientUpload(data, path === "/realm/logo" ? { night: "false" } : {});
  const answer = await send(server.url, { method: "POST", path: `/api/v1${path}`, headers, body });
  return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown> };
}

describe("files from the official Python client (file parts without a Content-Type)", () => {
  it("a custom emoji from a valid JPEG is accepted, stored and served as a JPEG", async () => {
    const res = await post("/realm/emoji/my_custom_emoji", jpeg);
    expect(res).toEqual({ status: 200, body: { result: "success", msg: "" } });
    const emoji = Object.values((await server.as("hamlet").get("/realm/emoji")).body.emoji as Record<string, { name: string; source_url: string }>).find((e) => e.name === "my_custom_emoji");
    expect(emoji?.source_url).toMatch(/\.jpeg$/);
    const served = await fetch(server.url + String(emoji?.source_url));
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe("jpeg");
  });

  it("an avatar, a realm icon and a realm logo from the same JPEG are accepted", async () => {
    const avatar = await post("/users/me/avatar", jpeg);
    expect(avatar.status).toBe(200);
    expect(avatar.body).toEqual({ result: "success", msg: "", avatar_url: expect.stringMatching(/\/user_avatars\//) });
    const icon = await post("/realm/icon", jpeg);
    expect(icon.status).toBe(200);
    expect(icon.body).toEqual({ result: "success", msg: "", icon_url: expect.stringMatching(/\/user_avatars\/.*icon\.png/) });
    const logo = await post("/realm/logo", jpeg);
    expect(logo).toEqual({ status: 200, body: { result: "success", msg: "" } });
  });

  it("bytes that are no image, sent without a type, are still refused with Zulip's message", async () => {
    for (const path of ["/realm/emoji/not_an_image", "/users/me/avatar", "/realm/icon", "/realm/logo"]) {
      const res = await post(path, Buffer.from("just some text"));
      expect(res, path).toEqual({ status: 400, body: { result: "error", msg: "Invalid image format", code: "BAD_IMAGE" } });
    }
  });

  it("the bytes win over a wrong declared type: a JPEG declared as PNG is a JPEG emoji", async () => {
    const res = await server.as("iago").request("POST", "/realm/emoji/declared_png", {}, { files: [{ field: "f", filename: "x.png", type: "image/png", data: jpeg }] });
    expect(res.status).toBe(200);
    const emoji = Object.values((await server.as("hamlet").get("/realm/emoji")).body.emoji as Record<string, { name: string; source_url: string }>).find((e) => e.name === "declared_png");
    expect(emoji?.source_url).toMatch(/\.jpeg$/);
  });
});
