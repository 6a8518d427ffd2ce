import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { makePng } from "../api/uploads-helpers.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
let realmId: number;
let png: Buffer;
beforeAll(async () => {
  server = await startServer();
  realmId = server.users.iago.realm_id;
  png = await makePng(120, 60);
});
afterAll(() => server.stop());

const DEFAULT_LOGO = "/static/images/logo/zulip-org-logo.svg?version=0";
const files = () => ({ files: [{ field: "file", filename: "brand.png", type: "image/png", data: png }] });

/** Runs one request as iago and requires success. */
const as = (method: "POST" | "DELETE", path: string, params: Record<string, Json> = {}, withFile = false) => async () => {
  const res = await server.as("iago").request(method, path, params, withFile ? files() : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const bare = (event: Json): Json => {
  const { id: _id, ...rest } = event;
  return rest;
};

describe("consistency of /register state and events: the organisation's icon and logos", () => {
  it("uploading and removing the icon send realm update_dict icon to everyone", async () => {
    const up = await checkAction(server, "polonius", as("POST", "/realm/icon", {}, true), { expectEvents: ["realm:update_dict"] });
    expect(bare(up[0])).toEqual({ type: "realm", op: "update_dict", property: "icon", data: { icon_source: "U", icon_url: `/user_avatars/${realmId}/realm/icon.png?version=2` } });
    const down = await checkAction(server, "hamlet", as("DELETE", "/realm/icon"), { expectEvents: ["realm:update_dict"] });
    const subdomain = (await server.app.ctx.realms.get(realmId))?.string_id ?? "";
    const gravatar = `https://secure.gravatar.com/avatar/${createHash("md5").update(subdomain).digest("hex")}?d=identicon`;
    expect(bare(down[0])).toEqual({ type: "realm", op: "update_dict", property: "icon", data: { icon_source: "G", icon_url: gravatar } });
  });

  it("uploading and removing either logo send realm update_dict logo or night_logo", async () => {
    const day = await checkAction(server, "hamlet", as("POST", "/realm/logo", { night: false }, true), { expectEvents: ["realm:update_dict"] });
    expect(bare(day[0])).toEqual({ type: "realm", op: "update_dict", property: "logo", data: { logo_url: `/user_avatars/${realmId}/realm/logo.png?version=2`, logo_source: "U" } });
    const night = await checkAction(server, "desdemona", as("POST", "/realm/logo", { night: true }, true), { expectEvents: ["realm:update_dict"] });
    expect(bare(night[0])).toEqual({
      type: "realm",
      op: "update_dict",
      property: "night_logo",
      data: { night_logo_url: `/user_avatars/${realmId}/realm/night_logo.png?version=2`, night_logo_source: "U" },
    });
    const dayOff = await checkAction(server, "hamlet", as("DELETE", "/realm/logo", { night: false }), { expectEvents: ["realm:update_dict"] });
    expect(bare(dayOff[0])).toEqual({ type: "realm", op: "update_dict", property: "logo", data: { logo_url: DEFAULT_LOGO, logo_source: "D" } });
    const nightOff = await checkAction(server, "polonius", as("DELETE", "/realm/logo", { night: true }), { expectEvents: ["realm:update_dict"] });
    expect(bare(nightOff[0])).toEqual({ type: "realm", op: "update_dict", property: "night_logo", data: { night_logo_url: DEFAULT_LOGO, night_logo_source: "D" } });
  });
});
