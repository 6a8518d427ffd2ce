import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";

let server: TestServer;
// Zulip's OpenAPI document leaves PATCH/DELETE /users/me/profile_data out.
const raw = { validate: false };
const ids = { short: 0, long: 0, select: 0, date: 0, url: 0, user: 0, external: 0, pronouns: 0 };

async function create(name: string, fieldType: number, fieldData?: Json): Promise<number> {
  const params: Record<string, Json> = { name, field_type: fieldType };
  if (fieldData) params.field_data = fieldData;
  const res = await server.as("iago").post("/realm/profile_fields", params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

beforeAll(async () => {
  server = await startServer();
  ids.short = await create("Title", 1);
  ids.long = await create("Biography", 2);
  ids.select = await create("Editor", 3, { vim: { text: "Vim", order: "1" }, emacs: { text: "Emacs", order: "2" } });
  ids.date = await create("Birthday", 4);
  ids.url = await create("Website", 5);
  ids.user = await create("Mentor", 6);
  // A built-in external account: its label is "GitHub username" whatever the name sent.
  ids.external = await create("GitHub", 7, { subtype: "github" });
  ids.pronouns = await create("Pronouns", 8);
});
afterAll(() => server.stop());

function setData(who: FixtureName, data: Json) {
  return server.as(who).patch("/users/me/profile_data", { data }, raw);
}

async function profileOf(who: FixtureName): Promise<Json> {
  return (await server.as(who).get("/users/me")).body.profile_data;
}

describe("PATCH /users/me/profile_data", () => {
  it("stores a value of every type; text types get rendered Markdown", async () => {
    const othello = server.users.othello.id;
    const res = await setData("hamlet", [
      { id: ids.short, value: "Prince of *Denmark*" },
      { id: ids.long, value: "To be, or **not** to be" },
      { id: ids.select, value: "emacs" },
      { id: ids.date, value: "1600-02-29" },
      { id: ids.url, value: "https://example.com/hamlet" },
      { id: ids.user, value: [othello] },
      { id: ids.external, value: "hamlet-dk" },
      { id: ids.pronouns, value: "he/him" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    expect(await profileOf("hamlet")).toEqual({
      [ids.short]: { value: "Prince of *Denmark*", rendered_value: "<p>Prince of <em>Denmark</em></p>" },
      [ids.long]: { value: "To be, or **not** to be", rendered_value: "<p>To be, or <strong>not</strong> to be</p>" },
      [ids.select]: { value: "emacs" },
      [ids.date]: { value: "1600-02-29" },
      [ids.url]: { value: "https://example.com/hamlet" },
      [ids.user]: { value: `[${othello}]` },
      [ids.external]: { value: "hamlet-dk" },
      [ids.pronouns]: { value: "he/him" },
    });
  });

  it("shows the values to other users with include_custom_profile_fields", async () => {
    const res = await server.as("cordelia").get(`/users/${server.users.hamlet.id}`, { include_custom_profile_fields: true });
    expect(res.body.user.profile_data[String(ids.pronouns)]).toEqual({ value: "he/him" });
    const all = await server.as("polonius").get("/users", { include_custom_profile_fields: true });
    const hamlet = all.body.members.find((u: Json) => u.user_id === server.users.hamlet.id);
    expect(hamlet.profile_data[String(ids.select)]).toEqual({ value: "emacs" });
  });

  it("lets guests and admins set their own values", async () => {
    expect((await setData("polonius", [{ id: ids.pronouns, value: "he/him" }])).body).toEqual(success());
    expect((await setData("iago", [{ id: ids.short, value: "Ensign" }])).body).toEqual(success());
    expect(await profileOf("polonius")).toEqual({ [ids.pronouns]: { value: "he/him" } });
  });

  it.each([
    ["short", "x".repeat(51), "Title is too long (limit: 50 characters)"],
    ["short", ["a"], "data[1][\"value\"] is not an allowed_type"],
    ["short", [1], "Title is not a string"],
    ["long", "x".repeat(501), "Biography is too long (limit: 500 characters)"],
    ["select", "nano", "'nano' is not a valid choice for 'Editor'."],
    ["date", "1601-02-29", "Birthday is not a date"],
    ["date", "2024-1-05", "Birthday is not a date"],
    ["date", "yesterday", "Birthday is not a date"],
    ["url", "example.com", "Website is not a URL"],
    ["url", "javascript:alert(1)", "Website is not a URL"],
    ["user", "5", "User IDs is not a list"],
    ["user", [99999], "Invalid user ID: 99999"],
    ["external", "y".repeat(51), "GitHub username is too long (limit: 50 characters)"],
    ["pronouns", "z".repeat(51), "Pronouns is too long (limit: 50 characters)"],
  ])("refuses a bad %s value %j", async (key, value, msg) => {
    const before = await profileOf("cordelia");
    const res = await setData("cordelia", [{ id: ids.pronouns, value: "she/her" }, { id: ids[key as keyof typeof ids], value }]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
    // Nothing of the request was written.
    expect(await profileOf("cordelia")).toEqual(before);
  });

  it("refuses deactivated users and bots in a user list", async () => {
    const bot = server.users.bot.id;
    expect((await setData("cordelia", [{ id: ids.user, value: [bot] }])).body).toEqual(error(`User with ID ${bot} is a bot`));
    const othello = server.users.othello.id;
    expect((await server.as("iago").delete(`/users/${othello}`)).status).toBe(200);
    expect((await setData("cordelia", [{ id: ids.user, value: [othello] }])).body).toEqual(error(`User with ID ${othello} is deactivated`));
    expect((await server.as("iago").post(`/users/${othello}/reactivate`)).status).toBe(200);
  });

  it.each([
    ["{}", "data is not a list"],
    ["[1]", "data[0] is not a dict"],
    ['[{"value": "x"}]', "id key is missing from data[0]"],
    ['[{"id": 1}]', "value key is missing from data[0]"],
    ['[{"id": "1", "value": "x"}]', 'data[0]["id"] is not an integer'],
    ['[{"id": 1, "value": null}]', 'data[0]["value"] is not an allowed_type'],
    ["[{", "data is not valid JSON"],
  ])("checks the data parameter: %s", async (data, msg) => {
    const res = await server.as("cordelia").patch("/users/me/profile_data", { data }, raw);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("refuses unknown fields, missing data and bots", async () => {
    expect((await setData("cordelia", [{ id: 9999, value: "x" }])).body).toEqual(error("Field id 9999 not found."));
    expect((await server.as("cordelia").patch("/users/me/profile_data", {}, raw)).body).toEqual(
      error("Missing 'data' argument", "REQUEST_VARIABLE_MISSING", { var_name: "data" }),
    );
    expect((await setData("bot", [{ id: ids.short, value: "x" }])).body).toEqual(error("This endpoint does not accept bot requests."));
  });
});

describe("DELETE /users/me/profile_data", () => {
  it("removes values; fields without a value are skipped", async () => {
    await setData("cordelia", [{ id: ids.short, value: "Princess" }, { id: ids.date, value: "1605-01-01" }]);
    const res = await server.as("cordelia").delete("/users/me/profile_data", { data: [ids.short, ids.url] }, raw);
    expect(res.body).toEqual(success());
    expect(await profileOf("cordelia")).toEqual({ [ids.date]: { value: "1605-01-01" } });
  });

  it("refuses unknown fields before removing anything", async () => {
    const res = await server.as("cordelia").delete("/users/me/profile_data", { data: [ids.date, 9999] }, raw);
    expect(res.body).toEqual(error("Field id 9999 not found."));
    expect((await profileOf("cordelia"))[String(ids.date)]).toEqual({ value: "1605-01-01" });
    expect((await server.as("cordelia").delete("/users/me/profile_data", { data: ["a"] }, raw)).body).toEqual(error("data[0] is not an integer"));
    expect((await server.as("bot").delete("/users/me/profile_data", { data: [ids.date] }, raw)).body).toEqual(
      error("This endpoint does not accept bot requests."),
    );
  });
});

describe("PATCH /users/{user_id} profile_data", () => {
  it("lets an administrator set and clear another user's values", async () => {
    const target = server.users.othello.id;
    const res = await server.as("iago").patch(`/users/${target}`, {
      profile_data: [
        { id: ids.short, value: "General" },
        { id: ids.user, value: [server.users.iago.id] },
      ],
    });
    expect(res.body).toEqual(success());
    expect(await profileOf("othello")).toEqual({
      [ids.short]: { value: "General", rendered_value: "<p>General</p>" },
      [ids.user]: { value: `[${server.users.iago.id}]` },
    });
    const cleared = await server.as("desdemona").patch(`/users/${target}`, {
      profile_data: [
        { id: ids.short, value: null },
        { id: ids.user, value: [] },
        { id: ids.date, value: "" },
      ],
    });
    expect(cleared.body).toEqual(success());
    expect(await profileOf("othello")).toEqual({});
  });

  it("validates like the user's own endpoint", async () => {
    const target = server.users.othello.id;
    expect((await server.as("iago").patch(`/users/${target}`, { profile_data: [{ id: ids.date, value: "soon" }] })).body).toEqual(
      error("Birthday is not a date"),
    );
    expect((await server.as("iago").patch(`/users/${target}`, { profile_data: [{ id: 9999, value: null }] })).body).toEqual(
      error("Field id 9999 not found."),
    );
    expect((await server.as("iago").patch(`/users/${target}`, { profile_data: [{ id: ids.date }] })).body).toEqual(
      error("value key is missing from profile_data[0]"),
    );
    expect((await server.as("iago").patch(`/users/${target}`, { profile_data: "x" })).body).toEqual(error("profile_data is not valid JSON"));
  });

  it("refuses members and moderators editing others", async () => {
    for (const who of ["hamlet", "shiva"] as const) {
      const res = await server.as(who).patch(`/users/${server.users.othello.id}`, { profile_data: [{ id: ids.short, value: "Moor" }] });
      expect(res.body).toEqual(error("Insufficient permission"));
    }
    expect(await profileOf("othello")).toEqual({});
  });
});
