import type { AppContext } from "../context.js";
import type { UserRow } from "../db/queries/users.js";
import { badRequest } from "../base/errors.js";
import { bool, choice, int, isBool, isDict, isList, isNullable, isStr, json, type Check } from "../http/params.js";
import { applyEvents, fetchState } from "../lib/state/apply.js";
import type { StateOptions } from "../lib/state/types.js";
import { Role } from "../lib/users/roles.js";
import type { AppEvent } from "../events/types.js";
import { NARROW_OPERATORS } from "../events/narrow.js";
import type { QueueOptions } from "../events/queue.js";
import { DEFAULT_LIFESPAN_SECS, MAX_LIFESPAN_SECS } from "../events/queues.js";

/**
 * The client_capabilities Rookery understands (Zulip's ClientCapabilities at feature level 275).
 * Others, such as those newer clients declare for later servers, are accepted and ignored when
 * their value is a boolean, as Zulip 9's check_dict does.
 */
export const CAPABILITIES = [
  "notification_settings_null",
  "bulk_message_deletion",
  "user_avatar_url_field_optional",
  "stream_typing_notifications",
  "user_settings_object",
  "linkifier_url_template",
  "user_list_incomplete",
  "include_deactivated_groups",
] as const;

type Narrow = [string, string][];

const isNarrow: Check<Narrow> = (value, name) =>
  isList<[string, string]>((term, termName) => {
    const pair = isList(isStr())(term, termName);
    if (pair.length !== 2) throw badRequest(`${termName} should have exactly 2 items`);
    return [pair[0]!, pair[1]!];
  })(value, name);

const optionalCapabilities = Object.fromEntries(CAPABILITIES.filter((c) => c !== "notification_settings_null").map((c) => [c, isBool]));

/** POST /register's parameters (all optional). */
export const registerParams = {
  apply_markdown: bool().default(false),
  client_gravatar: bool().default(true),
  include_subscribers: choice(["true", "false", "partial"]).default("false"),
  slim_presence: bool().default(false),
  all_public_streams: bool().optional(),
  client_capabilities: json(isDict({ notification_settings_null: isBool }, optionalCapabilities, isBool)).optional(),
  event_types: json(isNullable(isList(isStr()))).optional(),
  fetch_event_types: json(isNullable(isList(isStr()))).optional(),
  narrow: json(isNarrow).default([]),
  queue_lifespan_secs: int().default(0),
};

/** GET /events' registration parameters, read only when queue_id is absent (Zulip's defaults differ). */
export const pollRegisterParams = {
  apply_markdown: bool().default(false),
  client_gravatar: bool().default(false),
  slim_presence: bool().default(false),
  all_public_streams: bool().default(false),
  event_types: json(isNullable(isList(isStr()))).optional(),
  narrow: json(isNarrow).default([]),
  lifespan_secs: int().default(0),
  ...Object.fromEntries(CAPABILITIES.filter((c) => c !== "notification_settings_null").map((c) => [c, bool().default(false)])),
};

/** What a queue is registered with, decoded from either endpoint's parameters. */
export interface Registration {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  slimPresence: boolean;
  allPublicStreams: boolean | undefined;
  capabilities: Record<string, boolean>;
  eventTypes: readonly string[] | null;
  narrow: Narrow;
  lifespanSecs: number;
}

/** Validates a registration and turns it into queue options (Zulip's checks, in its order). */
export function queueOptions(user: UserRow, reg: Registration): QueueOptions {
  const allPublicStreams = reg.allPublicStreams ?? false;
  if (allPublicStreams && user.role === Role.GUEST) throw badRequest("User not authorized for this query");
  for (const [operator] of reg.narrow) {
    if (!NARROW_OPERATORS.includes(operator)) throw badRequest(`Operator ${operator} not supported.`);
  }
  const lifespan = reg.lifespanSecs <= 0 ? DEFAULT_LIFESPAN_SECS : Math.min(reg.lifespanSecs, MAX_LIFESPAN_SECS);
  return {
    userId: user.id,
    realmId: user.realm_id,
    eventTypes: reg.eventTypes,
    narrow: reg.narrow,
    allPublicStreams,
    capabilities: reg.capabilities,
    applyMarkdown: reg.applyMarkdown,
    clientGravatar: reg.clientGravatar,
    slimPresence: reg.slimPresence,
    lifespanSecs: lifespan,
  };
}

/**
 * Registers a queue and returns it with the initial state, race-free in Zulip's order: the queue
 * exists before the state is read, so a change committed meanwhile is both queued and folded
 * into the state here; `last_event_id` tells the client which queued events the state already has.
 */
export async function registerQueue(
  ctx: AppContext,
  user: UserRow,
  reg: Registration,
  fetchTypes: readonly string[] | null,
  includeSubscribers: boolean | "partial",
): Promise<Record<string, unknown>> {
  const options = queueOptions(user, reg);
  const queue = ctx.queues.create(options);
  // Durable before the client learns the queue's id (a crash after this keeps the queue).
  const registered = ctx.durable?.register(queue) ?? ctx.cluster?.keeper.register(queue);
  const stateOptions: StateOptions = {
    clientGravatar: reg.clientGravatar,
    slimPresence: reg.slimPresence,
    applyMarkdown: reg.applyMarkdown,
    includeSubscribers,
    allPublicStreams: options.allPublicStreams,
    capabilities: reg.capabilities,
    narrow: reg.narrow,
  };
  const state = await fetchState(ctx, user, fetchTypes, stateOptions);
  const arrived = [...queue.events];
  applyEvents(state, arrived as unknown as AppEvent[], user, stateOptions);
  await registered;
  return { queue_id: queue.id, last_event_id: arrived.length > 0 ? arrived[arrived.length - 1]!.id : -1, ...state };
}
