import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams, getChannels, setRealmProps } from "./streams-helpers.js";

let server: TestServer;
let ids: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  ids = {
    ...(await createStreams(server, "hamlet", ["Verona", "Padua", "Archive me"])),
    ...(await createStreams(server, "hamlet", ["Hidden"], { invite_only: true })),
    ...(await createStreams(server, "iago", ["Admins room"], { invite_only: true })),
  };
});
afterAll(() => server.stop());

const channel = async (id: number | undefined) => (await getChannels(server, "iago", `/streams/${id}`)).body.stream;
const patch = (who: Parameters<TestServer["as"]>[0], id: number | undefined, params: Record<string, unknown>, encoding: "form" | "multipart" | "query" = "form") =>
  server.as(who).patch(`/streams/${id}`, params as Record<string, string>, { encoding });

describe("PATCH /streams/{stream_id}", () => {
  it("changes the description (newlines become spaces) and the name", async () => {
    expect((await patch("iago", ids.Verona, { description: "Fair\nVerona", new_name: " Fair Verona " })).body).toEqual(success());
    expect(await channel(ids.Verona)).toMatchObject({ name: "Fair Verona", description: "Fair Verona", rendered_description: "<p>Fair Verona</p>" });
  });

  it("accepts multipart and query-string parameters", async () => {
    expect((await patch("iago", ids.Verona, { description: "multipart" }, "multipart")).status).toBe(200);
    expect((await patch("iago", ids.Verona, { description: "query" }, "query")).status).toBe(200);
    expect((await channel(ids.Verona)).description).toBe("query");
  });

  it("refuses renames to the same name or a name in use, but allows a change of case", async () => {
    expect((await patch("iago", ids.Verona, { new_name: "Fair Verona" })).body).toEqual(error("Channel already has that name."));
    expect((await patch("iago", ids.Verona, { new_name: "padua" })).body).toEqual(error("Channel name already in use."));
    expect((await patch("iago", ids.Verona, { new_name: "  " })).body).toEqual(error("Channel name can't be empty."));
    expect((await patch("iago", ids.Verona, { new_name: "fair verona" })).status).toBe(200);
    expect((await channel(ids.Verona)).name).toBe("fair verona");
  });

  it("limits the description to 1024 characters", async () => {
    expect((await patch("iago", ids.Verona, { description: "d".repeat(1025) })).body).toEqual(error("description is too long (limit: 1024 characters)"));
  });

  it("changes stream_post_policy and the legacy is_announcement_only", async () => {
    await patch("iago", ids.Padua, { stream_post_policy: 4 });
    expect(await channel(ids.Padua)).toMatchObject({ stream_post_policy: 4, is_announcement_only: false });
    await patch("iago", ids.Padua, { is_announcement_only: true });
    expect(await channel(ids.Padua)).toMatchObject({ stream_post_policy: 2, is_announcement_only: true });
    expect((await patch("iago", ids.Padua, { stream_post_policy: 5 })).body).toEqual(error("Invalid stream_post_policy"));
    expect((await patch("iago", ids.Padua, { stream_post_policy: "x" })).body).toEqual(error("stream_post_policy is not valid JSON"));
  });

  it("makes a public channel private (history protected by default) and back", async () => {
    await patch("iago", ids.Padua, { is_private: true });
    expect(await channel(ids.Padua)).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expect((await server.as("othello").get(`/streams/${ids.Padua}`)).body).toEqual(error("Invalid channel ID"));
    // Even administrators must be subscribed to change a private channel's privacy.
    expect((await patch("iago", ids.Padua, { is_private: false })).body).toEqual(error("Invalid channel ID"));
    expect((await patch("hamlet", ids.Padua, { is_private: false })).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Padua" }], principals: ["iago@zulip.com"] });
    expect((await patch("iago", ids.Padua, { is_private: false })).status).toBe(200);
    expect(await channel(ids.Padua)).toMatchObject({ invite_only: false, history_public_to_subscribers: true });
  });

  it("refuses inconsistent privacy settings", async () => {
    expect((await patch("iago", ids.Padua, { history_public_to_subscribers: false })).body).toEqual(error("Invalid parameters"));
    expect((await patch("iago", ids.Padua, { is_private: true, is_web_public: true })).body).toEqual(error("Invalid parameters"));
    expect((await patch("iago", ids.Padua, { is_default_stream: true, is_private: true })).body).toEqual(error("A default channel cannot be private."));
  });

  it("makes a channel web-public only where enabled, and only for owners", async () => {
    expect((await patch("desdemona", ids.Padua, { is_web_public: true })).body).toEqual(error("Web-public channels are not enabled."));
    await setRealmProps(server, { enable_spectator_access: true });
    expect((await patch("iago", ids.Padua, { is_web_public: true })).body).toEqual(error("Insufficient permission"));
    expect((await patch("desdemona", ids.Padua, { is_web_public: true })).status).toBe(200);
    expect((await channel(ids.Padua)).is_web_public).toBe(true);
    expect((await getChannels(server, "polonius", "/streams", { include_web_public: true })).body.streams.map((s: { name: string }) => s.name)).toEqual(["Padua"]);
    await setRealmProps(server, { enable_spectator_access: false });
  });

  it("makes a channel default or not", async () => {
    await patch("iago", ids.Verona, { is_default_stream: true });
    const defaults = async () =>
      (await getChannels(server, "hamlet", "/streams", { include_default: true })).body.streams.filter((s: { is_default: boolean }) => s.is_default).map((s: { stream_id: number }) => s.stream_id);
    expect(await defaults()).toEqual([ids.Verona]);
    await patch("iago", ids.Verona, { is_default_stream: false });
    expect(await defaults()).toEqual([]);
  });

  it("lets only owners change message_retention_days", async () => {
    expect((await patch("iago", ids.Verona, { message_retention_days: 10 })).body).toEqual(error("Must be an organization owner"));
    expect((await patch("desdemona", ids.Verona, { message_retention_days: 10 })).status).toBe(200);
    expect((await channel(ids.Verona)).message_retention_days).toBe(10);
    expect((await patch("desdemona", ids.Verona, { message_retention_days: '"realm_default"' })).status).toBe(200);
    expect((await channel(ids.Verona)).message_retention_days).toBeNull();
  });

  it("sets can_remove_subscribers_group to a system group", async () => {
    const groups = (await server.as("iago").get("/user_groups")).body.user_groups as { id: number; name: string }[];
    const moderators = groups.find((g) => g.name === "role:moderators");
    if (!moderators) throw new Error("no role:moderators group");
    expect((await patch("iago", ids.Verona, { can_remove_subscribers_group: moderators.id })).status).toBe(200);
    expect((await channel(ids.Verona)).can_remove_subscribers_group).toBe(moderators.id);
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "fair verona" }], principals: ["cordelia@zulip.com"] });
    const removed = await server.as("shiva").delete("/users/me/subscriptions", { subscriptions: ["fair verona"], principals: ["cordelia@zulip.com"] });
    expect(removed.body).toEqual(success({ removed: ["fair verona"], not_removed: [] }));
    expect((await patch("iago", ids.Verona, { can_remove_subscribers_group: 99999 })).body).toEqual(error("Invalid user group"));
  });

  it("answers Must be an organization administrator to members, and Invalid channel ID for hidden channels", async () => {
    expect((await patch("hamlet", ids.Verona, { description: "x" })).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    expect((await patch("shiva", ids.Verona, { description: "x" })).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    expect((await patch("othello", ids["Admins room"], { description: "x" })).body).toEqual(error("Invalid channel ID"));
    expect((await patch("polonius", ids["Admins room"], { description: "x" })).body).toEqual(error("Invalid channel ID"));
    expect((await patch("iago", 99999, { description: "x" })).body).toEqual(error("Invalid channel ID"));
  });

  it("lets administrators edit a private channel they are not in", async () => {
    expect((await patch("iago", ids.Hidden, { description: "Seen by admins" })).status).toBe(200);
    expect((await channel(ids.Hidden)).description).toBe("Seen by admins");
  });
});

describe("DELETE /streams/{stream_id}", () => {
  it("is for administrators", async () => {
    expect((await server.as("hamlet").delete(`/streams/${ids["Archive me"]}`)).body).toEqual(
      error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"),
    );
    expect((await server.as("iago").delete("/streams/99999")).body).toEqual(error("Invalid channel ID"));
  });

  it("archives a channel: it disappears everywhere and its name is free again", async () => {
    await server.as("iago").post("/default_streams", { stream_id: ids["Archive me"]! });
    expect((await server.as("iago").delete(`/streams/${ids["Archive me"]}`)).body).toEqual(success());
    expect((await server.as("hamlet").get(`/streams/${ids["Archive me"]}`)).body).toEqual(error("Invalid channel ID"));
    const subs = (await server.as("hamlet").get("/users/me/subscriptions")).body.subscriptions as { name: string }[];
    expect(subs.map((s) => s.name)).not.toContain("Archive me");
    const all = await getChannels(server, "iago", "/streams", { include_all_active: true, include_default: true });
    expect(all.body.streams.map((s: { name: string }) => s.name)).not.toContain("Archive me");
    expect((await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Archive me" }] })).body).toEqual(
      success({ subscribed: { "hamlet@zulip.com": ["Archive me"] }, already_subscribed: {} }),
    );
  });
});

describe("POST and DELETE /default_streams", () => {
  it("adds and removes a default channel (administrators only)", async () => {
    expect((await server.as("hamlet").post("/default_streams", { stream_id: ids.Verona! })).body).toEqual(
      error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"),
    );
    expect((await server.as("iago").post("/default_streams", { stream_id: ids.Verona! })).body).toEqual(success());
    expect((await server.as("iago").post("/default_streams", { stream_id: ids.Verona! })).body).toEqual(success());
    expect((await server.as("hamlet").delete("/default_streams", { stream_id: ids.Verona! })).body).toEqual(
      error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"),
    );
    expect((await server.as("iago").delete("/default_streams", { stream_id: ids.Verona! }, { encoding: "query" })).body).toEqual(success());
  });

  it("refuses private channels and unknown ids", async () => {
    expect((await server.as("iago").post("/default_streams", { stream_id: ids["Admins room"]! })).body).toEqual(error("Private channels cannot be made default."));
    expect((await server.as("iago").post("/default_streams", { stream_id: ids.Hidden! })).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("iago").post("/default_streams", { stream_id: 99999 })).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("iago").post("/default_streams", { stream_id: "x" })).body).toEqual(error("stream_id is not valid JSON"));
  });
});
