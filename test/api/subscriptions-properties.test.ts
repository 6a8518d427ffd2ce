import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams } from "./streams-helpers.js";

let server: TestServer;
let ids: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  ids = { ...(await createStreams(server, "hamlet", ["Verona"])), ...(await createStreams(server, "iago", ["Mantua"])) };
  Object.assign(ids, await createStreams(server, "iago", ["Council"], { invite_only: true }));
});
afterAll(() => server.stop());

const update = (who: Parameters<TestServer["as"]>[0], data: unknown, encoding: "form" | "multipart" = "form") =>
  server.as(who).post("/users/me/subscriptions/properties", { subscription_data: data as object }, { encoding });

async function verona(): Promise<Record<string, unknown>> {
  const subs = (await server.as("hamlet").get("/users/me/subscriptions")).body.subscriptions as Record<string, unknown>[];
  return subs.find((s) => s.name === "Verona") ?? {};
}

describe("POST /users/me/subscriptions/properties", () => {
  it("changes every personal property", async () => {
    const id = ids.Verona;
    const res = await update("hamlet", [
      { stream_id: id, property: "color", value: "#f00" },
      { stream_id: id, property: "pin_to_top", value: true },
      { stream_id: id, property: "desktop_notifications", value: true },
      { stream_id: id, property: "audible_notifications", value: false },
      { stream_id: id, property: "push_notifications", value: true },
      { stream_id: id, property: "email_notifications", value: false },
      { stream_id: id, property: "wildcard_mentions_notify", value: true },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    expect(await verona()).toMatchObject({
      color: "#f00",
      pin_to_top: true,
      desktop_notifications: true,
      audible_notifications: false,
      push_notifications: true,
      email_notifications: false,
      wildcard_mentions_notify: true,
    });
  });

  it("keeps is_muted and the legacy in_home_view inverse of each other", async () => {
    await update("hamlet", [{ stream_id: ids.Verona, property: "is_muted", value: true }], "multipart");
    expect(await verona()).toMatchObject({ is_muted: true, in_home_view: false });
    await update("hamlet", [{ stream_id: ids.Verona, property: "in_home_view", value: true }]);
    expect(await verona()).toMatchObject({ is_muted: false, in_home_view: true });
  });

  it("refuses unknown properties and bad values with Zulip's messages", async () => {
    expect((await update("hamlet", [{ stream_id: ids.Verona, property: "name", value: "x" }])).body).toEqual(error("Unknown subscription property: name"));
    expect((await update("hamlet", [{ stream_id: ids.Verona, property: "color", value: "red" }])).body).toEqual(error("color is not a valid hex color code"));
    expect((await update("hamlet", [{ stream_id: ids.Verona, property: "color", value: true }])).body).toEqual(error("color is not a string"));
    expect((await update("hamlet", [{ stream_id: ids.Verona, property: "pin_to_top", value: "yes" }])).body).toEqual(error("pin_to_top is not a boolean"));
  });

  it("requires access to the channel and a subscription to it", async () => {
    expect((await update("hamlet", [{ stream_id: ids.Mantua, property: "pin_to_top", value: true }])).body).toEqual(
      error(`Not subscribed to channel ID ${ids.Mantua}`),
    );
    expect((await update("hamlet", [{ stream_id: ids.Council, property: "pin_to_top", value: true }])).body).toEqual(error("Invalid channel ID"));
    expect((await update("hamlet", [{ stream_id: 99999, property: "pin_to_top", value: true }])).body).toEqual(error("Invalid channel ID"));
  });

  it("writes nothing when a later entry fails", async () => {
    const res = await update("hamlet", [
      { stream_id: ids.Verona, property: "color", value: "#0f0" },
      { stream_id: ids.Mantua, property: "color", value: "#0f0" },
    ]);
    expect(res.body).toEqual(error(`Not subscribed to channel ID ${ids.Mantua}`));
    expect((await verona()).color).toBe("#f00");
  });

  it("validates the shape of subscription_data", async () => {
    expect((await server.as("hamlet").post("/users/me/subscriptions/properties", {})).body).toEqual(
      error("Missing 'subscription_data' argument", "REQUEST_VARIABLE_MISSING", { var_name: "subscription_data" }),
    );
    expect((await update("hamlet", [{ property: "color", value: "#fff" }])).body).toEqual(error("stream_id key is missing from subscription_data[0]"));
    expect((await update("hamlet", [{ stream_id: "x", property: "color", value: "#fff" }])).body).toEqual(
      error('subscription_data[0]["stream_id"] is not an integer'),
    );
  });

  it("answers ignored_parameters_unsupported for extra parameters", async () => {
    const res = await server.as("hamlet").post("/users/me/subscriptions/properties", {
      subscription_data: [{ stream_id: ids.Verona, property: "pin_to_top", value: false }],
      extra: "1",
    });
    expect(res.body).toEqual(success({ ignored_parameters_unsupported: ["extra"] }));
  });
});
