import type { ScheduledMessageObject } from "../../events/types.js";
import { byDeliveryTime, pendingScheduledMessages } from "../messages/scheduled.js";
import type { StateSection } from "./types.js";

/** scheduled_messages: the user's messages not yet sent, soonest first; scheduled_messages events applied to it. */
export const scheduledMessagesSection: StateSection = {
  types: ["scheduled_messages"],
  async fetch(ctx, user, want, _opts, state) {
    if (want("scheduled_messages")) state.scheduled_messages = await pendingScheduledMessages(ctx.db, user);
  },
  apply(state, event) {
    if (event.type !== "scheduled_messages" || !Array.isArray(state.scheduled_messages)) return;
    const list = state.scheduled_messages as ScheduledMessageObject[];
    let next: ScheduledMessageObject[];
    if (event.op === "add") next = [...list, ...event.scheduled_messages.map((m) => structuredClone(m))];
    else if (event.op === "update") next = list.map((m) => (m.scheduled_message_id === event.scheduled_message.scheduled_message_id ? structuredClone(event.scheduled_message) : m));
    else next = list.filter((m) => m.scheduled_message_id !== event.scheduled_message_id);
    state.scheduled_messages = next.sort(byDeliveryTime);
  },
};
