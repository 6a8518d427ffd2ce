/**
 * The real zulip-terminal, unpatched, against a real Rookery: started in tmux with a zuliprc for
 * hamlet, it must show every message of the organisation, among them the HTML issue 21 changed
 * (external image previews, a linkifier link, a Python 2 code block, Notification Bot's notices),
 * take a new one from its event queue, and log no traceback. Needs the zulip-terminal and
 * python-zulip-api checkouts (see real-clients.ts), a Python 3 with the terminal's modules, and tmux.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { startOtherSite, type OtherSite } from "../api/image-proxy-helpers.js";
import { sendStream } from "../api/messages-fixtures.js";
import { sendRenderedKinds, SHOWN } from "./issue-messages.js";
import { populate } from "./populate.js";
import { clientsDir } from "./real-clients.js";
import { startTerminal, terminalRunnable } from "./terminal.js";
import { tmuxSession } from "./tmux.js";

const runnable = terminalRunnable;
if (!runnable) console.log(`zulip-terminal run skipped: needs zulip-terminal and python-zulip-api in ${clientsDir}, a Python 3 with their modules, and tmux`);

/** The terminal's size: tall enough for every message at once. */
const COLUMNS = 180;
const ROWS = 70;

let server: TestServer;
let site: OtherSite;
let home: string;
let rialto: number;

const { tmux, screen, waitFor, kill } = tmuxSession(`rookery-zt-${process.pid}`, "zt");

/** An SGR foreground colour of the 256-colour palette: ESC [ 38;5;N m. */
const FOREGROUND = new RegExp(`${String.fromCharCode(27)}\\[38;5;(\\d+)m`, "g");

/** Zulip 9.0's preview of an external image (as in test/api/messages-image-previews.test.ts). */
function preview(url: string): string {
  const encoded = encodeURIComponent(url);
  return `<div class="message_inline_image"><a href="${url}"><img data-src-fullsize="/thumbnail?url=${encoded}&amp;size=full" src="/thumbnail?url=${encoded}&amp;size=thumbnail"></a></div>`;
}

/** The message lines of the screen's message list (between the side panels), trimmed. */
function messageLines(shown: string): string[] {
  return shown.split("\n").map((line) => line.split("│")[1]?.trim() ?? "");
}

describe.skipIf(!runnable)("zulip-terminal against Rookery", () => {
  beforeAll(async () => {
    site = await startOtherSite();
    server = await startServer({ imageProxy: { allowPrivate: true, maxMib: 5, timeoutS: 5, cacheMib: 50 } });
    await populate(server);
    const verona = (await server.as("hamlet").get("/get_stream_id", { stream: "Verona" })).body.stream_id as number;
    await sendRenderedKinds(server, site, verona);
    rialto = (await server.as("hamlet").get("/get_stream_id", { stream: "Rialto" })).body.stream_id as number;
    const { hamlet } = server.users;
    home = startTerminal(tmux, "zt", { email: hamlet.delivery_email, apiKey: hamlet.api_key, site: server.url }, { columns: COLUMNS, rows: ROWS });
  }, 60_000);
  afterAll(async () => {
    if (home) kill();
    await server?.stop();
    await site?.close();
  });

  it("starts and shows the organisation's ten messages, the new HTML among them, as the terminal renders it", async () => {
    const shown = await waitFor(Object.values(SHOWN));
    const lines = messageLines(shown);
    const photo = `${site.origin}/img/photo.png`;
    const other = `${site.origin}/img/other.png`;
    const contents = lines.filter((l) => l.startsWith("▒ ")).map((l) => l.slice(2));
    expect(contents.filter((l) => l !== "")).toEqual([
      "hello @King Hamlet",
      "a plan",
      "psst",
      "all of us",
      // The preview itself is left out by the terminal ("duplicate of other content"); the link stays.
      "look at this photo.png [1]",
      "the other picture [1]",
      "see ticket #4321 [1] please",
      'name = u"Verona"',
      SHOWN.python2,
      "Iago created a new channel #Rialto [1].",
      "Public channel created by Iago. Description:",
      "░ Merchants only",
    ]);
    expect(lines.filter((l) => /^\d+: /.test(l))).toEqual([`1: ${photo}`, `1: ${other}`, "1: https://trac.example.com/ticket/4321", `1: ${server.url}/#narrow/channel/${rialto}-Rialto`]);
    expect(lines.filter((l) => l.startsWith("♟ Notification Bot")).length).toBe(2);
  }, 60_000);

  it("colours the Python 2 block by its highlighting classes: the keyword, the string and the format specifier differ", () => {
    const line = screen(true).split("\n").find((l) => l.includes("hello from")) ?? "";
    const colourBefore = (text: string): string => {
      const at = line.indexOf(text);
      const sgr = [...line.slice(0, at).matchAll(FOREGROUND)].at(-1);
      return sgr?.[1] ?? "none";
    };
    const colours = [colourBefore("print"), colourBefore("'hello from "), colourBefore("%s'")];
    expect(new Set(colours).size, JSON.stringify(colours)).toBe(3);
  });

  it("shows a message that arrives through its event queue, preview and linkifier link included", async () => {
    const photo = `${site.origin}/img/photo.png`;
    await sendStream(server, "othello", "Verona", "live", `just now ${photo} and #77`);
    const lines = messageLines(await waitFor(["just now photo.png [1] and #77 [2]"]));
    expect(lines.filter((l) => /^\d+: /.test(l)).slice(-2)).toEqual([`1: ${photo}`, "2: https://trac.example.com/ticket/77"]);
  }, 60_000);

  it("narrows to mentions and to a channel, shows a message's information and raw text, sends a reply and searches", async () => {
    const photo = `${site.origin}/img/photo.png`;
    const other = `${site.origin}/img/other.png`;
    const keys = (...k: string[]): string => tmux("send-keys", "-t", "zt", ...k);
    // A key straight after Escape would be read as Meta and that key.
    const escape = async (): Promise<void> => {
      keys("Escape");
      await new Promise((resolve) => setTimeout(resolve, 600));
    };
    keys("#");
    await waitFor(["@ Mentions  Search", "hello @King Hamlet"]);
    keys("s");
    await waitFor(["# Verona  Search", SHOWN.image, SHOWN.python2]);
    keys("j");
    keys("i");
    await waitFor(["Message Information", "othello@zulip.com"]);
    keys("r");
    await waitFor([`look at this ${photo}`]);
    await escape();
    await escape();
    keys("r");
    // The compose box, its recipient filled in from the message replied to.
    await waitFor(["# Verona   ▶ pictures"]);
    keys("-l", `sent from the terminal #55 and ${other}`);
    keys("C-d");
    await waitFor(["sent from the terminal #55 [1] and other.png [2]", "1: https://trac.example.com/ticket/55"]);
    const sent = (await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 1, num_after: 0 })).body.messages[0];
    expect([sent.subject, sent.content]).toEqual(["pictures", `<p>sent from the terminal <a href="https://trac.example.com/ticket/55">#55</a> and <a href="${other}">${other}</a></p>\n${preview(other)}`]);
    await escape();
    keys("a");
    keys("/");
    keys("-l", "ticket");
    keys("Enter");
    const lines = messageLines(await waitFor(["Search Results", SHOWN.linkified]));
    expect(lines.filter((l) => l.startsWith("▒ ") && l !== "▒")).toEqual(["▒ see ticket #4321 [1] please"]);
  }, 90_000);

  it("is still running, and logged no traceback", () => {
    expect(screen()).not.toContain("exited");
    expect(fs.existsSync(path.join(home, "zulip-terminal-tracebacks.log"))).toBe(false);
  });
});
