import type { Message } from "../../state/types.js";

/**
 * Mount point for message actions (webapp-b): edit, delete, move, resolve, quote, copy link, mark
 * unread, edit history, read receipts, the emoji picker. Rendered inside each message row's hover bar.
 */
export function MessageActions(_props: { message: Message }) {
  return null;
}
