import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const TEMPLATE = "https://realm.com/my_realm_filter/{id}";
const add = (pattern: string, url_template: string, who: FixtureName = "iago") => server.as(who).post("/realm/filters", { pattern, url_template });
const list = async () => (await server.as("othello").get("/realm/linkifiers")).body.linkifiers as { pattern: string; url_template: string; id: number }[];

/** Zulip's ValidationFailureError: the first message, and every message by field. */
const invalid = (msg: string, errors: Record<string, string[]>) => error(msg, "BAD_REQUEST", { errors });

async function clear(): Promise<void> {
  for (const linkifier of await list()) await server.as("iago").delete(`/realm/filters/${linkifier.id}`);
}

beforeEach(clear);

describe("GET /realm/linkifiers", () => {
  it("lists nothing, then the linkifiers with pattern, url_template and id, to any user", async () => {
    expect((await server.as("polonius").get("/realm/linkifiers")).body).toEqual(success({ linkifiers: [] }));
    const { id } = (await add("#(?P<id>[123])", TEMPLATE)).body;
    const res = await server.as("polonius").get("/realm/linkifiers");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ linkifiers: [{ pattern: "#(?P<id>[123])", url_template: TEMPLATE, id }] }));
  });
});

describe("POST /realm/filters", () => {
  it("adds a linkifier, stripping both fields, and returns its id", async () => {
    const res = await add("  #(?P<id>[0-9]+)\n", `\t${TEMPLATE} `);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ id: expect.any(Number) }));
    expect(await list()).toEqual([{ pattern: "#(?P<id>[0-9]+)", url_template: TEMPLATE, id: res.body.id }]);
  });

  it.each([
    ["ZUL-(?P<id>\\d+)", "https://realm.com/my_realm_filter/#hashtag/{id}"],
    ["ZUL2-(?P<id>\\d+)", "https://realm.com/my_realm_filter/?value={id}"],
    ["_code=(?P<id>[0-9a-zA-Z]+)", "https://example.com/product/{id}/details"],
    ["PR (?P<id>[0-9]+)", "https://example.com/~user/web#view_type=type&model=model&action=12345&id={id}"],
    ["!(?P<id>[0-9]+)", "https://realm.com/index.pl?Action=AgentTicketZoom;TicketNumber={id}"],
    ["ZUL-URL-(?P<id>\\d+)", "https://example.com/%ba/{id}"],
    ["(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)", "https://github.com/{org}/{repo}/issue/{id}"],
    [
      "FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})",
      "https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}",
    ],
    ["(?i)jira-(?<id>\\d+)", "https://jira.example.com/browse/JIRA-{id}"],
    ["community guidelines", "https://zulip.com/development-community/#community-norms"],
  ])("accepts %j → %j", async (pattern, template) => {
    expect((await add(pattern, template)).body).toEqual(success({ id: expect.any(Number) }));
  });

  it.each([
    ["", TEMPLATE, invalid("This field cannot be blank.", { pattern: ["This field cannot be blank."], __all__: ["Group 'id' in URL template is not present in linkifier pattern."] })],
    ["  ", "https://example.com", invalid("This field cannot be blank.", { pattern: ["This field cannot be blank."] })],
    ["#(?P<id>\\d+)", " ", invalid("This field cannot be blank.", { url_template: ["This field cannot be blank."], __all__: ["Group 'id' in linkifier pattern is not present in URL template."] })],
    ["(foo", TEMPLATE, invalid("Bad regular expression: missing ): (foo", { __all__: ["Bad regular expression: missing ): (foo"] })],
    ["ZUL-(?P<id>\\d????)", TEMPLATE, invalid("Bad regular expression: bad repetition operator: ????", { __all__: ["Bad regular expression: bad repetition operator: ????"] })],
    ["a)b", TEMPLATE, invalid("Bad regular expression: unexpected ): a)b", { __all__: ["Bad regular expression: unexpected ): a)b"] })],
    ["#(?=\\d)", "https://example.com", invalid("Bad regular expression: invalid perl operator: (?=", { __all__: ["Bad regular expression: invalid perl operator: (?="] })],
    ["(\\d)\\1", "https://example.com", invalid("Bad regular expression: invalid escape sequence: \\1", { __all__: ["Bad regular expression: invalid escape sequence: \\1"] })],
    ["[z-a]", "https://example.com", invalid("Bad regular expression: invalid character class range: z-a", { __all__: ["Bad regular expression: invalid character class range: z-a"] })],
    ["ZUL-(?P<id>\\d+)", "$fgfg", invalid("Group 'id' in linkifier pattern is not present in URL template.", { __all__: ["Group 'id' in linkifier pattern is not present in URL template."] })],
    ["ZUL-(?P<id>\\d+)", "https://realm.com/my_realm_filter/{hello}", invalid("Group 'hello' in URL template is not present in linkifier pattern.", { __all__: ["Group 'hello' in URL template is not present in linkifier pattern."] })],
    ["ZUL-(?P<id>\\d+)-(?P<hello>\\d+)-(?P<world>\\d+)", "https://realm.com/{hello}", invalid("Group 'id' in linkifier pattern is not present in URL template.", { __all__: ["Group 'id' in linkifier pattern is not present in URL template."] })],
    ["#(?P<id>[123])", "{id", invalid("Invalid URL template.", { url_template: ["Invalid URL template."] })],
    ["(foo", "https://example.com/{{}", invalid("Invalid URL template.", { url_template: ["Invalid URL template."], __all__: ["Bad regular expression: missing ): (foo"] })],
    ["", "{bar++}", invalid("This field cannot be blank.", { pattern: ["This field cannot be blank."], url_template: ["Invalid URL template."] })],
  ])("refuses %j with %j", async (pattern, template, body) => {
    const res = await add(pattern, template);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
    expect(await list()).toEqual([]);
  });

  it("refuses a pattern the realm already has", async () => {
    await add("#(?P<id>[123])", TEMPLATE);
    const res = await add(" #(?P<id>[123])", "https://other.example.com/{id}");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid("Realm filter with this Realm and Pattern already exists.", { __all__: ["Realm filter with this Realm and Pattern already exists."] }));
    expect(await list()).toHaveLength(1);
  });

  it("requires both parameters, after the administrator check", async () => {
    expect((await server.as("iago").post("/realm/filters", { url_template: TEMPLATE })).body).toEqual(error("Missing 'pattern' argument", "REQUEST_VARIABLE_MISSING", { var_name: "pattern" }));
    expect((await server.as("iago").post("/realm/filters", { pattern: "a" })).body).toEqual(
      error("Missing 'url_template' argument", "REQUEST_VARIABLE_MISSING", { var_name: "url_template" }),
    );
    // The format-string parameter of Zulip before 7.0 is not read any more.
    expect((await server.as("iago").post("/realm/filters", { pattern: "a", url_format_string: "https://x.com/%(id)s" })).body.msg).toBe("Missing 'url_template' argument");
  });

  it.each(["hamlet", "shiva", "polonius", "bot"] as const)("refuses %s, before reading any parameter", async (who) => {
    const res = await server.as(who).post("/realm/filters", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
  });

  it("lets an owner add one", async () => {
    expect((await add("owner-(?P<id>\\d+)", TEMPLATE, "desdemona")).body).toEqual(success({ id: expect.any(Number) }));
  });
});

describe("PATCH /realm/filters/{filter_id}", () => {
  it("replaces pattern and URL template", async () => {
    const { id } = (await add("#(?P<id>[123])", TEMPLATE)).body;
    const res = await server.as("iago").patch(`/realm/filters/${id}`, { pattern: "#(?P<id>[0-9]+)", url_template: "https://realm.com/my_realm_filter/issues/{id}" });
    expect(res.body).toEqual(success());
    expect(await list()).toEqual([{ pattern: "#(?P<id>[0-9]+)", url_template: "https://realm.com/my_realm_filter/issues/{id}", id }]);
    // Keeping its own pattern is no conflict.
    expect((await server.as("iago").patch(`/realm/filters/${id}`, { pattern: "#(?P<id>[0-9]+)", url_template: TEMPLATE })).body).toEqual(success());
  });

  it("validates like creation, and refuses another linkifier's pattern", async () => {
    const { id } = (await add("#(?P<id>[123])", TEMPLATE)).body;
    await add("other-(?P<id>\\d+)", TEMPLATE);
    const patch = (pattern: string, url_template: string) => server.as("iago").patch(`/realm/filters/${id}`, { pattern, url_template });
    expect((await patch("ZUL-(?P<id>\\d????)", TEMPLATE)).body.msg).toBe("Bad regular expression: bad repetition operator: ????");
    expect((await patch("ZUL-(?P<id>\\d+)", "$fgfg")).body.msg).toBe("Group 'id' in linkifier pattern is not present in URL template.");
    expect((await patch("#(?P<id>[123])", "{id")).body).toEqual(invalid("Invalid URL template.", { url_template: ["Invalid URL template."] }));
    expect((await patch("other-(?P<id>\\d+)", TEMPLATE)).body).toEqual(
      invalid("Realm filter with this Realm and Pattern already exists.", { __all__: ["Realm filter with this Realm and Pattern already exists."] }),
    );
    expect((await list()).find((l) => l.id === id)?.pattern).toBe("#(?P<id>[123])");
  });

  it("answers Linkifier not found for an unknown id, before validating", async () => {
    const { id } = (await add("#(?P<id>[123])", TEMPLATE)).body;
    const res = await server.as("iago").patch(`/realm/filters/${id + 1000}`, { pattern: "(", url_template: "{" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Linkifier not found."));
  });

  it("is for administrators only", async () => {
    const { id } = (await add("#(?P<id>[123])", TEMPLATE)).body;
    expect((await server.as("hamlet").patch(`/realm/filters/${id}`, {})).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
  });
});

describe("DELETE /realm/filters/{filter_id}", () => {
  it("removes the linkifier; a second time it is not found", async () => {
    const { id } = (await add("#(?P<id>[123])", TEMPLATE)).body;
    expect((await server.as("hamlet").delete(`/realm/filters/${id}`)).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    expect((await server.as("iago").delete(`/realm/filters/${id}`)).body).toEqual(success());
    expect(await list()).toEqual([]);
    const again = await server.as("iago").delete(`/realm/filters/${id}`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(error("Linkifier not found."));
  });
});

describe("PATCH /realm/linkifiers", () => {
  const reorder = (ids: unknown) => server.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: JSON.stringify(ids) });

  it("accepts [] when there are none", async () => {
    expect((await reorder([])).body).toEqual(success());
  });

  it("applies a new order, keeps it on deletion, and adds new linkifiers last", async () => {
    const ids: number[] = [];
    for (const n of [1, 2, 3]) ids.push((await add(`${n}#(?P<id>[123])`, `https://filter.com/${n}/{id}`)).body.id);
    expect((await list()).map((l) => l.id)).toEqual(ids);
    const reversed = [...ids].reverse();
    expect((await reorder(reversed)).body).toEqual(success());
    expect((await list()).map((l) => l.id)).toEqual(reversed);
    const { id: added } = (await add("3#123", "https://example.com")).body;
    expect((await list()).map((l) => l.id)).toEqual([...reversed, added]);
    await server.as("iago").delete(`/realm/filters/${reversed[1]}`);
    expect((await list()).map((l) => l.id)).toEqual([reversed[0], reversed[2], added]);
  });

  it("refuses duplicates, missing and unknown ids", async () => {
    const ids: number[] = [];
    for (const n of [1, 2]) ids.push((await add(`${n}#(?P<id>[123])`, `https://filter.com/${n}/{id}`)).body.id);
    expect((await reorder([...ids, ids[0]])).body).toEqual(error("The ordered list must not contain duplicated linkifiers"));
    expect((await reorder([ids[0]])).body).toEqual(error("The ordered list must enumerate all existing linkifiers exactly once"));
    expect((await reorder([...ids, 99999])).body).toEqual(error("The ordered list must enumerate all existing linkifiers exactly once"));
    expect((await list()).map((l) => l.id)).toEqual(ids);
  });

  it("checks the parameter and the caller", async () => {
    expect((await server.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: "1,2" })).body).toEqual(error("ordered_linkifier_ids is not valid JSON"));
    expect((await reorder({ a: 1 })).body).toEqual(error("ordered_linkifier_ids is not a list"));
    expect((await reorder(["1"])).body).toEqual(error("ordered_linkifier_ids[0] is not an integer"));
    expect((await server.as("iago").patch("/realm/linkifiers", {})).body).toEqual(
      error("Missing 'ordered_linkifier_ids' argument", "REQUEST_VARIABLE_MISSING", { var_name: "ordered_linkifier_ids" }),
    );
    expect((await server.as("othello").patch("/realm/linkifiers", { ordered_linkifier_ids: "[]" })).body).toEqual(
      error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"),
    );
  });
});
