import { describe, expect, it } from "vitest";
import { hasOperation, validateEvent, validateResponse } from "../harness/openapi.js";
import { referenceDir } from "../harness/reference.js";

/** The validator checks against Zulip's document; without it there is nothing to test. */
const withoutReference = referenceDir === undefined;

const ownUser = {
  result: "success",
  msg: "",
  avatar_url: "https://secure.gravatar.com/avatar/af4f06322c177ef4e1e9b2c424986b54?d=identicon&version=1",
  avatar_version: 1,
  email: "iago@zulip.com",
  delivery_email: "iago@zulip.com",
  full_name: "Iago",
  is_admin: true,
  is_owner: false,
  role: 200,
  is_guest: false,
  is_bot: false,
  is_active: true,
  timezone: "",
  date_joined: "2019-10-20T07:50:53.728864+00:00",
  max_message_id: 30,
  user_id: 5,
  profile_data: { "1": { value: "+1-234-567-8901", rendered_value: "<p>+1-234-567-8901</p>" } },
};

const user = {
  user_id: 5,
  delivery_email: null,
  email: "user5@zulip.example.com",
  full_name: "Iago",
  date_joined: "2019-10-20T07:50:53.728864+00:00",
  is_active: true,
  is_owner: false,
  is_admin: true,
  is_guest: false,
  is_bot: false,
  bot_type: null,
  bot_owner_id: null,
  role: 200,
  timezone: "",
  avatar_url: null,
  avatar_version: 1,
  profile_data: {},
};

const badRequest = { result: "error", msg: "No such user", code: "BAD_REQUEST" };

function errorOf(run: () => void): string {
  try {
    run();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("expected a validation error");
}

describe.skipIf(withoutReference)("validateResponse", () => {
  it("accepts a correct GET /users/me body", () => {
    expect(() => validateResponse("GET", "/users/me", 200, ownUser)).not.toThrow();
  });

  it("reports a missing required field by name", () => {
    const body: Record<string, unknown> = { ...ownUser };
    delete body.msg;
    expect(errorOf(() => validateResponse("GET", "/users/me", 200, body))).toMatch(
      /GET \/users\/me → 200 does not match[\s\S]*must have required property 'msg'/,
    );
  });

  it("rejects an extra property where additionalProperties is false", () => {
    const message = errorOf(() => validateResponse("GET", "/users/me", 200, { ...ownUser, favourite_colour: "teal" }));
    expect(message).toContain("must NOT have additional properties 'favourite_colour'");
  });

  it("rejects wrong types and enum values, listing the allowed values", () => {
    const message = errorOf(() => validateResponse("GET", "/users/me", 200, { ...ownUser, role: 3, is_admin: "yes" }));
    expect(message).toContain("/role must be equal to one of the allowed values [100,200,300,400,600]");
    expect(message).toContain("/is_admin must be boolean");
  });

  it("allows the level-275 is_billing_admin field listed in KNOWN_VERSION_DIFFERENCES", () => {
    expect(() => validateResponse("GET", "/users/me", 200, { ...ownUser, is_billing_admin: false })).not.toThrow();
  });

  it("accepts nullable fields declared by an allOf override", () => {
    expect(() => validateResponse("GET", "/users/5", 200, { result: "success", msg: "", user })).not.toThrow();
    const message = errorOf(() => validateResponse("GET", "/users/5", 200, { result: "success", msg: "", user: { ...user, full_name: null } }));
    expect(message).toContain("/user/full_name must be string");
  });

  it("accepts a 400 error body for an endpoint that documents 400", () => {
    expect(() => validateResponse("GET", "/users/5/status", 400, badRequest)).not.toThrow();
    const message = errorOf(() => validateResponse("GET", "/users/5/status", 400, { ...badRequest, detail: "x" }));
    expect(message).toContain("must NOT have additional properties 'detail'");
  });

  it("checks an error body missing `code`", () => {
    const message = errorOf(() => validateResponse("GET", "/users/5/status", 400, { result: "error", msg: "No such user" }));
    expect(message).toContain("must have required property 'code'");
  });

  it("falls back to Zulip's documented common errors (400, 401, 429)", () => {
    expect(() => validateResponse("GET", "/users/me", 400, { ...badRequest, code: "REQUEST_VARIABLE_MISSING", var_name: "x" })).not.toThrow();
    const unauthorized = { result: "error", msg: "Account is deactivated", code: "USER_DEACTIVATED" };
    expect(() => validateResponse("GET", "/users/me", 401, unauthorized)).not.toThrow();
    const rateLimited = { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 28.7 };
    expect(() => validateResponse("POST", "/messages", 429, rateLimited)).not.toThrow();
  });

  it("fails on a status the document does not describe", () => {
    expect(errorOf(() => validateResponse("GET", "/users/me", 404, badRequest))).toContain(
      "/users/me: no response documented for 404 (documented: 200)",
    );
    expect(() => validateResponse("GET", "/users/me", 500, badRequest)).toThrow(/no response documented for 500/);
  });

  it("fails on an unknown path or method", () => {
    expect(() => validateResponse("GET", "/no_such_endpoint", 200, {})).toThrow(/has no operation for this method and path/);
    expect(() => validateResponse("PUT", "/users/me", 200, {})).toThrow(/has no operation/);
  });
});

describe.skipIf(withoutReference)("path matching", () => {
  it("prefers literal segments over templates", () => {
    const message = errorOf(() => validateResponse("GET", "/users/me", 200, { result: "success", msg: "", user }));
    expect(message).toContain("/users/me (");
    expect(message).not.toContain("{user_id}");
    expect(hasOperation("DELETE", "/users/me")).toBe(true);
    // Zulip routes /users/me to its own view, so PATCH does not fall through to /users/{email}.
    expect(hasOperation("PATCH", "/users/me")).toBe(false);
  });

  it("tries every template that matches equally well", () => {
    const message = errorOf(() => validateResponse("GET", "/users/5", 200, { result: "success", msg: "", user: 5 }));
    expect(message).toContain("/users/{user_id} (");
    expect(message).toContain("/users/{email} (");
    expect(() => validateResponse("GET", "/users/iago@zulip.com", 200, { result: "success", msg: "", user })).not.toThrow();
    expect(hasOperation("DELETE", "/users/5")).toBe(true);
    expect(hasOperation("PATCH", "/users/iago@zulip.com")).toBe(true);
  });

  it("strips /api/v1 and the query string, ignores method case and treats HEAD as GET", () => {
    expect(() => validateResponse("get", "/api/v1/users/me?client_gravatar=true#x", 200, ownUser)).not.toThrow();
    expect(() => validateResponse("HEAD", "/api/v1/users/me", 200, ownUser)).not.toThrow();
    expect(hasOperation("post", "/api/v1/messages?x=1")).toBe(true);
    expect(hasOperation("GET", "/api/v1")).toBe(false);
    expect(hasOperation("GET", "/users/me/extra/segments")).toBe(false);
  });
});

describe.skipIf(withoutReference)("validateEvent", () => {
  it("accepts a heartbeat", () => {
    expect(() => validateEvent({ type: "heartbeat", id: 0 })).not.toThrow();
  });

  it("rejects an unknown event type", () => {
    expect(() => validateEvent({ type: "no_such_event", id: 1 })).toThrow(/event type=no_such_event: no such event type\/op/);
  });

  it("rejects a non-object or an event without type and id", () => {
    expect(() => validateEvent("heartbeat")).toThrow(/string "type" and a numeric "id"/);
    expect(() => validateEvent({ type: "heartbeat" })).toThrow(/numeric "id"/);
  });

  it("reports only the alternatives for the event's type and op", () => {
    const message = errorOf(() => validateEvent({ type: "realm_user", op: "update", id: 3, person: { user_id: "x" } }));
    expect(message).toContain("event type=realm_user op=update does not match");
    expect(message).toContain("/person/user_id must be integer");
    expect(message).not.toContain("heartbeat");
    const extra = errorOf(() => validateEvent({ type: "heartbeat", id: 0, note: "x" }));
    expect(extra).toContain("must NOT have additional properties 'note'");
  });

  it("accepts realistic typing and subscription events", () => {
    const sender = { user_id: 10, email: "hamlet@zulip.com" };
    expect(() => validateEvent({ type: "typing", op: "start", id: 4, message_type: "direct", sender, recipients: [sender] })).not.toThrow();
    expect(() => validateEvent({ type: "subscription", op: "peer_add", id: 5, stream_ids: [1], user_ids: [10] })).not.toThrow();
    expect(() => validateEvent({ type: "subscription", op: "peer_add", id: 5, stream_ids: ["1"], user_ids: [10] })).toThrow(
      /\/stream_ids\/0 must be integer/,
    );
  });
});

describe.skipIf(withoutReference)("performance", () => {
  it("caches compiled validators so repeated calls are cheap", () => {
    validateResponse("GET", "/users/me", 200, ownUser);
    const start = performance.now();
    for (let i = 0; i < 1000; i++) validateResponse("GET", "/users/me", 200, ownUser);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
