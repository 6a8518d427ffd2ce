import { write, type AppContext } from "../context.js";
import type { Updateable } from "kysely";
import type { SubscriptionTable } from "../db/schema.js";
import { updateSubscription } from "../db/queries/subscriptions.js";
import type { UserRow } from "../db/queries/users.js";
import type { SubscriptionEvent } from "../events/types.js";
import { badRequest } from "../base/errors.js";
import { accessStreamById } from "../lib/channels/streams.js";

/** One entry of subscription_data. */
export interface PropertyChange {
  stream_id: number;
  property: string;
  value: string | boolean | number;
}

const BOOLEAN_PROPERTIES = new Set([
  "is_muted",
  "in_home_view",
  "pin_to_top",
  "desktop_notifications",
  "audible_notifications",
  "push_notifications",
  "email_notifications",
  "wildcard_mentions_notify",
]);

type Checked = { streamId: number; property: string; value: string | boolean };

/**
 * POST /users/me/subscriptions/properties. Every entry is checked (in order, with Zulip's
 * messages) before anything is written, then all are written in one transaction. Each change
 * sends subscription update to the user's own clients only, even when the value is unchanged;
 * is_muted / in_home_view send the legacy in_home_view event first, then is_muted.
 */
export async function checkUpdateSubscriptionProperties(ctx: AppContext, user: UserRow, changes: readonly PropertyChange[]): Promise<void> {
  const checked: Checked[] = [];
  for (const change of changes) {
    if (change.property !== "color" && !BOOLEAN_PROPERTIES.has(change.property)) {
      throw badRequest(`Unknown subscription property: ${change.property}`);
    }
    const { sub } = await accessStreamById(ctx.db, user, change.stream_id);
    if (!sub) throw badRequest(`Not subscribed to channel ID ${change.stream_id}`);
    checked.push({ streamId: change.stream_id, property: change.property, value: checkValue(change.property, change.value) });
  }
  await write(ctx, async (tx, outbox) => {
    for (const { streamId, property, value } of checked) {
      const send = (event: Omit<Extract<SubscriptionEvent, { op: "update" }>, "type" | "op" | "stream_id">) =>
        outbox.send({ type: "subscription", op: "update", stream_id: streamId, ...event }, [user.id]);
      if (property === "is_muted" || property === "in_home_view") {
        const muted = property === "is_muted" ? value === true : value === false;
        await updateSubscription(tx, user.id, streamId, { is_muted: muted ? 1 : 0 });
        send({ property: "in_home_view", value: !muted });
        send({ property: "is_muted", value: muted });
        continue;
      }
      const set: Updateable<SubscriptionTable> = property === "color" ? { color: String(value) } : { [property]: value ? 1 : 0 };
      await updateSubscription(tx, user.id, streamId, set);
      send({ property, value });
    }
  });
}

/** Zulip's check_color (`#` and 3–6 hex digits) and check_bool, named after the property. */
function checkValue(property: string, value: unknown): string | boolean {
  if (property === "color") {
    if (typeof value !== "string") throw badRequest(`${property} is not a string`);
    if (!/^#[0-9a-fA-F]{3,6}$/.test(value)) throw badRequest(`${property} is not a valid hex color code`);
    return value;
  }
  if (typeof value !== "boolean") throw badRequest(`${property} is not a boolean`);
  return value;
}
