import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const OWNER_REQUIRED = error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
const list = async (who: "hamlet" | "polonius" = "hamlet") => (await server.as(who).get("/realm/domains")).body;

describe("GET /realm/domains", () => {
  it("lists the domains, in the order they were added, to every user", async () => {
    expect(await list()).toEqual(success({ domains: [] }));
    await server.as("desdemona").post("/realm/domains", { domain: "zulip.org", allow_subdomains: false });
    await server.as("desdemona").post("/realm/domains", { domain: "acme.example", allow_subdomains: true });
    const domains = [
      { domain: "zulip.org", allow_subdomains: false },
      { domain: "acme.example", allow_subdomains: true },
    ];
    expect(await list("polonius")).toEqual(success({ domains }));
    const state = (await server.as("hamlet").post("/register", { fetch_event_types: ["realm_domains"] })).body;
    expect(state.realm_domains).toEqual(domains);
  });
});

describe("POST /realm/domains", () => {
  it("is for owners only, before any value is read", async () => {
    for (const who of ["iago", "shiva", "hamlet", "polonius"] as const) {
      expect((await server.as(who).post("/realm/domains", { domain: "mine.example", allow_subdomains: false })).body).toEqual(OWNER_REQUIRED);
      expect((await server.as(who).post("/realm/domains", {})).body).toEqual(OWNER_REQUIRED);
    }
  });

  it("stores the domain stripped and in lower case, and returns its id", async () => {
    const res = await server.as("desdemona").post("/realm/domains", { domain: "  Example.COM ", allow_subdomains: true });
    expect(res.body).toEqual(success({ new_domain: [expect.any(Number), "example.com"] }));
    const row = await server.app.ctx.db.selectFrom("realm_domain").selectAll().where("domain", "=", "example.com").executeTakeFirstOrThrow();
    expect(res.body.new_domain[0]).toBe(row.id);
    expect((await server.as("desdemona").post("/realm/domains", { domain: "EXAMPLE.com", allow_subdomains: false })).body).toEqual(
      error("The domain example.com is already a part of your organization."),
    );
  });

  it("refuses missing and malformed values with Zulip's messages", async () => {
    const post = (params: Record<string, string | boolean>) => server.as("desdemona").post("/realm/domains", params);
    expect((await post({ domain: "a.example" })).body).toEqual(error("Missing 'allow_subdomains' argument", "REQUEST_VARIABLE_MISSING", { var_name: "allow_subdomains" }));
    expect((await post({ allow_subdomains: false })).body).toEqual(error("Missing 'domain' argument", "REQUEST_VARIABLE_MISSING", { var_name: "domain" }));
    expect((await post({ domain: "a.example", allow_subdomains: "sometimes" })).body).toEqual(error("allow_subdomains is not valid JSON"));
    expect((await post({ domain: "a.example", allow_subdomains: "1" })).body).toEqual(error("allow_subdomains is not a boolean"));
    const invalid: [string, string][] = [
      ["  ", "Domain can't be empty."],
      ["localhost", "Domain must have at least one dot (.)"],
      [`${"a".repeat(250)}.example`, "Domain is too long"],
      [".example.com", "Domain cannot start or end with a dot (.)"],
      ["example..com", "Consecutive '.' are not allowed."],
      ["-acme.com", "Subdomains cannot start or end with a '-'."],
      ["acme_corp.com", "Domain can only have letters, numbers, '.' and '-'s."],
    ];
    for (const [domain, reason] of invalid) expect((await post({ domain, allow_subdomains: false })).body, domain).toEqual(error(`Invalid domain: ${reason}`));
  });
});

describe("PATCH /realm/domains/{domain}", () => {
  it("changes whether subdomains are accepted; owners only; the domain must exist", async () => {
    expect((await server.as("iago").patch("/realm/domains/zulip.org", { allow_subdomains: true })).body).toEqual(OWNER_REQUIRED);
    expect((await server.as("desdemona").patch("/realm/domains/nowhere.example", { allow_subdomains: true })).body).toEqual(
      error("No entry found for domain nowhere.example."),
    );
    expect((await server.as("desdemona").patch("/realm/domains/zulip.org", {})).body).toEqual(
      error("Missing 'allow_subdomains' argument", "REQUEST_VARIABLE_MISSING", { var_name: "allow_subdomains" }),
    );
    expect((await server.as("desdemona").patch("/realm/domains/zulip.org", { allow_subdomains: true })).body).toEqual(success());
    expect((await list()).domains[0]).toEqual({ domain: "zulip.org", allow_subdomains: true });
  });
});

describe("DELETE /realm/domains/{domain}", () => {
  it("removes a domain; owners only; the domain must exist", async () => {
    expect((await server.as("iago").delete("/realm/domains/zulip.org")).body).toEqual(OWNER_REQUIRED);
    expect((await server.as("desdemona").delete("/realm/domains/ZULIP.ORG")).body).toEqual(error("No entry found for domain ZULIP.ORG."));
    expect((await server.as("desdemona").delete("/realm/domains/zulip.org")).body).toEqual(success());
    expect((await list()).domains.map((d: { domain: string }) => d.domain)).toEqual(["acme.example", "example.com"]);
  });

  it("turns the restriction to domains off with the last domain, and only then", async () => {
    expect((await server.as("desdemona").patch("/realm", { emails_restricted_to_domains: true })).status).toBe(200);
    await server.as("desdemona").delete("/realm/domains/acme.example");
    const restricted = async () => (await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_emails_restricted_to_domains;
    expect(await restricted()).toBe(true);
    await server.as("desdemona").delete("/realm/domains/example.com");
    expect(await restricted()).toBe(false);
  });
});

describe("a domain with a NUL character in the path", () => {
  it("is a 400 envelope on either database, never a 500 (PostgreSQL's text cannot hold NUL)", async () => {
    const res = await server.as("desdemona").delete("/realm/domains/%00", {}, { validate: false });
    expect(res.status).toBe(400);
    expect(res.body.result).toBe("error");
    expect(res.body.code).toBe("BAD_REQUEST");
  });
});
