import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertWordsMatch } from "../../src/lib/users/alert-words.js";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("/users/me/alert_words", () => {
  it("starts empty", async () => {
    expect((await server.as("hamlet").get("/users/me/alert_words")).body).toEqual(success({ alert_words: [] }));
  });

  it("adds words, trimmed, skipping blanks and case-insensitive duplicates", async () => {
    // Within one request the last spelling of a word wins, as in Zulip.
    const res = await server.as("hamlet").post("/users/me/alert_words", { alert_words: ["  Python ", "", "rust", "PYTHON", "Rust"] });
    expect(res.body).toEqual(success({ alert_words: ["PYTHON", "Rust"] }));
    const again = await server.as("hamlet").post("/users/me/alert_words", { alert_words: ["python", "go"] });
    expect(again.body).toEqual(success({ alert_words: ["PYTHON", "Rust", "go"] }));
  });

  it("refuses words over 100 characters and non-strings", async () => {
    const long = await server.as("hamlet").post("/users/me/alert_words", { alert_words: ["ok", "x".repeat(101)] });
    expect(long.status).toBe(400);
    expect(long.body).toEqual(error("alert_words[1] is too long (limit: 100 characters)"));
    expect((await server.as("hamlet").post("/users/me/alert_words", { alert_words: [1] })).body).toEqual(error("alert_words[0] is not a string"));
    expect((await server.as("hamlet").post("/users/me/alert_words", {})).body).toEqual(
      error("Missing 'alert_words' argument", "REQUEST_VARIABLE_MISSING", { var_name: "alert_words" }),
    );
  });

  it("removes words case-insensitively, ignoring unknown ones", async () => {
    const res = await server.as("hamlet").delete("/users/me/alert_words", { alert_words: ["RUST", "java"] });
    expect(res.body).toEqual(success({ alert_words: ["PYTHON", "go"] }));
  });

  it("keeps each user's words apart", async () => {
    expect((await server.as("othello").get("/users/me/alert_words")).body).toEqual(success({ alert_words: [] }));
  });
});

describe("alert-word matching for the has_alert_word flag", () => {
  it("matches whole words case-insensitively at Zulip's boundaries", () => {
    expect(alertWordsMatch("I love python!", ["Python"])).toBe(true);
    expect(alertWordsMatch("(python)", ["python"])).toBe(true);
    expect(alertWordsMatch("pythonic code", ["python"])).toBe(false);
    expect(alertWordsMatch("cpython", ["python"])).toBe(false);
    expect(alertWordsMatch("ok then python", ["python"])).toBe(true);
    expect(alertWordsMatch("nothing here", [])).toBe(false);
  });

  it("flags new messages that contain a recipient's alert word, following changes", async () => {
    const flagsOf = async (who: "othello" | "cordelia", id: number) =>
      (await server.as(who).get(`/messages/${id}`)).body.message.flags as string[];
    await server.as("othello").post("/users/me/alert_words", { alert_words: ["deploy"] });
    const sent = await server.as("hamlet").post("/messages", { type: "direct", to: [server.users.othello.id, server.users.cordelia.id], content: "Time to Deploy Python" });
    expect(await flagsOf("othello", sent.body.id)).toContain("has_alert_word");
    expect(await flagsOf("cordelia", sent.body.id)).not.toContain("has_alert_word");
    await server.as("othello").delete("/users/me/alert_words", { alert_words: ["deploy"] });
    const later = await server.as("hamlet").post("/messages", { type: "direct", to: [server.users.othello.id], content: "deploy again" });
    expect(await flagsOf("othello", later.body.id)).not.toContain("has_alert_word");
  });
});
