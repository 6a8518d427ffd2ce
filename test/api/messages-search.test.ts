import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, sendStream, type Channels } from "./messages-fixtures.js";

/** The `search` operator: full-text on the topic and rendered text, English stemming, both backends. */

let server: TestServer;
let channels: Channels;
const m: Record<string, number> = {};

beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
  m.walked = await sendStream(server, "othello", "Verona", "garden", "We walked home slowly");
  m.homeWalked = await sendStream(server, "othello", "Verona", "garden", "Home we WALKED");
  m.walks = await sendStream(server, "iago", "Denmark", "garden", "She walks the dog");
  m.breakfast = await sendStream(server, "hamlet", "Verona", "breakfast plans", "there are muffins");
  m.link = await sendStream(server, "hamlet", "Verona", "links", "[docs](https://example.org/zebra) for @**King Hamlet**");
  m.entity = await sendStream(server, "hamlet", "Verona", "food", "bread & butter <b>");
});
afterAll(() => server.stop());

const search = (operand: string, negated = false): Json => ({ operator: "search", operand, negated });
const find = (who: FixtureName, narrow: Json[]) => idsIn(server, who, narrow);

describe("search matches words", () => {
  it("in content and topic, case-insensitively", async () => {
    expect(await find("hamlet", [search("MUFFINS")])).toEqual([m.breakfast]);
    expect(await find("hamlet", [search("breakfast")])).toEqual([m.breakfast]);
    expect(await find("hamlet", [search("Breakfast muffins")])).toEqual([m.breakfast]);
    expect(await find("hamlet", [search("breakfast walked")])).toEqual([]);
  });

  it("by stem: walking finds walked and walks", async () => {
    expect(await find("hamlet", [search("walking")])).toEqual([m.walked, m.homeWalked, m.walks]);
    expect(await find("hamlet", [search("walk")])).toEqual([m.walked, m.homeWalked, m.walks]);
    expect(await find("hamlet", [search("muffin")])).toEqual([m.breakfast]);
  });

  it("whole words only, not parts of words", async () => {
    expect(await find("hamlet", [search("wal")])).toEqual([]);
    expect(await find("hamlet", [search("muff")])).toEqual([]);
  });

  it("in the rendered text, not in markup, link targets or entities", async () => {
    expect(await find("hamlet", [search("docs")])).toEqual([m.link]);
    expect(await find("hamlet", [search("King Hamlet")])).toEqual([m.link]);
    for (const word of ["zebra", "href", "mention", "amp", "span"]) expect(await find("hamlet", [search(word)])).toEqual([]);
    expect(await find("hamlet", [search("bread butter")])).toEqual([m.entity]);
  });

  it("a quoted phrase must occur as written; its words are searched too", async () => {
    expect(await find("hamlet", [search('"walked home"')])).toEqual([m.walked]);
    expect(await find("hamlet", [search('"WALKED HOME"')])).toEqual([m.walked]);
    expect(await find("hamlet", [search("walked home")])).toEqual([m.walked, m.homeWalked]);
    expect(await find("hamlet", [search('"breakfast plans" muffins')])).toEqual([m.breakfast]);
    expect(await find("hamlet", [search('"plans breakfast"')])).toEqual([]);
  });

  it("a word that matches nothing, or an operand without words, finds nothing", async () => {
    const res = await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [search("xylophone")] });
    expect(res.body).toMatchObject({ messages: [], found_oldest: true, found_newest: true, found_anchor: false });
    expect(await find("hamlet", [search("!!! ??")])).toEqual([]);
  });

  it("negated, and combined with other operators", async () => {
    const verona = { operator: "channel", operand: channels.verona };
    expect(await find("hamlet", [verona, search("walking", true)])).toEqual([m.breakfast, m.link, m.entity]);
    expect(await find("hamlet", [verona, search("walking")])).toEqual([m.walked, m.homeWalked]);
    expect(await find("hamlet", [search("walking"), { operator: "sender", operand: "iago@zulip.com" }])).toEqual([m.walks]);
    expect(await find("hamlet", [search("walking"), search('"walked home"', true)])).toEqual([m.homeWalked, m.walks]);
    expect(await find("hamlet", [{ operator: "topic", operand: "garden" }, search("dog")])).toEqual([m.walks]);
  });
});

describe("highlighting", () => {
  it("marks stemmed matches in content and topic, never inside markup", async () => {
    const res = await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [search("walking plan")] });
    expect(res.body.messages).toEqual([]);
    const walked = await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [search("walking")] });
    expect(walked.body.messages.map((x: { match_content: string }) => x.match_content)).toEqual([
      '<p>We <span class="highlight">walked</span> home slowly</p>',
      '<p>Home we <span class="highlight">WALKED</span></p>',
      '<p>She <span class="highlight">walks</span> the dog</p>',
    ]);
    const topic = await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [search("plan")] });
    expect(topic.body.messages).toHaveLength(1);
    expect(topic.body.messages[0]).toMatchObject({ match_subject: 'breakfast <span class="highlight">plans</span>', match_content: "<p>there are muffins</p>" });
    const entity = await server.as("hamlet").get("/messages/matches_narrow", { msg_ids: [m.entity, m.link], narrow: [search("butter b")] });
    expect(entity.body.messages).toEqual({
      [String(m.entity)]: { match_content: '<p>bread &amp; <span class="highlight">butter</span> &lt;<span class="highlight">b</span>&gt;</p>', match_subject: "food" },
    });
  });
});

describe("the index follows changes", () => {
  it("an edited content: the old word is gone, the new one found", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "birds", "the pelican landed");
    expect(await find("hamlet", [search("pelican")])).toEqual([id]);
    expect((await server.as("hamlet").patch(`/messages/${id}`, { content: "the flamingo landed" })).status).toBe(200);
    expect(await find("hamlet", [search("pelican")])).toEqual([]);
    expect(await find("hamlet", [search("flamingo")])).toEqual([id]);
  });

  it("a renamed topic, for every message moved", async () => {
    const first = await sendStream(server, "hamlet", "Denmark", "egret notes", "one");
    const second = await sendStream(server, "iago", "Denmark", "egret notes", "two");
    expect(await find("hamlet", [search("egret")])).toEqual([first, second]);
    expect((await server.as("iago").patch(`/messages/${first}`, { topic: "heron sightings", propagate_mode: "change_all", send_notification_to_new_thread: false })).status).toBe(200);
    expect(await find("hamlet", [search("egret")])).toEqual([]);
    expect(await find("hamlet", [search("heron")])).toEqual([first, second]);
  });

  it("a deleted message is no longer found", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "cats", "an ocelot appeared");
    const kept = await sendStream(server, "hamlet", "Verona", "cats", "another ocelot");
    expect((await server.as("iago").delete(`/messages/${id}`)).status).toBe(200);
    expect(await find("hamlet", [search("ocelot")])).toEqual([kept]);
  });
});

describe("access", () => {
  it("never finds a message the caller cannot read", async () => {
    const secret = await sendStream(server, "iago", "secret", "plans", "the quokka plan");
    const open = await sendStream(server, "iago", "Denmark", "animals", "a wombat appeared");
    expect(await find("hamlet", [search("quokka")])).toEqual([secret]);
    expect(await find("cordelia", [search("quokka")])).toEqual([]);
    expect(await find("cordelia", [{ operator: "channels", operand: "public" }, search("quokka")])).toEqual([]);
    expect(await find("cordelia", [search("quokka", true)])).not.toContain(secret);
    const matches = await server.as("cordelia").get("/messages/matches_narrow", { msg_ids: [secret], narrow: [search("quokka")] });
    expect(matches.body.messages).toEqual({});
    // Denmark is public: its history is searchable by a non-subscriber in the channel, but not by a guest.
    expect(await find("othello", [search("wombat")])).toEqual([]);
    expect(await find("othello", [{ operator: "channel", operand: "Denmark" }, search("wombat")])).toEqual([open]);
    expect(await find("polonius", [search("wombat")])).toEqual([]);
    expect(await find("polonius", [{ operator: "channels", operand: "public" }, search("wombat")])).toEqual([]);
  });
});
