import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allEndpoints } from "../../src/routes/index.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

type Doc = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

async function fetchDoc(): Promise<Doc> {
  const res = await fetch(`${server.url}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return (await res.json()) as Doc;
}

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, served without credentials", async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info["x-zulip-feature-level"]).toBe(277);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every registered route, and nothing else", async () => {
    const doc = await fetchDoc();
    const described = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    const registered = allEndpoints.map((ep) => `${ep.method} ${ep.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`);
    expect(described.sort()).toEqual([...new Set(registered)].sort());
  });

  it("gives each parameter its type, default, JSON encoding and aliases", async () => {
    const doc = await fetchDoc();
    const send = doc.paths["/messages"]!.post!;
    const form = (send.requestBody as { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>>; required: string[] }; encoding?: Record<string, unknown> }> }).content["application/x-www-form-urlencoded"]!;
    expect(form.schema.required).toEqual(["type", "content"]);
    expect(form.schema.properties.type).toEqual({ type: "string", enum: ["stream", "channel", "private", "direct"] });
    expect(form.schema.properties.topic!["x-aliases"]).toEqual(["subject"]);
    expect(form.schema.properties.read_by_sender).toEqual({ type: "boolean" });
    expect(form.encoding).toEqual({ read_by_sender: { contentType: "application/json" } });

    const fetchMessages = doc.paths["/messages"]!.get!;
    const params = fetchMessages.parameters as { name: string; in: string; required: boolean; content?: Record<string, { schema: unknown }>; schema?: unknown }[];
    const numBefore = params.find((p) => p.name === "num_before")!;
    expect(numBefore).toEqual({ name: "num_before", in: "query", required: false, content: { "application/json": { schema: { type: "integer", minimum: 0, default: 0 } } } });
    expect(params.find((p) => p.name === "anchor")).toEqual({ name: "anchor", in: "query", required: false, schema: { type: "string" } });

    const mute = doc.paths["/users/me/muted_users/{muted_user_id}"]!.post!;
    expect(mute.parameters).toEqual([{ name: "muted_user_id", in: "path", required: true, schema: { type: "integer" } }]);
    expect(mute.security).toEqual([{ basicAuth: [] }]);
    // An id or an email address.
    expect(doc.paths["/users/{user}"]!.get!.parameters).toContainEqual({ name: "user", in: "path", required: true, schema: { type: "string" } });
    expect(doc.paths["/server_settings"]!.get!.security).toEqual([]);
    expect(doc.paths["/events"]!.get!["x-rate-limited"]).toBe(false);
  });
});
