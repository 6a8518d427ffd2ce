import { describe, expect, it } from "vitest";
import { emptyRenderContext, renderMarkdown } from "../../src/markdown/index.js";
import { testContext } from "./markdown-fixtures.js";

const render = (content: string) => renderMarkdown(content, testContext());

describe("user mentions", () => {
  it("renders and reports a direct mention", () => {
    const r = render("hi @**King Hamlet**");
    expect(r.html).toBe('<p>hi <span class="user-mention" data-user-id="10">@King Hamlet</span></p>');
    expect([...r.mentionedUserIds]).toEqual([10]);
  });

  it("matches names case-insensitively but shows the real name", () => {
    expect(render("@**king hamlet**").html).toBe('<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>');
  });

  it("uses the id to pick between users with the same name", () => {
    const r = render("@**Mark Twin|21**");
    expect(r.html).toBe('<p><span class="user-mention" data-user-id="21">@Mark Twin</span></p>');
    expect([...r.mentionedUserIds]).toEqual([21]);
  });

  it("accepts the id alone, and rejects a name that does not match the id", () => {
    expect(render("@**|10**").html).toContain('data-user-id="10">@King Hamlet<');
    const r = render("@**Iago|10**");
    expect(r.html).not.toContain("user-mention");
    expect(r.mentionedUserIds.size).toBe(0);
  });

  it("does not report silent mentions", () => {
    const r = render("@_**King Hamlet**");
    expect(r.html).toBe('<p><span class="user-mention silent" data-user-id="10">King Hamlet</span></p>');
    expect(r.mentionedUserIds.size).toBe(0);
  });

  it("silences mentions inside quotes", () => {
    const r = render("> @**King Hamlet** and @*support*\n\n```quote\n@**Iago**\n```");
    expect(r.html).toContain('class="user-mention silent" data-user-id="10">King Hamlet<');
    expect(r.html).toContain('class="user-mention silent" data-user-id="8">Iago<');
    expect(r.mentionedUserIds.size).toBe(0);
    expect(r.mentionedGroupIds.size).toBe(0);
  });

  it("leaves unknown names as text", () => {
    const r = render("@**Nobody Here**");
    expect(r.html).toBe("<p>@<strong>Nobody Here</strong></p>");
    expect(r.mentionedUserIds.size).toBe(0);
  });

  it("does not mention mid-word or inside code", () => {
    expect(render("foo@**King Hamlet**").mentionedUserIds.size).toBe(0);
    expect(render("`@**King Hamlet**`").mentionedUserIds.size).toBe(0);
    expect(render("```\n@**King Hamlet**\n```").mentionedUserIds.size).toBe(0);
  });
});

describe("wildcards", () => {
  for (const name of ["all", "everyone", "channel", "stream"]) {
    it(`@**${name}** is a channel wildcard`, () => {
      const r = render(`@**${name}**`);
      expect(r.html).toBe(`<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${name}</span></p>`);
      expect(r.streamWildcard).toBe(true);
      expect(r.topicWildcard).toBe(false);
    });
  }

  it("@**topic** is a topic wildcard", () => {
    const r = render("@**topic**");
    expect(r.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect(r.topicWildcard).toBe(true);
    expect(r.streamWildcard).toBe(false);
  });

  it("silent wildcards notify nobody", () => {
    const r = render("@_**all** @_**topic**");
    expect(r.streamWildcard).toBe(false);
    expect(r.topicWildcard).toBe(false);
  });
});

describe("group mentions", () => {
  it("renders and reports a group", () => {
    const r = render("@*support*");
    expect(r.html).toBe('<p><span class="user-group-mention" data-user-group-id="31">@support</span></p>');
    expect([...r.mentionedGroupIds]).toEqual([31]);
  });

  it("does not report a silent group mention", () => {
    const r = render("@_*support*");
    expect(r.html).toBe('<p><span class="user-group-mention silent" data-user-group-id="31">support</span></p>');
    expect(r.mentionedGroupIds.size).toBe(0);
  });

  it("leaves unknown groups as emphasis", () => {
    expect(render("@*nogroup*").html).toBe("<p>@<em>nogroup</em></p>");
  });
});

describe("channel and topic links", () => {
  it("links a channel", () => {
    expect(render("#**Denmark**").html).toBe(
      '<p><a class="stream" data-stream-id="1" href="/#narrow/channel/1-Denmark">#Denmark</a></p>',
    );
  });

  it("links a topic, encoding it as Zulip's narrow URLs do", () => {
    expect(render("#**core team>release v1.0**").html).toBe(
      '<p><a class="stream-topic" data-stream-id="2" href="/#narrow/channel/2-core-team/topic/release.20v1.2E0">#core team &gt; release v1.0</a></p>',
    );
  });

  it("leaves unknown channels as text", () => {
    expect(render("#**Atlantis**").html).toBe("<p>#<strong>Atlantis</strong></p>");
  });
});

describe("links and flags", () => {
  it("collects links and sets has_link", () => {
    const r = render("see [docs](https://zulip.com/help) and www.example.com");
    expect(r.links).toEqual(["https://zulip.com/help", "http://www.example.com"]);
    expect(r.hasLink).toBe(true);
    expect(r.hasAttachment).toBe(false);
  });

  it("lists links in reading order", () => {
    expect(render("a.com then [b](https://b.com) then c.org").links).toEqual(["http://a.com", "https://b.com", "http://c.org"]);
  });

  it("detects uploaded files", () => {
    const r = render("[report.pdf](/user_uploads/2/ab/report.pdf)");
    expect(r.hasAttachment).toBe(true);
    expect(render("[f](http://zulip.testserver/user_uploads/2/ab/f.png)").hasAttachment).toBe(true);
  });

  it("has no links for plain text, and no images without previews", () => {
    const r = render("just words");
    expect(r.hasLink).toBe(false);
    expect(r.links).toEqual([]);
    expect(r.hasImage).toBe(false);
  });

  it("recognises /me messages", () => {
    expect(render("/me waves").isMeMessage).toBe(true);
    expect(render("I /me waves").isMeMessage).toBe(false);
  });

  it("works without organisation data", () => {
    const r = renderMarkdown("@**King Hamlet** #**Denmark** :smile:", emptyRenderContext("http://localhost"));
    expect(r.html).toBe(
      '<p>@<strong>King Hamlet</strong> #<strong>Denmark</strong> <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>',
    );
  });
});
