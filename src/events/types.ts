/**
 * Every event the server emits, declared once. The `id` is added by the queue that delivers it.
 * Literal `type` and `op` let the compiler check each emitter and each consumer.
 */

/** The user object as realm_user add carries it. */
export type ApiUser = Record<string, unknown> & { user_id: number };

export type RealmUserEvent =
  | { type: "realm_user"; op: "add"; person: ApiUser }
  | { type: "realm_user"; op: "remove"; person: { user_id: number; full_name: string } }
  | { type: "realm_user"; op: "update"; person: { user_id: number } & Record<string, unknown> };

export type RealmBotEvent = { type: "realm_bot"; op: "update"; bot: { user_id: number } & Record<string, unknown> };

export type HeartbeatEvent = { type: "heartbeat" };

/** Any event that can be queued. Later areas add their members to this union. */
export type AppEvent = RealmUserEvent | RealmBotEvent | HeartbeatEvent;

/** An event and the ids of the users whose queues receive it. */
export interface QueuedEvent {
  event: AppEvent;
  userIds: readonly number[];
}
