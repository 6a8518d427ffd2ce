/**
 * The server's Markdown writes a Unicode emoji as `<span class="emoji emoji-1f419" …>:octopus:</span>`
 * (Zulip's web app draws it from a sprite sheet). This puts the character itself in its place, as
 * text, in rendered HTML already in the page; the system's colour emoji font draws it.
 */
import { emojiChar } from "./format.js";

const CODE = /(?:^|\s)emoji-([0-9a-f]+(?:-[0-9a-f]+)*)(?:\s|$)/;

export function fillEmoji(root: ParentNode): void {
  for (const span of root.querySelectorAll<HTMLElement>("span.emoji:not([data-char])")) {
    const code = CODE.exec(span.className)?.[1];
    span.dataset.char = "1";
    if (!code) continue;
    const char = emojiChar(code);
    if (char !== "?") span.textContent = char;
  }
}
