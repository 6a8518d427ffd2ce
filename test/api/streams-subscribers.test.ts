import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createStreams, setRealmProps } from "./streams-helpers.js";

let server: TestServer;
let ids: Record<string, number>;
let gone: number;
beforeAll(async () => {
  server = await startServer();
  await setRealmProps(server, { enable_spectator_access: true });
  ids = {
    ...(await createStreams(server, "iago", ["Rome", "dev. help", "ąężć", "Тестовы", "Denmark!", "Old forum"])),
    ...(await createStreams(server, "hamlet", ["Hamlet only"], { invite_only: true })),
    ...(await createStreams(server, "desdemona", ["Web square"], { is_web_public: true })),
  };
  const created = await server.as("iago").post("/users", { email: "gone@zulip.com", password: "pw-123456", full_name: "Gone Soon" });
  gone = created.body.user_id;
  await server.as("iago").post("/users/me/subscriptions", {
    subscriptions: [{ name: "Rome" }],
    principals: [server.users.hamlet.id, server.users.bot.id, gone],
  });
  await server.as("iago").delete(`/users/${gone}`);
  await server.as("iago").delete(`/streams/${ids["Old forum"]}`);
});
afterAll(() => server.stop());

const token = async (id: number | undefined) =>
  (await server.app.ctx.db.selectFrom("stream").select("email_token").where("id", "=", id ?? -1).executeTakeFirstOrThrow()).email_token;

describe("GET /streams/{stream_id}/members", () => {
  const members = (who: FixtureName, id: number | undefined) => server.as(who).get(`/streams/${id}/members`);

  it("lists the active subscribers of a public channel, bots included, deactivated users left out", async () => {
    const u = server.users;
    const expected = success({ subscribers: [u.iago.id, u.hamlet.id, u.bot.id] });
    expect((await members("othello", ids.Rome)).body).toEqual(expected);
    expect((await members("hamlet", ids.Rome)).body).toEqual(expected);
  });

  it("shows a private channel's subscribers to its subscribers and to administrators only", async () => {
    const res = await members("hamlet", ids["Hamlet only"]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ subscribers: [server.users.hamlet.id] }));
    expect((await members("iago", ids["Hamlet only"])).body).toEqual(success({ subscribers: [server.users.hamlet.id] }));
    expect((await members("desdemona", ids["Hamlet only"])).body).toEqual(success({ subscribers: [server.users.hamlet.id] }));
    for (const who of ["othello", "shiva"] as const) {
      const denied = await members(who, ids["Hamlet only"]);
      expect(denied.status).toBe(400);
      expect(denied.body).toEqual(error("Invalid channel ID"));
    }
  });

  it("lets a guest see web-public and subscribed channels only", async () => {
    expect((await members("polonius", ids.Rome)).body).toEqual(error("Invalid channel ID"));
    expect((await members("polonius", ids["Web square"])).body).toEqual(success({ subscribers: [server.users.desdemona.id] }));
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Hamlet only" }], principals: [server.users.polonius.id] });
    expect((await members("polonius", ids["Hamlet only"])).body).toEqual(success({ subscribers: [server.users.hamlet.id, server.users.polonius.id] }));
  });

  it("answers Invalid channel ID for a missing or archived channel", async () => {
    expect((await members("iago", 99999)).body).toEqual(error("Invalid channel ID"));
    expect((await members("iago", ids["Old forum"])).body).toEqual(error("Invalid channel ID"));
  });

  it("reports parameters it does not read", async () => {
    expect((await server.as("hamlet").get(`/streams/${ids.Rome}/members`, { stream_id: 1 })).body.ignored_parameters_unsupported).toEqual(["stream_id"]);
  });
});

describe("GET /streams/{stream_id}/email_address", () => {
  const address = (who: FixtureName, id: number | undefined) => server.as(who).get(`/streams/${id}/email_address`);

  it("gives the channel's name, its token and show-sender at the gateway domain", async () => {
    const rome = await token(ids.Rome);
    expect(rome).toMatch(/^[0-9a-f]{32}$/);
    const res = await address("othello", ids.Rome);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ email: `rome.${rome}.show-sender@127.0.0.1` }));
    expect((await address("hamlet", ids.Rome)).body).toEqual(res.body);
  });

  it("each channel has its own token", async () => {
    const tokens = await Promise.all(Object.values(ids).map(token));
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it("hyphenates non-word runs, folds letters to ASCII, and drops a name that does not survive", async () => {
    expect((await address("othello", ids["dev. help"])).body.email).toBe(`dev-help.${await token(ids["dev. help"])}.show-sender@127.0.0.1`);
    expect((await address("othello", ids["ąężć"])).body.email).toBe(`aezc.${await token(ids["ąężć"])}.show-sender@127.0.0.1`);
    expect((await address("othello", ids["Тестовы"])).body.email).toBe(`${await token(ids["Тестовы"])}.show-sender@127.0.0.1`);
    expect((await address("othello", ids["Denmark!"])).body.email).toBe(`${await token(ids["Denmark!"])}.show-sender@127.0.0.1`);
  });

  it("follows a rename and keeps the token", async () => {
    const id = ids["dev. help"];
    await server.as("iago").patch(`/streams/${id}`, { new_name: "Dev Support" });
    expect((await address("othello", id)).body.email).toBe(`dev-support.${await token(id)}.show-sender@127.0.0.1`);
  });

  it("needs content access: no administrator exception for private channels", async () => {
    expect((await address("hamlet", ids["Hamlet only"])).body.email).toBe(`hamlet-only.${await token(ids["Hamlet only"])}.show-sender@127.0.0.1`);
    for (const who of ["othello", "iago", "desdemona"] as const) {
      const denied = await address(who, ids["Hamlet only"]);
      expect(denied.status).toBe(400);
      expect(denied.body).toEqual(error("Invalid channel ID"));
    }
  });

  it("a guest gets addresses of web-public and subscribed channels only", async () => {
    expect((await address("polonius", ids.Rome)).body).toEqual(error("Invalid channel ID"));
    expect((await address("polonius", ids["Web square"])).body.email).toBe(`web-square.${await token(ids["Web square"])}.show-sender@127.0.0.1`);
  });

  it("answers Invalid channel ID for a missing or archived channel, and ignores sender_id (feature level 335)", async () => {
    expect((await address("iago", 99999)).body).toEqual(error("Invalid channel ID"));
    expect((await address("iago", ids["Old forum"])).body).toEqual(error("Invalid channel ID"));
    const res = await server.as("hamlet").get(`/streams/${ids.Rome}/email_address`, { sender_id: server.users.hamlet.id });
    expect(res.body).toEqual(success({ email: `rome.${await token(ids.Rome)}.show-sender@127.0.0.1`, ignored_parameters_unsupported: ["sender_id"] }));
  });
});

describe("GET /users/{user_id}/subscriptions/{stream_id}", () => {
  const status = (who: FixtureName, userId: number, streamId: number | undefined) => server.as(who).get(`/users/${userId}/subscriptions/${streamId}`);

  it("tells whether a user is subscribed", async () => {
    const u = server.users;
    const res = await status("othello", u.hamlet.id, ids.Rome);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ is_subscribed: true }));
    expect((await status("othello", u.cordelia.id, ids.Rome)).body).toEqual(success({ is_subscribed: false }));
    expect((await status("othello", u.othello.id, ids.Rome)).body).toEqual(success({ is_subscribed: false }));
  });

  it("is false again after the user leaves", async () => {
    await server.as("cordelia").post("/users/me/subscriptions", { subscriptions: [{ name: "Rome" }] });
    expect((await status("hamlet", server.users.cordelia.id, ids.Rome)).body).toEqual(success({ is_subscribed: true }));
    await server.as("cordelia").delete("/users/me/subscriptions", { subscriptions: ["Rome"] });
    expect((await status("hamlet", server.users.cordelia.id, ids.Rome)).body).toEqual(success({ is_subscribed: false }));
  });

  it("private channels: subscribers and administrators may ask, others get Invalid channel ID", async () => {
    const hamlet = server.users.hamlet.id;
    expect((await status("hamlet", server.users.othello.id, ids["Hamlet only"])).body).toEqual(success({ is_subscribed: false }));
    expect((await status("iago", hamlet, ids["Hamlet only"])).body).toEqual(success({ is_subscribed: true }));
    expect((await status("othello", hamlet, ids["Hamlet only"])).body).toEqual(error("Invalid channel ID"));
    expect((await status("shiva", hamlet, ids["Hamlet only"])).body).toEqual(error("Invalid channel ID"));
  });

  it("a guest may ask about web-public and subscribed channels only", async () => {
    const hamlet = server.users.hamlet.id;
    expect((await status("polonius", hamlet, ids.Rome)).body).toEqual(error("Invalid channel ID"));
    expect((await status("polonius", server.users.desdemona.id, ids["Web square"])).body).toEqual(success({ is_subscribed: true }));
  });

  it("refuses bots, deactivated and unknown users before looking at the channel", async () => {
    expect((await status("hamlet", server.users.bot.id, ids.Rome)).body).toEqual(error("No such user"));
    expect((await status("hamlet", gone, ids.Rome)).body).toEqual(error("User is deactivated"));
    const res = await status("hamlet", 99999, 99999);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("No such user"));
  });

  it("answers Invalid channel ID for a missing or archived channel", async () => {
    expect((await status("iago", server.users.hamlet.id, 99999)).body).toEqual(error("Invalid channel ID"));
    expect((await status("iago", server.users.iago.id, ids["Old forum"])).body).toEqual(error("Invalid channel ID"));
  });
});
