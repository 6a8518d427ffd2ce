import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "./messages-fixtures.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

const TRAC = "https://trac.example.com/ticket/{id}";

async function linkifier(pattern: string, url_template: string): Promise<number> {
  const res = await server.as("iago").post("/realm/filters", { pattern, url_template });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id as number;
}

async function render(content: string): Promise<string> {
  const res = await server.as("hamlet").post("/messages/render", { content });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.rendered as string;
}

const link = (href: string, text: string) => `<a href="${href}">${text}</a>`;
const ticket = (id: string) => link(`https://trac.example.com/ticket/${id}`, `#${id}`);

beforeEach(async () => {
  const { linkifiers } = (await server.as("iago").get("/realm/linkifiers")).body as { linkifiers: { id: number }[] };
  for (const { id } of linkifiers) await server.as("iago").delete(`/realm/filters/${id}`);
});

describe("linkifiers in rendered messages", () => {
  it("links each match as Zulip does, leaving other words, code and Markdown links alone", async () => {
    await linkifier("#(?P<id>[0-9]{2,8})", TRAC);
    expect(await render("We should fix #224 #336 #446 and #115, but not issue#124 or #1124z or [trac #15](https://trac.example.com/ticket/16) today.")).toBe(
      `<p>We should fix ${ticket("224")} ${ticket("336")} ${ticket("446")} and ${ticket("115")}, but not issue#124 or #1124z or ` +
        `${link("https://trac.example.com/ticket/16", "trac #15")} today.</p>`,
    );
    expect(await render("`#123` and #45")).toBe(`<p><code>#123</code> and ${ticket("45")}</p>`);
    expect(await render("```\n#123\n```")).not.toContain("trac.example.com");
    expect(await render("see https://example.com/#123 and <https://example.com/x>")).not.toContain("trac.example.com");
  });

  it("needs white space, the start or an opening delimiter before, and no letter or digit after", async () => {
    await linkifier("#(?P<id>[0-9]{2,8})", TRAC);
    const linked = async (content: string) => (await render(content)).includes("https://trac.example.com/ticket/123");
    for (const content of ["Hello #123 World", "Hello\u00a0#123\u00a0World", "チケットは #123 です", "(#123)", "#123>", '"#123"', "#123@", "'#123'", ":#123", ",#123", "<#123"]) {
      expect(await linked(content), content).toBe(true);
    }
    for (const content of ["Hello #123World", "Hello#123 World", "Hello#123World", "チケットは#123です", "チケットは #123です", "チケットは#123 です", ")#123(", "##123"]) {
      expect(await linked(content), content).toBe(false);
    }
    // Each link is a new start: a comma or a space after one link opens the next.
    expect(await render("#12,#34 #56")).toBe(`<p>${ticket("12")},${ticket("34")} ${ticket("56")}</p>`);
  });

  it("runs between bare URLs and bold: inside ** or * the text is not linkified, inside *** it is", async () => {
    await linkifier("#(?P<id>[0-9]{2,8})", TRAC);
    expect(await render("**#123** *#45* ~~#67~~")).toBe("<p><strong>#123</strong> <em>#45</em> <del>#67</del></p>");
    expect(await render("***#123***")).toBe(`<p><strong><em>${ticket("123")}</em></strong></p>`);
    // Without a blank line the quote belongs to the list item, as in Zulip.
    expect(await render("# #123\n* #45\n> #67")).toBe(
      `<h1>${ticket("123")}</h1>\n<ul>\n<li>${ticket("45")}<blockquote>\n<p>${ticket("67")}</p>\n</blockquote>\n</li>\n</ul>`,
    );
  });

  it("expands URL templates with the match's groups, escaping what RFC 6570 escapes", async () => {
    await linkifier("#(?P<id>[a-zA-Z]+-[0-9]+)", TRAC);
    expect(await render("#ZUL-123 was fixed and code was deployed to production, also #zul-321 was deployed to staging")).toBe(
      `<p>${link("https://trac.example.com/ticket/ZUL-123", "#ZUL-123")} was fixed and code was deployed to production, also ` +
        `${link("https://trac.example.com/ticket/zul-321", "#zul-321")} was deployed to staging</p>`,
    );
    await linkifier("url-(?P<id>[0-9]+)", "https://example.com/A%20Test/%%%ba/{id}");
    expect(await render("url-123 is well-escaped")).toBe(`<p>${link("https://example.com/A%20Test/%25%25%ba/123", "url-123")} is well-escaped</p>`);
    await linkifier("community guidelines", "https://zulip.com/development-community/#community-norms");
    expect(await render("please observe community guidelines here")).toBe(
      `<p>please observe ${link("https://zulip.com/development-community/#community-norms", "community guidelines")} here</p>`,
    );
    await linkifier("(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)", "https://github.com/{org}/{repo}/issues/{id}");
    expect(await render("see zulip/zulip#123.")).toBe(`<p>see ${link("https://github.com/zulip/zulip/issues/123", "zulip/zulip#123")}.</p>`);
    await linkifier("(?i)jira-(?<key>[a-z]+)", "https://jira.example.com/{key}/{?key}");
    expect(await render("JIRA-Ab jira-cd")).toBe(
      `<p>${link("https://jira.example.com/Ab/?key=Ab", "JIRA-Ab")} ${link("https://jira.example.com/cd/?key=cd", "jira-cd")}</p>`,
    );
  });

  it("applies linkifiers in the realm's order: the first to match wins, and reordering changes it", async () => {
    const abc = await linkifier("(?P<id>ABC-[0-9]+)", TRAC);
    const other = await linkifier("(?P<id>[A-Z][A-Z0-9]*-[0-9]+)", "https://other-trac.example.com/ticket/{id}");
    const third = await linkifier("(?P<id>[A-Z][A-Z0-9]+)", "https://yet-another-trac.example.com/ticket/{id}");
    expect(await render("We should fix ABC-123 or [trac ABC-123](https://trac.example.com/ticket/16) today.")).toBe(
      `<p>We should fix ${link("https://trac.example.com/ticket/ABC-123", "ABC-123")} or ${link("https://trac.example.com/ticket/16", "trac ABC-123")} today.</p>`,
    );
    expect(await render("ASD-123 ABC-123 QWE")).toBe(
      `<p>${link("https://other-trac.example.com/ticket/ASD-123", "ASD-123")} ${link("https://trac.example.com/ticket/ABC-123", "ABC-123")} ` +
        `${link("https://yet-another-trac.example.com/ticket/QWE", "QWE")}</p>`,
    );
    await server.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: JSON.stringify([third, other, abc]) });
    expect(await render("ASD-123 ABC-123 QWE")).toBe(
      `<p>${link("https://yet-another-trac.example.com/ticket/ASD", "ASD")}-123 ${link("https://yet-another-trac.example.com/ticket/ABC", "ABC")}-123 ` +
        `${link("https://yet-another-trac.example.com/ticket/QWE", "QWE")}</p>`,
    );
  });

  it("makes links to this server relative and leaves refused schemes as text", async () => {
    const realm = server.app.ctx.config.externalUrl;
    await linkifier("chan-(?P<id>[0-9]+)", `${realm}/#narrow/channel/{id}`);
    expect(await render("see chan-7")).toBe(`<p>see ${link("#narrow/channel/7", "chan-7")}</p>`);
    await linkifier("js-(?P<id>[0-9]+)", "javascript:alert({id})");
    expect(await render("see js-7 and chan-8")).toBe(`<p>see js-7 and ${link("#narrow/channel/8", "chan-8")}</p>`);
  });

  it("survives patterns that match nothing or the empty string", async () => {
    await linkifier("x*", "https://example.com/empty");
    await linkifier("(?P<id>\\d+)?z", "https://example.com/{id}");
    expect(await render("a , b")).toBe("<p>a , b</p>");
    expect(await render("z 5z")).toBe(`<p>${link("https://example.com/", "z")} ${link("https://example.com/5", "5z")}</p>`);
  });

  it("uses the new set as soon as a linkifier changes", async () => {
    const id = await linkifier("#(?P<id>[0-9]{2,8})", TRAC);
    expect(await render("#123")).toBe(`<p>${ticket("123")}</p>`);
    await server.as("iago").patch(`/realm/filters/${id}`, { pattern: "#(?P<id>[0-9]{2,8})", url_template: "https://bugs.example.com/{id}" });
    expect(await render("#123")).toBe(`<p>${link("https://bugs.example.com/123", "#123")}</p>`);
    await server.as("iago").delete(`/realm/filters/${id}`);
    expect(await render("#123")).toBe("<p>#123</p>");
  });
});

describe("linkifiers in sent messages", () => {
  it("are stored rendered: GET /messages and the message event carry the link", async () => {
    await linkifier("#(?P<id>[0-9]{2,8})", TRAC);
    const queue = (await server.as("othello").post("/register", { event_types: ["message"], apply_markdown: true })).body;
    const id = await sendStream(server, "hamlet", "Verona", "tickets", "Fixed #224 today");
    const fetched = await server.as("othello").get("/messages", { anchor: id, num_before: 0, num_after: 0, apply_markdown: true });
    expect(fetched.body.messages[0].content).toBe(`<p>Fixed ${ticket("224")} today</p>`);
    const raw = await server.as("othello").get("/messages", { anchor: id, num_before: 0, num_after: 0, apply_markdown: false });
    expect(raw.body.messages[0].content).toBe("Fixed #224 today");
    const events = await server.as("othello").get("/events", { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true });
    expect(events.body.events.find((e: { type: string }) => e.type === "message").message.content).toBe(`<p>Fixed ${ticket("224")} today</p>`);
    // An edit renders again with the linkifiers of the moment.
    await server.as("iago").post("/realm/filters", { pattern: "PR (?P<id>[0-9]+)", url_template: "https://github.com/zulip/zulip/pull/{id}" });
    await server.as("hamlet").patch(`/messages/${id}`, { content: "Fixed #224 in PR 42" });
    const edited = await server.as("othello").get("/messages", { anchor: id, num_before: 0, num_after: 0, apply_markdown: true });
    expect(edited.body.messages[0].content).toBe(`<p>Fixed ${ticket("224")} in ${link("https://github.com/zulip/zulip/pull/42", "PR 42")}</p>`);
  });
});
