import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

type Fields = { name?: string; pygments_language?: string; url_template?: string };
const PYTHON = { name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" };
const add = (fields: Fields, who: FixtureName = "iago") => server.as(who).post("/realm/playgrounds", fields);
const playgrounds = async (who: FixtureName = "othello") =>
  (await server.as(who).post("/register", { fetch_event_types: ["realm_playgrounds"] })).body.realm_playgrounds as Record<string, unknown>[];
const invalid = (msg: string, errors: Record<string, string[]>) => error(msg, "BAD_REQUEST", { errors });

describe("POST /realm/playgrounds", () => {
  it("adds a playground, stripping its fields, and every user sees it in /register", async () => {
    const res = await add({ name: " Python playground ", pygments_language: " Python ", url_template: " https://python.example.com?code={code} " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ id: expect.any(Number) }));
    const expected = [{ id: res.body.id, name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" }];
    expect(await playgrounds()).toEqual(expected);
    expect(await playgrounds("polonius")).toEqual(expected);
    await server.as("iago").delete(`/realm/playgrounds/${res.body.id}`);
  });

  it("allows several playgrounds for one language, and one name for several languages", async () => {
    const ids: number[] = [];
    for (const fields of [
      { ...PYTHON, name: "Python playground 1" },
      { ...PYTHON, name: "Python playground 2", url_template: "https://python2.example.com{code}" },
      { ...PYTHON, name: "Python playground 1", pygments_language: "Python3" },
      { name: "C++", pygments_language: "c++ #, -./_", url_template: "https://cpp.example.com/{?code}" },
    ]) {
      const res = await add(fields);
      expect(res.body).toEqual(success({ id: expect.any(Number) }));
      ids.push(res.body.id);
    }
    expect((await playgrounds()).map((p) => p.id)).toEqual(ids);
    for (const id of ids) await server.as("iago").delete(`/realm/playgrounds/${id}`);
  });

  it("refuses a language and name the realm already has", async () => {
    const { id } = (await add(PYTHON)).body;
    const res = await add({ ...PYTHON, url_template: "https://other.example.com/{code}" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      invalid("Realm playground with this Realm, Pygments language and Name already exists.", {
        __all__: ["Realm playground with this Realm, Pygments language and Name already exists."],
      }),
    );
    await server.as("iago").delete(`/realm/playgrounds/${id}`);
  });

  it.each([
    [{ ...PYTHON, pygments_language: "a$b$c" }, error("Invalid characters in pygments language")],
    [{ ...PYTHON, pygments_language: "py!@%&" }, error("Invalid characters in pygments language")],
    [{ ...PYTHON, pygments_language: "x".repeat(41) }, error("pygments_language is too long (limit: 40 characters)")],
    [{ ...PYTHON, url_template: "https://template.com{?test,code}" }, invalid('"code" should be the only variable present in the URL template', { __all__: ['"code" should be the only variable present in the URL template'] })],
    [{ ...PYTHON, url_template: "https://template.com?test={test" }, invalid("Invalid URL template.", { url_template: ["Invalid URL template."] })],
    [{ ...PYTHON, url_template: "https://template.com{?test}" }, invalid('Missing the required variable "code" in the URL template', { __all__: ['Missing the required variable "code" in the URL template'] })],
    [{ ...PYTHON, url_template: "https://template.com" }, invalid('Missing the required variable "code" in the URL template', { __all__: ['Missing the required variable "code" in the URL template'] })],
    [
      { ...PYTHON, url_template: "  " },
      invalid("This field cannot be blank.", { url_template: ["This field cannot be blank."], __all__: ['Missing the required variable "code" in the URL template'] }),
    ],
    [{ ...PYTHON, name: " " }, invalid("This field cannot be blank.", { name: ["This field cannot be blank."] })],
    [{ ...PYTHON, pygments_language: "  " }, invalid("This field cannot be blank.", { pygments_language: ["This field cannot be blank."] })],
    [
      { name: "", pygments_language: "", url_template: "{" },
      invalid("Invalid URL template.", { url_template: ["Invalid URL template."], name: ["This field cannot be blank."], pygments_language: ["This field cannot be blank."] }),
    ],
  ])("refuses %j", async (fields, body) => {
    const res = await add(fields);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
    expect(await playgrounds()).toEqual([]);
  });

  it("checks pygments_language before stripping it: a tab is refused, a final newline passes", async () => {
    expect((await add({ ...PYTHON, pygments_language: "Python\t" })).body).toEqual(error("Invalid characters in pygments language"));
    const res = await add({ ...PYTHON, pygments_language: "python\n" });
    expect(res.body).toEqual(success({ id: expect.any(Number) }));
    expect((await playgrounds()).map((p) => p.pygments_language)).toEqual(["python"]);
    await server.as("iago").delete(`/realm/playgrounds/${res.body.id}`);
  });

  it("requires each parameter, in Zulip's order, after the administrator check", async () => {
    const missing = (name: string) => error(`Missing '${name}' argument`, "REQUEST_VARIABLE_MISSING", { var_name: name });
    expect((await add({ pygments_language: "a$b" })).body).toEqual(missing("name"));
    expect((await add({ name: "x", pygments_language: "a$b" })).body).toEqual(missing("url_template"));
    expect((await add({ name: "x", url_template: "{code}" })).body).toEqual(missing("pygments_language"));
  });

  it.each(["hamlet", "shiva", "polonius", "bot"] as const)("refuses %s before reading any parameter", async (who) => {
    expect((await add({}, who)).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
  });
});

describe("DELETE /realm/playgrounds/{playground_id}", () => {
  it("removes the playground; an unknown id is an invalid playground", async () => {
    const { id } = (await add(PYTHON, "desdemona")).body;
    expect((await server.as("hamlet").delete(`/realm/playgrounds/${id}`)).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    const unknown = await server.as("iago").delete(`/realm/playgrounds/${id + 1}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(error("Invalid playground"));
    expect((await server.as("iago").delete(`/realm/playgrounds/${id}`)).body).toEqual(success());
    expect(await playgrounds()).toEqual([]);
    expect((await server.as("iago").delete(`/realm/playgrounds/${id}`)).body).toEqual(error("Invalid playground"));
  });
});
