import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { userIdsOfMessage } from "../db/queries/messages.js";
import { hasSubmessageFrom, insertSubmessage, widgetContentOf } from "../db/queries/submessages.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest } from "../base/errors.js";
import { accessMessage } from "../lib/messages/access.js";
import { apiSubmessage } from "../lib/messages/dict.js";
import { widgetOf, widgetSubmessageContent, widgetTypeOf } from "../lib/messages/widgets/parse.js";
import { checkPollData, checkTodoData } from "../lib/messages/widgets/validate.js";

/** POST /submessage as decoded. */
export interface SubmessageInput {
  messageId: number;
  msgType: string;
  content: string;
}

/**
 * Zulip's process_submessage: the message must be readable; the first submessage on a message
 * must come from its sender; content must be JSON, and for a poll or to-do list a valid update
 * of it. Sends `submessage` to everyone holding a row for the message (Zulip 9.0's choice: not
 * the subscribers who never received it).
 */
export async function checkAddSubmessage(ctx: AppContext, user: UserRow, input: SubmessageInput): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const { message } = await accessMessage(tx, user, input.messageId);
    if (message.sender_id !== user.id && !(await hasSubmessageFrom(tx, message.id, message.sender_id))) {
      throw badRequest("You cannot attach a submessage to this message.");
    }
    let data: unknown;
    try {
      data = JSON.parse(input.content);
    } catch {
      throw badRequest("Invalid json for submessage");
    }
    const widget = await widgetContentOf(tx, message.id);
    const widgetType = widget === undefined ? undefined : widgetTypeOf(widget);
    const isAuthor = message.sender_id === user.id;
    if (widgetType === "poll") checkPollData(data, isAuthor);
    if (widgetType === "todo") checkTodoData(data, isAuthor);
    await doAddSubmessage(tx, outbox, { messageId: message.id, senderId: user.id, msgType: input.msgType, content: input.content });
  });
}

/** Stores a submessage and sends `submessage` to the users holding a row for its message. */
export async function doAddSubmessage(tx: Db, outbox: Outbox, s: { messageId: number; senderId: number; msgType: string; content: string }): Promise<void> {
  const id = await insertSubmessage(tx, { message_id: s.messageId, sender_id: s.senderId, msg_type: s.msgType, content: s.content });
  outbox.send(
    { type: "submessage", msg_type: s.msgType, message_id: s.messageId, submessage_id: id, sender_id: s.senderId, content: s.content },
    await userIdsOfMessage(tx, s.messageId),
  );
}

/**
 * Zulip's do_widget_post_save_actions for a message being sent: content starting with `/poll` or
 * `/todo` gets a `widget` submessage from the sender. Returns the message's submessages as its
 * `message` event carries them (no event of its own: the message event announces it).
 */
export async function doCreateWidget(tx: Db, message: { id: number; senderId: number; content: string }): Promise<Record<string, unknown>[]> {
  const widget = widgetOf(message.content);
  if (!widget) return [];
  const row = { message_id: message.id, sender_id: message.senderId, msg_type: "widget", content: widgetSubmessageContent(widget) };
  const id = await insertSubmessage(tx, row);
  return [apiSubmessage({ id, ...row })];
}
