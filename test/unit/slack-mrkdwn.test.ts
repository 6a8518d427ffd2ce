import { describe, expect, it } from "vitest";
import { convertMrkdwn, mapSlackEmoji } from "../../src/import/slack-mrkdwn.js";
import { blocksAndAttachments } from "../../src/import/slack-blocks.js";

const names = {
  userName: (id: string) => ({ U1: "Ann Lee", U2: "Bo" })[id],
  channelName: (id: string) => ({ C1: "general" })[id],
};
const md = (text: string) => convertMrkdwn(text, names);

describe("Slack mrkdwn to Markdown", () => {
  it("converts formatting only at word boundaries", () => {
    expect(md("*bold* _it_ ~gone~").markdown).toBe("**bold** *it* ~~gone~~");
    expect(md("a*b*c snake_case_name ~x~y").markdown).toBe("a*b*c snake_case_name ~x~y");
    expect(md("(*in parens*)").markdown).toBe("(**in parens**)");
    expect(md("*line one\nline two*").markdown).toBe("*line one\nline two*");
  });

  it("converts mentions, channel links, special mentions and links", () => {
    expect(md("hi <@U1> and <@U2|bo>, not <@U9>")).toEqual({ markdown: "hi @**Ann Lee** and @**Bo**, not <@U9>", mentionedSlackIds: ["U1", "U2"] });
    expect(md("see <#C1|general> <#C1> <#C9|gone>").markdown).toBe("see #**general** #**general** #gone");
    expect(md("<!here> <!channel> <!everyone> <!subteam^S1|@devs> <!date^1392734382^{date}|Feb 18>").markdown).toBe("@**all** @**all** @**all** @devs Feb 18");
    expect(md("<https://a.example/x?y=1|the docs> <https://b.example> <mailto:a@b.example|a@b.example>").markdown).toBe("[the docs](https://a.example/x?y=1) https://b.example mailto:a@b.example");
  });

  it("unescapes Slack's escapes and leaves code alone", () => {
    expect(md("a &lt;b&gt; &amp;amp; `*x* &lt;y&gt;`").markdown).toBe("a <b> &amp; `*x* <y>`");
    expect(md("look: ```const a = *b*;``` done").markdown).toBe("look: \n```\nconst a = *b*;\n```\n done");
    expect(md("```\nmulti\nline\n```").markdown).toBe("```\nmulti\nline\n```");
  });
});

describe("Slack emoji names", () => {
  it("map to Zulip's name and code, without skin tones", () => {
    expect(mapSlackEmoji("+1")).toEqual({ name: "+1", code: "1f44d" });
    expect(mapSlackEmoji("thumbsup")).toEqual({ name: "+1", code: "1f44d" });
    expect(mapSlackEmoji("clap::skin-tone-3")).toEqual({ name: "clap", code: "1f44f" });
    expect(mapSlackEmoji("heart")).toEqual({ name: "heart", code: "2764" });
    expect(mapSlackEmoji("no-such-emoji")).toBeUndefined();
  });
});

describe("Slack blocks and attachments", () => {
  it("become text as Zulip's converter writes them; a person's rich_text block adds nothing", () => {
    expect(blocksAndAttachments({ text: "hi", blocks: [{ type: "rich_text", elements: [] }] })).toBe("");
    const blocks = [
      { type: "header", text: { type: "plain_text", text: "Release" } },
      { type: "divider" },
      { type: "section", text: { type: "mrkdwn", text: "*Done*" }, fields: [{ type: "mrkdwn", text: "a|b" }, { type: "mrkdwn", text: "c\nd" }, { type: "mrkdwn", text: "e" }] },
      { type: "section", text: { type: "mrkdwn", text: "one field" }, fields: [{ type: "mrkdwn", text: "only" }], accessory: { type: "image", image_url: "https://img.example/a.png", alt_text: "pic" } },
      { type: "context", elements: [{ type: "mrkdwn", text: "by bot" }, { type: "image", image_url: "https://img.example/b.png", alt_text: "icon" }] },
      { type: "image", image_url: "https://img.example/c.png", alt_text: "alt", title: { type: "plain_text", text: "Chart" } },
      { type: "actions", elements: [] },
    ];
    expect(blocksAndAttachments({ blocks })).toBe(
      "## Release\n----\n*Done*\n\n| | |\n|-|-|\n| a b | c d |\n| e |  |\none field\n\n[pic](https://img.example/a.png)\n\nonly\nby bot\n\n[icon](https://img.example/b.png)\n[Chart](https://img.example/c.png)",
    );
    expect(blocksAndAttachments({ attachments: [{ title: "T", pretext: "pre", text: "body", fields: [{ title: "k", value: "v" }, { title: "only title" }, { value: "only value" }], image_url: "https://img.example/d.png", footer: "foot", ts: 1709290800 }] })).toBe(
      "## T\n\npre\n\nbody\n\n*k*: v\n*only title*\nonly value\n\n[](https://img.example/d.png)\n\nfoot\n\n<time:2024-03-01T11:00:00+00:00>",
    );
  });
});
