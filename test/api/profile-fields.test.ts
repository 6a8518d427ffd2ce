import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function create(params: Record<string, Json>): Promise<number> {
  const res = await server.as("iago").post("/realm/profile_fields", params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

async function fields(): Promise<Json[]> {
  const res = await server.as("hamlet").get("/realm/profile_fields");
  expect(res.status).toBe(200);
  return res.body.custom_fields;
}

async function fieldById(id: number): Promise<Json> {
  return (await fields()).find((f: Json) => f.id === id);
}

// Zulip's OpenAPI document leaves these operations out: PATCH/DELETE /realm/profile_fields/{id}, /users/me/profile_data.
const raw = { validate: false };

const OPTIONS = { "0": { text: "Vim", order: "1" }, "1": { text: "Emacs", order: "2" } };

describe("POST /realm/profile_fields", () => {
  it("creates a short text field, last in order, and lists it exactly", async () => {
    const before = await fields();
    const id = await create({ name: "  Phone number ", hint: "Your work phone", field_type: 1 });
    const after = await fields();
    expect(after.length).toBe(before.length + 1);
    expect(after[after.length - 1]).toEqual({ id, name: "Phone number", type: 1, hint: "Your work phone", field_data: "", order: id, required: false });
  });

  it("stores field_data for a list of options, and the summary and required flags", async () => {
    const id = await create({ name: "Favorite editor", field_type: 3, field_data: OPTIONS, display_in_profile_summary: true, required: true });
    expect(await fieldById(id)).toEqual({
      id,
      name: "Favorite editor",
      type: 3,
      hint: "",
      field_data: JSON.stringify(OPTIONS),
      order: id,
      display_in_profile_summary: true,
      required: true,
    });
  });

  it("ignores field_data for types that do not use it", async () => {
    const id = await create({ name: "Birthday", field_type: 4, field_data: { a: "b" } });
    expect((await fieldById(id)).field_data).toBe("");
  });

  it("gives built-in external accounts their fixed label and hint", async () => {
    const id = await create({ name: "whatever", hint: "ignored", field_type: 7, field_data: { subtype: "github" } });
    expect(await fieldById(id)).toEqual({ id, name: "GitHub username", type: 7, hint: "", field_data: '{"subtype":"github"}', order: id, required: false });
    const res = await server.as("iago").post("/realm/profile_fields", { field_type: 7, field_data: { subtype: "github" } });
    expect(res.body).toEqual(error("A field with that label already exists."));
  });

  it("accepts a custom external account with a URL pattern", async () => {
    const data = { subtype: "custom", url_pattern: "https://example.com/u/%(username)s" };
    const id = await create({ name: "Example", field_type: 7, field_data: data });
    expect((await fieldById(id)).field_data).toBe(JSON.stringify(data));
  });

  it("requires an administrator", async () => {
    for (const who of ["hamlet", "shiva", "polonius"] as const) {
      const res = await server.as(who).post("/realm/profile_fields", { name: "Nope", field_type: 1 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    }
    expect((await server.as("desdemona").post("/realm/profile_fields", { name: "Owner made", field_type: 1 })).status).toBe(200);
  });

  it.each([
    [{ name: "X" }, "Missing 'field_type' argument", "REQUEST_VARIABLE_MISSING", { var_name: "field_type" }],
    [{ name: "X", field_type: "abc" }, "field_type is not valid JSON", "BAD_REQUEST", {}],
    [{ name: "X", field_type: 1.5 }, "field_type is not an integer", "BAD_REQUEST", {}],
    [{ name: "X", field_type: 9 }, "Invalid field type.", "BAD_REQUEST", {}],
    [{ name: "   ", field_type: 1 }, "Label cannot be blank.", "BAD_REQUEST", {}],
    [{ field_type: 1 }, "Label cannot be blank.", "BAD_REQUEST", {}],
    [{ name: "x".repeat(41), field_type: 1 }, "name is too long (limit: 40 characters)", "BAD_REQUEST", {}],
    [{ name: "X", hint: "h".repeat(81), field_type: 1 }, "hint is too long (limit: 80 characters)", "BAD_REQUEST", {}],
    [{ name: "X", field_type: 1, display_in_profile_summary: "yes" }, "display_in_profile_summary is not valid JSON", "BAD_REQUEST", {}],
    [{ name: "X", field_type: 1, required: 1 }, "required is not a boolean", "BAD_REQUEST", {}],
    [{ name: "X", field_type: 2, display_in_profile_summary: true }, "Field type not supported for display in profile summary.", "BAD_REQUEST", {}],
    [{ name: "X", field_type: 6, display_in_profile_summary: true }, "Field type not supported for display in profile summary.", "BAD_REQUEST", {}],
  ])("refuses %j: %s", async (params, msg, code, extra) => {
    const res = await server.as("iago").post("/realm/profile_fields", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg, code, extra));
  });

  it.each([
    [3, [], "field_data is not a dict"],
    [3, { a: 1 }, "field_data contains a value that is not an allowed_type"],
    [3, {}, "Field must have at least one choice."],
    [3, { " ": { text: "A", order: "1" } }, "'value' cannot be blank."],
    [3, { a: "A" }, "field_data is not a dict"],
    [3, { a: { order: "1" } }, "text key is missing from field_data"],
    [3, { a: { text: " ", order: "1" } }, 'field_data["text"] cannot be blank.'],
    [3, { a: { text: "A", order: "1", x: "y" } }, "Unexpected arguments: x"],
    [3, { a: { text: "A", order: "1" }, b: { text: "A", order: "2" } }, "Field must not have duplicate choices."],
    [7, {}, "subtype key is missing from field_data"],
    [7, { subtype: "" }, 'field_data["subtype"] cannot be blank.'],
    [7, { subtype: "myspace" }, "Invalid external account type"],
    [7, { subtype: "custom" }, "Custom external account must define URL pattern"],
    [7, { subtype: "custom", url_pattern: "https://example.com/" }, "URL pattern must contain '%(username)s'."],
    [7, { subtype: "custom", url_pattern: "not a url %(username)s" }, 'field_data["url_pattern"] is not a URL'],
    [7, { subtype: "github", extra: "1" }, "Unexpected arguments: extra"],
  ])("validates field_data of type %i: %j", async (fieldType, fieldData, msg) => {
    const res = await server.as("iago").post("/realm/profile_fields", { name: "Bad data", field_type: fieldType, field_data: fieldData });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("refuses a duplicate label", async () => {
    await create({ name: "Team", field_type: 1 });
    const res = await server.as("iago").post("/realm/profile_fields", { name: "Team", field_type: 2 });
    expect(res.body).toEqual(error("A field with that label already exists."));
  });

  it("shows at most two fields in the profile summary", async () => {
    // "Favorite editor" already is one; add a second, then a third is refused.
    await create({ name: "Summary two", field_type: 1, display_in_profile_summary: true });
    const res = await server.as("iago").post("/realm/profile_fields", { name: "Summary three", field_type: 1, display_in_profile_summary: true });
    expect(res.body).toEqual(error("Only 2 custom profile fields can be displayed in the profile summary."));
  });
});

describe("PATCH /realm/profile_fields/{field_id}", () => {
  it("changes label, hint and required; untouched values stay", async () => {
    const id = await create({ name: "Office", hint: "Room", field_type: 1 });
    const res = await server.as("iago").patch(`/realm/profile_fields/${id}`, { name: " Desk ", required: true }, raw);
    expect(res.body).toEqual(success());
    expect(await fieldById(id)).toEqual({ id, name: "Desk", type: 1, hint: "Room", field_data: "", order: id, required: true });
    await server.as("iago").patch(`/realm/profile_fields/${id}`, { hint: "Floor and desk" }, raw);
    expect((await fieldById(id)).hint).toBe("Floor and desk");
  });

  it("replaces the options of a list-of-options field", async () => {
    const id = await create({ name: "Shirt size", field_type: 3, field_data: { s: { text: "S", order: "1" } } });
    const data = { s: { text: "Small", order: "1" }, m: { text: "Medium", order: "2" } };
    expect((await server.as("iago").patch(`/realm/profile_fields/${id}`, { field_data: data }, raw)).status).toBe(200);
    expect((await fieldById(id)).field_data).toBe(JSON.stringify(data));
    const bad = await server.as("iago").patch(`/realm/profile_fields/${id}`, { field_data: {} }, raw);
    expect(bad.body).toEqual(error("Field must have at least one choice."));
  });

  it("lets a built-in external account change only its summary flag", async () => {
    const id = await create({ field_type: 7, field_data: { subtype: "twitter" } });
    const renamed = await server.as("iago").patch(`/realm/profile_fields/${id}`, { name: "Tweets" }, raw);
    expect(renamed.body).toEqual(error("Default custom field cannot be updated."));
    const same = await server.as("iago").patch(`/realm/profile_fields/${id}`, { name: "Twitter username", field_data: { subtype: "twitter" }, required: true }, raw);
    expect(same.body).toEqual(success());
    expect(await fieldById(id)).toEqual({ id, name: "Twitter username", type: 7, hint: "", field_data: '{"subtype":"twitter"}', order: id, required: true });
  });

  it.each([
    [{ name: "" }, "Label cannot be blank."],
    [{ name: "Team" }, "A field with that label already exists."],
    [{ hint: "h".repeat(81) }, "hint is too long (limit: 80 characters)"],
    [{ display_in_profile_summary: true }, "Only 2 custom profile fields can be displayed in the profile summary."],
    [{ required: "no" }, "required is not valid JSON"],
  ])("refuses %j", async (params, msg) => {
    const id = await create({ name: `Refusal ${Math.random()}`, field_type: 1 });
    const res = await server.as("iago").patch(`/realm/profile_fields/${id}`, params, raw);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("keeps its own label and summary slot", async () => {
    const [summary] = (await fields()).filter((f: Json) => f.display_in_profile_summary);
    const res = await server.as("iago").patch(`/realm/profile_fields/${summary.id}`, { name: summary.name, display_in_profile_summary: true }, raw);
    expect(res.body).toEqual(success());
  });

  it("refuses unknown fields and non-administrators", async () => {
    expect((await server.as("iago").patch("/realm/profile_fields/9999", { name: "X" }, raw)).body).toEqual(error("Field id 9999 not found."));
    const id = await create({ name: "Admin only", field_type: 1 });
    const res = await server.as("hamlet").patch(`/realm/profile_fields/${id}`, { name: "Mine" }, raw);
    expect(res.body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
  });
});

describe("DELETE /realm/profile_fields/{field_id}", () => {
  it("deletes the field and the values users had for it", async () => {
    const id = await create({ name: "Short lived", field_type: 1 });
    expect((await server.as("hamlet").patch("/users/me/profile_data", { data: [{ id, value: "hi" }] }, raw)).status).toBe(200);
    expect((await server.as("hamlet").get("/users/me")).body.profile_data[String(id)]).toEqual({ value: "hi", rendered_value: "<p>hi</p>" });
    expect((await server.as("hamlet").delete(`/realm/profile_fields/${id}`, {}, raw)).body).toEqual(
      error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"),
    );
    expect((await server.as("iago").delete(`/realm/profile_fields/${id}`, {}, raw)).body).toEqual(success());
    expect(await fieldById(id)).toBeUndefined();
    expect((await server.as("hamlet").get("/users/me")).body.profile_data[String(id)]).toBeUndefined();
    expect((await server.as("iago").delete(`/realm/profile_fields/${id}`, {}, raw)).body).toEqual(error(`Field id ${id} not found.`));
  });
});

describe("PATCH /realm/profile_fields (reorder)", () => {
  it("sets each field's order to its index in the list", async () => {
    const ids = (await fields()).map((f: Json) => f.id);
    const reversed = [...ids].reverse();
    expect((await server.as("iago").patch("/realm/profile_fields", { order: reversed })).body).toEqual(success());
    const after = await fields();
    expect(after.map((f: Json) => f.id)).toEqual(reversed);
    expect(after.map((f: Json) => f.order)).toEqual(reversed.map((_, i) => i));
  });

  it("requires every field in the list", async () => {
    const ids = (await fields()).map((f: Json) => f.id);
    const res = await server.as("iago").patch("/realm/profile_fields", { order: ids.slice(1) });
    expect(res.body).toEqual(error("Invalid order mapping."));
    expect((await server.as("iago").patch("/realm/profile_fields", { order: [1, "a"] })).body).toEqual(error("order[1] is not an integer"));
    expect((await server.as("iago").patch("/realm/profile_fields", {})).body).toEqual(
      error("Missing 'order' argument", "REQUEST_VARIABLE_MISSING", { var_name: "order" }),
    );
    expect((await server.as("hamlet").patch("/realm/profile_fields", { order: ids })).body).toEqual(
      error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"),
    );
  });
});

describe("/register custom_profile_fields", () => {
  it("sends the fields and the type catalogue", async () => {
    const res = await server.as("hamlet").post("/register", { fetch_event_types: ["custom_profile_fields"], event_types: ["custom_profile_fields"] });
    expect(res.status).toBe(200);
    expect(res.body.custom_profile_fields).toEqual(await fields());
    expect(res.body.custom_profile_field_types).toEqual({
      DATE: { id: 4, name: "Date" },
      EXTERNAL_ACCOUNT: { id: 7, name: "External account" },
      URL: { id: 5, name: "Link" },
      SELECT: { id: 3, name: "List of options" },
      PRONOUNS: { id: 8, name: "Pronouns" },
      LONG_TEXT: { id: 2, name: "Text (long)" },
      SHORT_TEXT: { id: 1, name: "Text (short)" },
      USER: { id: 6, name: "Users" },
    });
    await server.as("hamlet").delete("/events", { queue_id: res.body.queue_id });
  });
});
