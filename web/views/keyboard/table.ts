/**
 * The keyboard shortcuts: one row per action of Zulip's keyboard-shortcut help, on the same keys.
 * This table is the only list: `shortcuts.tsx` binds every row with keys (a binding per row id,
 * checked by the type system), the `?` overlay (`help.tsx`) lists every row, and
 * test/web/keyboard.test.ts presses every key of every row. A row whose action Rookery's web app
 * does not have keeps `keys: []` and says why in `absent`.
 *
 * A key is written as KeyboardEvent.key with modifiers: "j", "Shift+J" (an upper-case letter or
 * "Shift+" needs Shift), "Ctrl+s", "Alt+ArrowLeft", "Escape", "?" (a symbol ignores Shift: on most
 * layouts it needs it). Ctrl also matches ⌘ on a Mac.
 */

/**
 * Where a row's keys work:
 * - "global": anywhere but while typing in a text field;
 * - "compose": only in the compose box's text (typing keys there are for the text otherwise);
 * - "drafts" / "channels" / "recent": only in that view.
 */
export type Scope = "global" | "compose" | "drafts" | "channels" | "recent";

export type Row = {
  readonly id: string;
  readonly category: Category;
  /** What the key does, as the overlay lists it. */
  readonly label: string;
  readonly keys: readonly string[];
  readonly scope?: Scope;
  /** The keys are handled by this component rather than shortcuts.tsx (listed and tested like the rest). */
  readonly handledBy?: string;
  /** Why the action is not in Rookery's web app (then keys is []). */
  readonly absent?: string;
};

export const categories = ["The basics", "Search", "Scrolling", "Navigation", "Composing messages", "In the compose box", "Message actions", "Recent conversations", "Drafts", "Menus", "Channel settings"] as const;
export type Category = (typeof categories)[number];

export const rows = [
  // The basics
  { id: "help", category: "The basics", label: "Show or hide this list of keyboard shortcuts", keys: ["?"] },
  { id: "home", category: "The basics", label: "Go to your home view (Esc only when your settings say so)", keys: ["Escape", "Ctrl+["] },
  // Search
  { id: "search", category: "Search", label: "Search messages", keys: ["/", "Ctrl+k"] },
  { id: "filter-channels", category: "Search", label: "Filter channels (in the channel list)", keys: ["q"] },
  { id: "filter-people", category: "Search", label: "Filter people", keys: ["w"] },
  // Scrolling
  { id: "next", category: "Scrolling", label: "Next message", keys: ["ArrowDown", "j"] },
  { id: "previous", category: "Scrolling", label: "Previous message", keys: ["ArrowUp", "k"] },
  { id: "last", category: "Scrolling", label: "Last message (and mark every message here as read)", keys: ["End", "Shift+G"] },
  { id: "first", category: "Scrolling", label: "First message", keys: ["Home"] },
  { id: "page-up", category: "Scrolling", label: "Scroll up", keys: ["PageUp", "Shift+K"] },
  { id: "page-down", category: "Scrolling", label: "Scroll down", keys: ["PageDown", "Shift+J", " "] },
  // Navigation
  { id: "back", category: "Navigation", label: "Go back through viewing history", keys: ["Alt+ArrowLeft"] },
  { id: "forward", category: "Navigation", label: "Go forward through viewing history", keys: ["Alt+ArrowRight"] },
  { id: "next-unread-topic", category: "Navigation", label: "Go to the next unread topic", keys: ["n"] },
  { id: "next-unread-followed", category: "Navigation", label: "Go to the next unread followed topic", keys: ["Shift+N"] },
  { id: "next-unread-dm", category: "Navigation", label: "Go to the next unread direct message", keys: ["p"] },
  { id: "conversation", category: "Navigation", label: "Go to the selected message's topic or DM conversation; from a topic, to its channel", keys: ["s"] },
  { id: "dm-feed", category: "Navigation", label: "Go to the direct message feed", keys: ["Shift+P"] },
  { id: "zoom", category: "Navigation", label: "Show the selected message in its conversation", keys: ["z"] },
  { id: "previous-channel", category: "Navigation", label: "Go to the previous channel", keys: ["Shift+A"] },
  { id: "next-channel", category: "Navigation", label: "Go to the next channel", keys: ["Shift+D"] },
  { id: "inbox", category: "Navigation", label: "Go to the inbox", keys: ["Shift+I"] },
  { id: "recent", category: "Navigation", label: "Go to recent conversations", keys: ["t"] },
  { id: "combined-feed", category: "Navigation", label: "Go to the combined feed", keys: ["a"] },
  { id: "starred", category: "Navigation", label: "Go to starred messages", keys: ["*"] },
  { id: "composing-to", category: "Navigation", label: "Go to the conversation you are writing to", keys: ["Ctrl+."] },
  // Composing messages
  { id: "new-channel-message", category: "Composing messages", label: "New channel message (a new topic)", keys: ["c"] },
  { id: "new-dm", category: "Composing messages", label: "New direct message", keys: ["x"] },
  { id: "reply", category: "Composing messages", label: "Reply to the selected message", keys: ["r", "Enter"] },
  { id: "quote", category: "Composing messages", label: "Quote the selected message", keys: [">"] },
  { id: "reply-sender", category: "Composing messages", label: "Reply to the sender alone", keys: ["Shift+R"] },
  { id: "reply-mention", category: "Composing messages", label: "Reply @-mentioning the sender", keys: ["@"] },
  // In the compose box
  { id: "send", category: "In the compose box", label: "Send (Enter or Ctrl+Enter, by your Enter setting)", keys: ["Enter", "Ctrl+Enter"], scope: "compose", handledBy: "compose.tsx" },
  { id: "send-button", category: "In the compose box", label: "Move to the Send button (then Enter sends)", keys: ["Tab"], scope: "compose" },
  { id: "new-line", category: "In the compose box", label: "New line", keys: ["Shift+Enter"], scope: "compose", handledBy: "the text box itself" },
  { id: "italic", category: "In the compose box", label: "Italic text", keys: ["Ctrl+i"], scope: "compose" },
  { id: "bold", category: "In the compose box", label: "Bold text", keys: ["Ctrl+b"], scope: "compose" },
  { id: "link", category: "In the compose box", label: "Insert a link", keys: ["Ctrl+Shift+L"], scope: "compose" },
  { id: "preview", category: "In the compose box", label: "Preview, and back to writing", keys: ["Alt+p"], scope: "compose" },
  { id: "cancel-compose", category: "In the compose box", label: "Put the message away as a draft", keys: ["Escape", "Ctrl+["], scope: "compose" },
  { id: "paste-formatted", category: "In the compose box", label: "Paste formatted text", keys: [], absent: "pasting is the browser's own: the compose box does not turn pasted HTML into Markdown" },
  // Message actions
  { id: "edit-last", category: "Message actions", label: "Edit your last message here", keys: ["ArrowLeft"] },
  { id: "edit", category: "Message actions", label: "Edit the selected message (or view its source)", keys: ["e"] },
  { id: "user-card", category: "Message actions", label: "Show the sender's card", keys: ["u"] },
  { id: "read-receipts", category: "Message actions", label: "Show or hide read receipts", keys: ["Shift+V"] },
  { id: "view-image", category: "Message actions", label: "View an image", keys: [], absent: "no image viewer: images open in a new tab from the message" },
  { id: "move", category: "Message actions", label: "Move the message (and others in its topic)", keys: ["m"] },
  { id: "edit-history", category: "Message actions", label: "View edit and move history", keys: ["Shift+H"] },
  { id: "star", category: "Message actions", label: "Star or unstar the selected message", keys: ["Ctrl+s"] },
  { id: "thumbs-up", category: "Message actions", label: "React with 👍 (or take it back)", keys: ["+"] },
  { id: "first-reaction", category: "Message actions", label: "Toggle the first emoji reaction", keys: ["="] },
  { id: "mark-unread", category: "Message actions", label: "Mark as unread from the selected message", keys: ["Shift+U"] },
  { id: "collapse", category: "Message actions", label: "Collapse or show the selected message", keys: ["-"] },
  { id: "mute-topic", category: "Message actions", label: "Mute or unmute the selected message's topic (or, in Inbox and Recent, the topic in focus)", keys: ["Shift+M"] },
  // Recent conversations
  { id: "search-recent", category: "Recent conversations", label: "Search recent conversations", keys: [], absent: "the recent conversations view has no search box" },
  { id: "recent-down", category: "Recent conversations", label: "Next conversation (Enter opens it)", keys: ["ArrowDown", "j"], scope: "recent" },
  { id: "recent-up", category: "Recent conversations", label: "Previous conversation", keys: ["ArrowUp", "k"], scope: "recent" },
  { id: "recent-columns", category: "Recent conversations", label: "Move between columns (H/L, ← →)", keys: [], absent: "each row has one control, its conversation's link" },
  // Drafts
  { id: "drafts", category: "Drafts", label: "Show or leave drafts", keys: ["d"] },
  { id: "restore-draft", category: "Drafts", label: "Restore the draft in focus", keys: ["Enter"], scope: "drafts" },
  { id: "delete-draft", category: "Drafts", label: "Delete the draft in focus", keys: ["Backspace"], scope: "drafts" },
  // Menus
  { id: "gear", category: "Menus", label: "Settings (the gear)", keys: ["g"] },
  { id: "personal-menu", category: "Menus", label: "Personal menu", keys: [], absent: "no personal menu: the gear leads to personal settings" },
  { id: "help-menu", category: "Menus", label: "Help menu", keys: [], absent: "no help menu" },
  { id: "emoji-menu", category: "Menus", label: "Open or close the emoji reaction picker for the selected message", keys: [":"] },
  { id: "actions-menu", category: "Menus", label: "Open or close the selected message's actions menu", keys: ["i"] },
  // Channel settings
  { id: "create-channel", category: "Channel settings", label: "Create a channel (in the channel list)", keys: ["n"], scope: "channels" },
  { id: "channel-down", category: "Channel settings", label: "Next channel in the list (from the filter, the first)", keys: ["ArrowDown"], scope: "channels" },
  { id: "channel-up", category: "Channel settings", label: "Previous channel in the list (from the first, the filter)", keys: ["ArrowUp"], scope: "channels" },
  { id: "channel-tabs", category: "Channel settings", label: "Switch between the Subscribed and All channels tabs", keys: [], absent: "one list of all channels, no tabs" },
  { id: "view-channel", category: "Channel settings", label: "View the channel in focus", keys: ["Shift+V"], scope: "channels" },
  { id: "toggle-subscription", category: "Channel settings", label: "Join or leave the channel in focus", keys: ["Shift+S"], scope: "channels" },
] as const satisfies readonly Row[];

export type RowId = (typeof rows)[number]["id"];
/** The rows that have keys (the others are only listed, as absent). */
export type BoundId = Extract<(typeof rows)[number], { keys: readonly [string, ...string[]] }>["id"];

/** A key as a person reads it: "Shift + R", "Ctrl + S", "↓". */
export function keyLabel(key: string): string {
  const parts = splitKey(key);
  const names: Record<string, string> = { ArrowDown: "↓", ArrowUp: "↑", ArrowLeft: "←", ArrowRight: "→", " ": "Space", Escape: "Esc", PageUp: "Page Up", PageDown: "Page Down" };
  const base = names[parts.key] ?? (parts.key.length === 1 ? parts.key.toUpperCase() : parts.key);
  return [parts.ctrl ? "Ctrl" : "", parts.alt ? "Alt" : "", parts.shift ? "Shift" : "", base].filter(Boolean).join(" + ");
}

export type KeySpec = { key: string; ctrl: boolean; alt: boolean; shift: boolean | null };

/** "Ctrl+Shift+L" → its parts; `shift` is null where Shift does not matter (symbols). */
export function splitKey(key: string): KeySpec {
  const parts = key === "+" ? ["+"] : key.split(/\+(?!$)/);
  const base = parts[parts.length - 1] ?? "";
  const mods = new Set(parts.slice(0, -1));
  const letter = /^[a-z]$/i.test(base);
  const named = base.length > 1 || base === " ";
  const shift = letter ? mods.has("Shift") || base !== base.toLowerCase() : named ? mods.has("Shift") : null;
  return { key: letter ? base.toLowerCase() : base, ctrl: mods.has("Ctrl"), alt: mods.has("Alt"), shift };
}

/** Whether a keydown is this key. Letters compare without case (Shift is its own test). */
export function matches(spec: KeySpec, e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">): boolean {
  const k = e.key.length === 1 && /[a-z]/i.test(e.key) ? e.key.toLowerCase() : e.key;
  if (k !== spec.key) return false;
  if ((e.ctrlKey || e.metaKey) !== spec.ctrl || e.altKey !== spec.alt) return false;
  return spec.shift === null || e.shiftKey === spec.shift;
}
