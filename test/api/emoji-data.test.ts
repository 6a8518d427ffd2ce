/** server_emoji_data_url: the unicode emoji names document the mobile app loads, served without authentication. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function advertisedUrl(): Promise<string> {
  const res = await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
  const advertised = new URL(res.body.server_emoji_data_url);
  expect(advertised.pathname).toBe("/static/generated/emoji/emoji_api.json");
  // The advertised origin is the configured external URL; the test server listens on its own port.
  return `${server.url}${advertised.pathname}`;
}

describe("GET server_emoji_data_url", () => {
  it("serves code_to_names without authentication, cached for long", async () => {
    const res = await fetch(await advertisedUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000");
    const body: unknown = await res.json();
    expect(Object.keys(body as object)).toEqual(["code_to_names"]);
  });

  it("names each emoji as Zulip does, the canonical name first, codes without U+FE0F", async () => {
    const { code_to_names: codes } = (await (await fetch(await advertisedUrl())).json()) as { code_to_names: Record<string, string[]> };
    expect(codes["1f642"]).toEqual(["smile"]);
    expect(codes["1f384"]).toEqual(["holiday_tree"]);
    expect(codes["1f441-200d-1f5e8"]?.[0]).toBe("eye_in_speech_bubble");
    expect(codes["1f44d"]?.slice(0, 3)).toEqual(["+1", "thumbs_up", "like"]);
    expect(codes["2764"]?.slice(0, 2)).toEqual(["heart", "love"]);
    expect(codes["1f3f3-200d-1f308"]).toEqual(["rainbow_flag"]);
    const entries = Object.entries(codes);
    expect(entries.length).toBeGreaterThan(1500);
    for (const [code, names] of entries) {
      expect(code).toMatch(/^[0-9a-f]+(-[0-9a-f]+)*$/);
      expect(code.split("-")).not.toContain("fe0f");
      expect(names.length).toBeGreaterThan(0);
    }
    // A name belongs to one emoji only.
    const all = entries.flatMap(([, names]) => names);
    expect(new Set(all).size).toBe(all.length);
    expect(all).not.toContain("slightly_smiling_face");
  });

  it("names the same emoji that messages render", async () => {
    const { code_to_names: codes } = (await (await fetch(await advertisedUrl())).json()) as { code_to_names: Record<string, string[]> };
    const res = await server.as("hamlet").post("/messages/render", { content: ":working_on_it: :tada:" });
    expect(res.body.rendered).toContain("emoji-1f6e0");
    expect(codes["1f6e0"]).toContain("working_on_it");
    expect(codes["1f389"]).toEqual(expect.arrayContaining(["tada"]));
  });
});
