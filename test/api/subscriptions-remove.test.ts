import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams } from "./streams-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createStreams(server, "hamlet", ["Elsinore", "Wittenberg"]);
  await createStreams(server, "hamlet", ["Closet"], { invite_only: true });
  await server.as("hamlet").post("/users/me/subscriptions", {
    subscriptions: [{ name: "Elsinore" }, { name: "Closet" }],
    principals: ["othello@zulip.com", "cordelia@zulip.com", "default-bot@zulip.com"],
  });
});
afterAll(() => server.stop());

const unsubscribe = (who: Parameters<TestServer["as"]>[0], params: Record<string, unknown>, encoding: "form" | "multipart" | "query" = "form") =>
  server.as(who).delete("/users/me/subscriptions", params as Record<string, string>, { encoding });

const subscribedNames = async (who: Parameters<TestServer["as"]>[0]) =>
  ((await server.as(who).get("/users/me/subscriptions")).body.subscriptions as { name: string }[]).map((s) => s.name);

describe("DELETE /users/me/subscriptions", () => {
  it("unsubscribes the caller and reports channels they were not in", async () => {
    const res = await unsubscribe("othello", { subscriptions: ["Elsinore", " Wittenberg "] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ removed: ["Elsinore"], not_removed: ["Wittenberg"] }));
    expect(await subscribedNames("othello")).toEqual(["Closet"]);
  });

  it("accepts the parameters in the query string and as multipart", async () => {
    await server.as("othello").post("/users/me/subscriptions", { subscriptions: [{ name: "Wittenberg" }] });
    expect((await unsubscribe("othello", { subscriptions: ["Wittenberg"] }, "query")).body).toEqual(success({ removed: ["Wittenberg"], not_removed: [] }));
    await server.as("othello").post("/users/me/subscriptions", { subscriptions: [{ name: "Wittenberg" }] });
    expect((await unsubscribe("othello", { subscriptions: ["Wittenberg"] }, "multipart")).body).toEqual(success({ removed: ["Wittenberg"], not_removed: [] }));
  });

  it("names every missing channel", async () => {
    expect((await unsubscribe("othello", { subscriptions: ["Nowhere", "Elsinore", "Limbo"] })).body).toEqual(error("Channel(s) (Nowhere, Limbo) do not exist"));
  });

  it("validates names as Zulip's list_to_streams does, before looking channels up", async () => {
    expect((await unsubscribe("othello", { subscriptions: ["Nowhere", " "] })).body).toEqual(error("Channel name can't be empty."));
    expect((await unsubscribe("othello", { subscriptions: ["y".repeat(61)] })).body).toEqual(error("Channel name too long (limit: 60 characters)."));
  });

  it("checks the permission to remove others before naming missing channels", async () => {
    expect((await unsubscribe("hamlet", { subscriptions: ["Elsinore", "Nowhere"], principals: [server.users.cordelia.id] })).body).toEqual(
      error("Insufficient permission"),
    );
  });

  it("lets a user unsubscribe their own bot, but not other members", async () => {
    expect((await unsubscribe("hamlet", { subscriptions: ["Elsinore"], principals: ["default-bot@zulip.com"] })).body).toEqual(
      success({ removed: ["Elsinore"], not_removed: [] }),
    );
    expect((await unsubscribe("hamlet", { subscriptions: ["Elsinore"], principals: [server.users.cordelia.id] })).body).toEqual(
      error("Insufficient permission"),
    );
    expect(await subscribedNames("cordelia")).toEqual(["Closet", "Elsinore"]);
  });

  it("lets administrators unsubscribe others, even from private channels they are not in", async () => {
    const res = await unsubscribe("iago", { subscriptions: ["Closet"], principals: [server.users.cordelia.id, server.users.shiva.id] });
    expect(res.body).toEqual(success({ removed: ["Closet"], not_removed: ["Closet"] }));
    expect(await subscribedNames("cordelia")).toEqual(["Elsinore"]);
  });

  it("moderators are not in the default can_remove_subscribers_group", async () => {
    expect((await unsubscribe("shiva", { subscriptions: ["Elsinore"], principals: [server.users.cordelia.id] })).body).toEqual(
      error("Insufficient permission"),
    );
  });

  it("rejects bad principals and bad lists", async () => {
    expect((await unsubscribe("iago", { subscriptions: ["Elsinore"], principals: ["ghost@zulip.com"] })).body).toEqual(error("No such user"));
    expect((await unsubscribe("iago", { subscriptions: "Elsinore" })).body).toEqual(error("subscriptions is not valid JSON"));
    expect((await unsubscribe("iago", { subscriptions: [1] })).body).toEqual(error("subscriptions[0] is not a string"));
    expect((await unsubscribe("iago", {})).body).toEqual(error("Missing 'subscriptions' argument", "REQUEST_VARIABLE_MISSING", { var_name: "subscriptions" }));
  });

  it("keeps personal settings when the user subscribes again", async () => {
    const id = (await server.as("desdemona").get("/get_stream_id", { stream: "Wittenberg" })).body.stream_id;
    await server.as("othello").post("/users/me/subscriptions", { subscriptions: [{ name: "Wittenberg" }] });
    await server.as("othello").post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "color", value: "#abcdef" }] });
    await unsubscribe("othello", { subscriptions: ["Wittenberg"] });
    await server.as("othello").post("/users/me/subscriptions", { subscriptions: [{ name: "Wittenberg" }] });
    const subs = (await server.as("othello").get("/users/me/subscriptions")).body.subscriptions as { name: string; color: string }[];
    expect(subs.find((s) => s.name === "Wittenberg")?.color).toBe("#abcdef");
  });
});

describe("GET /users/me/subscriptions", () => {
  it("lists active subscriptions sorted by name, with subscribers only when asked", async () => {
    const plain = await server.as("hamlet").get("/users/me/subscriptions");
    expect(plain.body.subscriptions.map((s: { name: string }) => s.name)).toEqual(["Closet", "Elsinore", "Wittenberg"]);
    expect(plain.body.subscriptions.every((s: object) => !("subscribers" in s))).toBe(true);
    const full = await server.as("hamlet").get("/users/me/subscriptions", { include_subscribers: true });
    const u = server.users;
    expect(full.body.subscriptions.map((s: { subscribers: number[] }) => s.subscribers)).toEqual([
      [u.hamlet.id, u.othello.id, u.bot.id],
      [u.hamlet.id, u.cordelia.id],
      [u.hamlet.id, u.othello.id],
    ]);
  });

  it("drops deactivated users from subscriber lists and restores them on reactivation", async () => {
    const cordelia = server.users.cordelia.id;
    const elsinore = async () =>
      ((await server.as("hamlet").get("/users/me/subscriptions", { include_subscribers: true })).body.subscriptions as { name: string; subscribers: number[] }[]).find(
        (s) => s.name === "Elsinore",
      )?.subscribers;
    expect(await elsinore()).toContain(cordelia);
    expect((await server.as("iago").delete(`/users/${cordelia}`)).status).toBe(200);
    expect(await elsinore()).not.toContain(cordelia);
    expect((await server.as("iago").post(`/users/${cordelia}/reactivate`)).status).toBe(200);
    expect(await elsinore()).toContain(cordelia);
  });

  it("rejects a non-boolean include_subscribers", async () => {
    expect((await server.as("hamlet").get("/users/me/subscriptions", { include_subscribers: "maybe" })).body).toEqual(
      error("include_subscribers is not valid JSON"),
    );
  });

  it("gives a new user the realm's default channels", async () => {
    const id = (await server.as("desdemona").get("/get_stream_id", { stream: "Wittenberg" })).body.stream_id;
    await server.as("iago").post("/default_streams", { stream_id: id });
    const created = await server.as("iago").post("/users", { email: "newbie@zulip.com", password: "pw-123456", full_name: "New Bie" });
    expect(created.status).toBe(200);
    const user = await server.app.ctx.db.selectFrom("user").selectAll().where("id", "=", created.body.user_id).executeTakeFirstOrThrow();
    expect(await subscribedNames(user)).toEqual(["Wittenberg"]);
  });
});
