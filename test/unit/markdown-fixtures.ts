import type { RenderContext } from "../../src/markdown/index.js";

const users = [
  { id: 8, fullName: "Iago" },
  { id: 10, fullName: "King Hamlet" },
  { id: 11, fullName: "Cordelia, Lear's daughter" },
  { id: 12, fullName: "Othello, the Moor of Venice" },
  { id: 20, fullName: "Mark Twin" },
  { id: 21, fullName: "Mark Twin" },
];
const groups = [
  { id: 30, name: "hamletcharacters" },
  { id: 31, name: "support" },
];
const channels = [
  { id: 1, name: "Denmark" },
  { id: 2, name: "core team" },
  { id: 3, name: "Verona" },
];

/** The organisation the markdown tests render against (realm at zulip.testserver, as in Zulip's tests, with its default settings). */
export function testContext(): RenderContext {
  return {
    userByName: (name) => users.filter((u) => u.fullName.toLowerCase() === name.toLowerCase()),
    userById: (id) => users.find((u) => u.id === id),
    groupByName: (name) => groups.find((g) => g.name === name),
    channelByName: (name) => channels.find((c) => c.name === name),
    realmEmoji: (name) => (name === "green_tick" ? { id: "1", name, url: "/user_avatars/2/emoji/images/1.png" } : undefined),
    // The organisation default: previews of images on.
    inlineImagePreview: true,
    realmUrl: "http://zulip.testserver",
  };
}
