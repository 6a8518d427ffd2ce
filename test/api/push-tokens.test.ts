import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const tokens = async (userId: number) =>
  (await server.app.ctx.db.selectFrom("push_device_token").select(["kind", "token", "ios_app_id"]).where("user_id", "=", userId).orderBy("id").execute());

describe("/users/me/apns_device_token", () => {
  it("registers a token once and removes it", async () => {
    const add = await server.as("hamlet").post("/users/me/apns_device_token", { token: "c0ffee", appid: "org.zulip.Zulip" });
    expect(add.body).toEqual(success());
    expect((await server.as("hamlet").post("/users/me/apns_device_token", { token: "c0ffee", appid: "org.zulip.Zulip" })).body).toEqual(success());
    expect(await tokens(server.users.hamlet.id)).toEqual([{ kind: 1, token: "c0ffee", ios_app_id: "org.zulip.Zulip" }]);
    expect((await server.as("hamlet").delete("/users/me/apns_device_token", { token: "c0ffee" })).body).toEqual(success());
    expect(await tokens(server.users.hamlet.id)).toEqual([]);
  });

  it.each([
    [{ token: "", appid: "org.zulip.Zulip" }, "Empty or invalid length token"],
    [{ token: "a".repeat(4098), appid: "org.zulip.Zulip" }, "Empty or invalid length token"],
    [{ token: "not a token!", appid: "org.zulip.Zulip" }, "Invalid APNS token"],
    [{ token: "c0ffee", appid: "org zulip" }, "Invalid app ID"],
  ])("refuses %j", async (params, msg) => {
    const res = await server.as("hamlet").post("/users/me/apns_device_token", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("requires token and appid", async () => {
    expect((await server.as("hamlet").post("/users/me/apns_device_token", { token: "c0ffee" })).body).toEqual(
      error("Missing 'appid' argument", "REQUEST_VARIABLE_MISSING", { var_name: "appid" }),
    );
    expect((await server.as("hamlet").post("/users/me/apns_device_token", { appid: "x" })).body).toEqual(
      error("Missing 'token' argument", "REQUEST_VARIABLE_MISSING", { var_name: "token" }),
    );
  });

  it("refuses to delete an unknown token, or another user's", async () => {
    await server.as("othello").post("/users/me/apns_device_token", { token: "beef", appid: "org.zulip.Zulip" });
    const res = await server.as("hamlet").delete("/users/me/apns_device_token", { token: "beef" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Token does not exist"));
    expect((await server.as("hamlet").delete("/users/me/apns_device_token", { token: "" })).body).toEqual(error("Empty or invalid length token"));
  });

  it("refuses bots", async () => {
    expect((await server.as("bot").post("/users/me/apns_device_token", { token: "c0ffee", appid: "org.zulip.Zulip" })).body).toEqual(
      error("This endpoint does not accept bot requests."),
    );
  });
});

describe("/users/me/android_gcm_reg_id", () => {
  it("registers and removes a token; any non-empty string is a token", async () => {
    expect((await server.as("cordelia").post("/users/me/android_gcm_reg_id", { token: "fcm:abc def" })).body).toEqual(success());
    expect(await tokens(server.users.cordelia.id)).toEqual([{ kind: 2, token: "fcm:abc def", ios_app_id: null }]);
    expect((await server.as("cordelia").delete("/users/me/android_gcm_reg_id", { token: "fcm:abc def" })).body).toEqual(success());
    expect((await server.as("cordelia").delete("/users/me/android_gcm_reg_id", { token: "fcm:abc def" })).body).toEqual(error("Token does not exist"));
  });

  it("refuses empty and overlong tokens, and bots", async () => {
    expect((await server.as("cordelia").post("/users/me/android_gcm_reg_id", { token: "" })).body).toEqual(error("Empty or invalid length token"));
    expect((await server.as("cordelia").post("/users/me/android_gcm_reg_id", { token: "x".repeat(4097) })).body).toEqual(error("Empty or invalid length token"));
    expect((await server.as("bot").post("/users/me/android_gcm_reg_id", { token: "abc" })).body).toEqual(error("This endpoint does not accept bot requests."));
  });
});
