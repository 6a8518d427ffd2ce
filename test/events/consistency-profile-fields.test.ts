import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import type { Json } from "../harness/client.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
// Zulip's OpenAPI document leaves these operations out: PATCH/DELETE /realm/profile_fields/{id}, /users/me/profile_data.
const raw = { validate: false };

async function fieldsNow(): Promise<Json[]> {
  return (await server.as("iago").get("/realm/profile_fields")).body.custom_fields;
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("consistency of /register state and events: custom profile fields", () => {
  let textId = 0;
  let selectId = 0;

  it("creating a field", async () => {
    const events = await checkAction(server, "hamlet", async () => {
      textId = (await server.as("iago").post("/realm/profile_fields", { name: "Title", field_type: 1, display_in_profile_summary: true })).body.id;
    });
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      { type: "custom_profile_fields", fields: [{ id: textId, name: "Title", type: 1, hint: "", field_data: "", order: textId, display_in_profile_summary: true, required: false }] },
    ]);
    const more = await checkAction(server, "othello", async () => {
      selectId = (
        await server.as("iago").post("/realm/profile_fields", {
          name: "Editor",
          field_type: 3,
          field_data: { vim: { text: "Vim", order: "1" }, emacs: { text: "Emacs", order: "2" } },
        })
      ).body.id;
    });
    expect(more[0].fields).toEqual(await fieldsNow());
  });

  it("setting one's own values", async () => {
    const hamlet = server.users.hamlet.id;
    const events = await checkAction(
      server,
      "cordelia",
      () => server.as("hamlet").patch("/users/me/profile_data", { data: [{ id: textId, value: "**Prince**" }, { id: selectId, value: "vim" }] }, raw),
      { expectEvents: ["realm_user:update", "realm_user:update"] },
    );
    expect(events.map((e) => e.person)).toEqual([
      { user_id: hamlet, custom_profile_field: { id: textId, value: "**Prince**", rendered_value: "<p><strong>Prince</strong></p>" } },
      { user_id: hamlet, custom_profile_field: { id: selectId, value: "vim" } },
    ]);
  });

  it("sending an unchanged value again sends nothing", async () => {
    await checkAction(server, "cordelia", () => server.as("hamlet").patch("/users/me/profile_data", { data: [{ id: selectId, value: "vim" }] }, raw), {
      expectEvents: 0,
      changesState: false,
    });
  });

  it("an administrator changing and clearing another user's values", async () => {
    const othello = server.users.othello.id;
    const set = await checkAction(server, "hamlet", () => server.as("iago").patch(`/users/${othello}`, { profile_data: [{ id: selectId, value: "emacs" }] }), {
      expectEvents: ["realm_user:update"],
    });
    expect(set[0].person).toEqual({ user_id: othello, custom_profile_field: { id: selectId, value: "emacs" } });
    const cleared = await checkAction(server, "hamlet", () => server.as("iago").patch(`/users/${othello}`, { profile_data: [{ id: selectId, value: null }] }), {
      expectEvents: ["realm_user:update"],
    });
    expect(cleared[0].person).toEqual({ user_id: othello, custom_profile_field: { id: selectId, value: null } });
  });

  it("removing one's own value", async () => {
    const events = await checkAction(server, "iago", () => server.as("hamlet").delete("/users/me/profile_data", { data: [textId] }, raw), {
      expectEvents: ["realm_user:update"],
    });
    expect(events[0].person).toEqual({ user_id: server.users.hamlet.id, custom_profile_field: { id: textId, value: null } });
  });

  it("dropping an option clears the values that chose it", async () => {
    await server.as("othello").patch("/users/me/profile_data", { data: [{ id: selectId, value: "emacs" }] }, raw);
    const events = await checkAction(
      server,
      "hamlet",
      () => server.as("iago").patch(`/realm/profile_fields/${selectId}`, { field_data: { vim: { text: "Vim", order: "1" } } }, raw),
      { expectEvents: ["realm_user", "custom_profile_fields"] },
    );
    expect(events[0].person).toEqual({ user_id: server.users.othello.id, custom_profile_field: { id: selectId, value: null } });
  });

  it("editing, reordering and deleting fields", async () => {
    await checkAction(server, "polonius", () => server.as("iago").patch(`/realm/profile_fields/${textId}`, { name: "Job title", hint: "What you do" }, raw), {
      expectEvents: ["custom_profile_fields"],
    });
    await checkAction(server, "hamlet", () => server.as("iago").patch("/realm/profile_fields", { order: [selectId, textId] }), {
      expectEvents: ["custom_profile_fields"],
    });
    await server.as("hamlet").patch("/users/me/profile_data", { data: [{ id: textId, value: "Prince" }] }, raw);
    const events = await checkAction(server, "cordelia", () => server.as("iago").delete(`/realm/profile_fields/${textId}`, {}, raw), {
      expectEvents: ["custom_profile_fields"],
    });
    expect(events[0].fields.map((f: Json) => f.id)).toEqual([selectId]);
  });
});
