import { createHash } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import type { FixtureName, TestServer } from "../harness/server.js";
import { startServer } from "../harness/server.js";
import { setRealmProps } from "./streams-helpers.js";
import { bombPng, download, makePng } from "./uploads-helpers.js";

let server: TestServer;
let realmId: number;
let gravatar: string;
beforeAll(async () => {
  server = await startServer();
  realmId = server.users.hamlet.realm_id;
  const realm = await server.app.ctx.realms.get(realmId);
  gravatar = `https://secure.gravatar.com/avatar/${createHash("md5").update(realm?.string_id ?? "").digest("hex")}?d=identicon`;
});
afterAll(() => server.stop());

const DEFAULT_LOGO = "/static/images/logo/zulip-org-logo.svg?version=0";
const image = (data: Buffer, type = "image/png", filename = "brand.png") => ({ field: "file", filename, type, data });
const uploadIcon = (who: FixtureName, files: ReturnType<typeof image>[]) => server.as(who).request("POST", "/realm/icon", {}, { files });
const uploadLogo = (who: FixtureName, params: Record<string, string | boolean>, files: ReturnType<typeof image>[]) =>
  server.as(who).request("POST", "/realm/logo", params, { files });

async function branding(): Promise<Record<string, unknown>> {
  const res = await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
  expect(res.status).toBe(200);
  const keys = ["realm_icon_url", "realm_icon_source", "realm_logo_url", "realm_logo_source", "realm_night_logo_url", "realm_night_logo_source", "max_icon_file_size_mib", "max_logo_file_size_mib"];
  return Object.fromEntries(keys.map((k) => [k, res.body[k]]));
}

async function pngSize(url: string): Promise<[number, string | null, number | undefined, number | undefined]> {
  const res = await download(server, undefined, url);
  const meta = res.status === 200 ? await sharp(res.body).metadata() : undefined;
  return [res.status, res.headers.get("content-type"), meta?.width, meta?.height];
}

describe("the organisation's icon and logos in /register", () => {
  it("are Gravatar's identicon of the subdomain and Zulip's default logo at first", async () => {
    expect(await branding()).toEqual({
      realm_icon_url: gravatar,
      realm_icon_source: "G",
      realm_logo_url: DEFAULT_LOGO,
      realm_logo_source: "D",
      realm_night_logo_url: DEFAULT_LOGO,
      realm_night_logo_source: "D",
      max_icon_file_size_mib: 5,
      max_logo_file_size_mib: 5,
    });
    expect((await server.anonymous().get("/server_settings")).body.realm_icon).toBe(gravatar);
  });
});

describe("POST /realm/icon and DELETE /realm/icon", () => {
  it("store a 100 px square PNG and the original, under a new version each time, and go back to Gravatar", async () => {
    const picture = await makePng(300, 200);
    const first = await uploadIcon("iago", [image(picture)]);
    const url = `/user_avatars/${realmId}/realm/icon.png?version=2`;
    expect([first.status, first.body]).toEqual([200, success({ icon_url: url })]);
    expect(await pngSize(url)).toEqual([200, "image/png", 100, 100]);
    const original = await download(server, undefined, `/user_avatars/${realmId}/realm/icon.original`);
    expect([original.status, original.headers.get("content-disposition"), original.body.equals(picture)]).toEqual([200, 'attachment; filename="icon.original"', true]);
    expect(await branding()).toMatchObject({ realm_icon_url: url, realm_icon_source: "U" });
    expect((await server.anonymous().get("/server_settings")).body.realm_icon).toBe(url);

    const second = await uploadIcon("desdemona", [image(await makePng(50, 80), "image/png")]);
    expect(second.body).toEqual(success({ icon_url: `/user_avatars/${realmId}/realm/icon.png?version=3` }));
    const removed = await server.as("iago").delete("/realm/icon");
    expect([removed.status, removed.body]).toEqual([200, success({ icon_url: gravatar })]);
    expect(await branding()).toMatchObject({ realm_icon_url: gravatar, realm_icon_source: "G" });
  });

  it("are for administrators only", async () => {
    const png = await makePng(10, 10);
    for (const who of ["shiva", "hamlet", "polonius", "bot"] as const) {
      const res = await uploadIcon(who, [image(png)]);
      expect([res.status, res.body]).toEqual([400, error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL")]);
      expect((await server.as(who).delete("/realm/icon")).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    }
    expect((await server.anonymous().request("POST", "/realm/icon", {}, { files: [image(png)] })).status).toBe(401);
  });

  it("refuse anything but exactly one image of an accepted type, within limits, changing nothing", async () => {
    const before = await branding();
    const png = await makePng(4, 4);
    const refusals: [ReturnType<typeof image>[], unknown][] = [
      [[], error("You must upload exactly one icon.")],
      [[image(png), { ...image(png), field: "f2" }], error("You must upload exactly one icon.")],
      [[image(Buffer.alloc(5 * 1024 * 1024 + 1))], error("Uploaded file is larger than the allowed limit of 5 MiB")],
      [[image(Buffer.from("plain text"), "text/plain")], error("Invalid image format", "BAD_IMAGE")],
      [[image(Buffer.from("not an image"))], error("Could not decode image; did you upload an image file?", "BAD_IMAGE")],
      [[image(bombPng(20000, 20000))], error("Image size exceeds limit.", "BAD_IMAGE")],
    ];
    for (const [files, expected] of refusals) {
      const res = await uploadIcon("iago", files);
      expect([res.status, res.body]).toEqual([400, expected]);
    }
    const form = await server.as("iago").post("/realm/icon", {});
    expect([form.status, form.body]).toEqual([400, error("You must upload exactly one icon.")]);
    expect(await branding()).toEqual(before);
  });
});

describe("POST /realm/logo and DELETE /realm/logo", () => {
  it("store each theme's logo fitted into 800×100 (never enlarged), and go back to the default", async () => {
    const wide = await uploadLogo("iago", { night: false }, [image(await makePng(1600, 400))]);
    expect([wide.status, wide.body]).toEqual([200, success({})]);
    const day = `/user_avatars/${realmId}/realm/logo.png?version=2`;
    expect(await pngSize(day)).toEqual([200, "image/png", 400, 100]);
    const night = await uploadLogo("desdemona", { night: "true" }, [image(await makePng(40, 20), "image/jpeg", "dark.jpg")]);
    expect([night.status, night.body]).toEqual([200, success({})]);
    const dark = `/user_avatars/${realmId}/realm/night_logo.png?version=2`;
    expect(await pngSize(dark)).toEqual([200, "image/png", 40, 20]);
    expect(await branding()).toMatchObject({ realm_logo_url: day, realm_logo_source: "U", realm_night_logo_url: dark, realm_night_logo_source: "U" });

    const removed = await server.as("iago").delete("/realm/logo", { night: false });
    expect([removed.status, removed.body]).toEqual([200, success({})]);
    expect(await branding()).toMatchObject({ realm_logo_url: DEFAULT_LOGO, realm_logo_source: "D", realm_night_logo_url: dark, realm_night_logo_source: "U" });
    // The night logo's parameter may come in the query string of a DELETE too.
    expect((await server.as("iago").request("DELETE", "/realm/logo", { night: true }, { encoding: "query" })).status).toBe(200);
    expect(await branding()).toMatchObject({ realm_night_logo_url: DEFAULT_LOGO, realm_night_logo_source: "D" });
  });

  it("need an administrator first, then a JSON boolean night", async () => {
    const png = await makePng(10, 10);
    expect((await uploadLogo("hamlet", { night: "nonsense" }, [image(png)])).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    expect((await server.as("hamlet").delete("/realm/logo")).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    expect((await uploadLogo("iago", {}, [image(png)])).body).toEqual(error("Missing 'night' argument", "REQUEST_VARIABLE_MISSING", { var_name: "night" }));
    expect((await server.as("iago").delete("/realm/logo")).body).toEqual(error("Missing 'night' argument", "REQUEST_VARIABLE_MISSING", { var_name: "night" }));
    expect((await uploadLogo("iago", { night: "nonsense" }, [image(png)])).body).toEqual(error("night is not valid JSON", "BAD_REQUEST"));
    expect((await uploadLogo("iago", { night: "1" }, [image(png)])).body).toEqual(error("night is not a boolean", "BAD_REQUEST"));
  });

  it("refuse anything but exactly one image of an accepted type, within limits, changing nothing", async () => {
    const before = await branding();
    const png = await makePng(4, 4);
    const refusals: [ReturnType<typeof image>[], unknown][] = [
      [[], error("You must upload exactly one logo.")],
      [[image(png), { ...image(png), field: "f2" }], error("You must upload exactly one logo.")],
      [[image(Buffer.alloc(5 * 1024 * 1024 + 1))], error("Uploaded file is larger than the allowed limit of 5 MiB")],
      [[image(Buffer.from("%PDF-1.4 not an image"), "application/pdf")], error("Invalid image format", "BAD_IMAGE")],
      [[image(Buffer.from("not an image"))], error("Could not decode image; did you upload an image file?", "BAD_IMAGE")],
      [[image(bombPng(20000, 20000))], error("Image size exceeds limit.", "BAD_IMAGE")],
    ];
    for (const [files, expected] of refusals) {
      const res = await uploadLogo("iago", { night: false }, files);
      expect([res.status, res.body]).toEqual([400, expected]);
    }
    expect(await branding()).toEqual(before);
  });

  it("is refused on Zulip Cloud's limited plan, where the default logo shows whatever was uploaded", async () => {
    expect((await uploadLogo("iago", { night: false }, [image(await makePng(30, 10))])).status).toBe(200);
    await setRealmProps(server, { plan_type: 2 });
    try {
      const res = await uploadLogo("iago", { night: false }, [image(await makePng(30, 10))]);
      expect([res.status, res.body]).toEqual([400, error("Available on Zulip Cloud Standard. Upgrade to access.")]);
      expect(await branding()).toMatchObject({ realm_logo_url: DEFAULT_LOGO, realm_logo_source: "U" });
    } finally {
      await setRealmProps(server, { plan_type: 1 });
    }
    expect((await branding()).realm_logo_url).toMatch(new RegExp(`^/user_avatars/${realmId}/realm/logo\\.png\\?version=\\d+$`));
  });
});

describe("the stored images", () => {
  it("are served without credentials; other names are 404", async () => {
    expect((await uploadIcon("iago", [image(await makePng(20, 20))])).status).toBe(200);
    expect((await download(server, undefined, `/user_avatars/${realmId}/realm/icon.png`)).status).toBe(200);
    for (const name of ["favicon.png", "icon.jpg", "..%2Ficon.png"]) {
      const res = await download(server, undefined, `/user_avatars/${realmId}/realm/${name}`);
      expect([res.status, res.body.toString()]).toEqual([404, "Not Found\n"]);
    }
    expect((await download(server, undefined, `/user_avatars/${realmId + 1000}/realm/icon.png`)).status).toBe(404);
  });
});
