/** /register and the /events long-poll loop: backoff on loss, register again on BAD_EVENT_QUEUE_ID. */
import { ApiError, call } from "./http.js";

/** What the screen should say about the connection. */
export type Connection = "connected" | "reconnecting";

export type EventHandlers = {
  /** A fresh /register answer (at start and after the queue was lost); events are polled for once it has settled. */
  onRegister(snapshot: Record<string, unknown>, again: boolean): void | Promise<void>;
  onEvents(events: Record<string, unknown>[]): void;
  onConnection(state: Connection, retryInSeconds: number): void;
};

/** The client capabilities Zulip's web app sends. */
const capabilities = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
  user_list_incomplete: false,
  include_deactivated_users: true,
};

let liveQueueId = "";
/** The event queue now polled ("" before the first register): POST /messages names it for local echo. */
export const currentQueueId = (): string => liveQueueId;

/**
 * The parts of the state the app shows (state/snapshot.ts reads each; the settings views read
 * linkifiers, playgrounds and default channels). The queue still gets every event type; the rest
 * of the state (domains, default channel groups, bots for administrators, onboarding...) is left
 * out of the answer the page waits for.
 */
const fetchEventTypes = [
  "message",
  "update_message_flags",
  "recent_private_conversations",
  "starred_messages",
  "realm",
  "realm_user",
  "realm_user_groups",
  "realm_emoji",
  "realm_linkifiers",
  "realm_playgrounds",
  "default_streams",
  "custom_profile_fields",
  "subscription",
  "stream",
  "user_topic",
  "presence",
  "user_status",
  "user_settings",
  "muted_users",
  "drafts",
  "alert_words",
  "scheduled_messages",
  "realm_bot",
];

/** POST /json/register as the web app does, asking only for what it shows. */
export function register(): Promise<Record<string, unknown>> {
  return call("POST", "register", { apply_markdown: true, client_gravatar: false, slim_presence: true, include_subscribers: true, client_capabilities: capabilities, fetch_event_types: fetchEventTypes });
}

/** Runs the event loop until `stop` is called. The first register happens inside. */
export function startEvents(handlers: EventHandlers): { stop(): void } {
  let stopped = false;
  let controller = new AbortController();
  let queueId = "";
  let lastEventId = -1;
  let failures = 0;

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const backoff = async () => {
    failures += 1;
    const seconds = Math.min(30, 2 ** Math.min(failures - 1, 5)) * (0.75 + Math.random() * 0.5);
    handlers.onConnection("reconnecting", Math.round(seconds));
    await sleep(seconds * 1000);
  };

  const doRegister = async (again: boolean) => {
    const snapshot = await register();
    queueId = String(snapshot.queue_id);
    liveQueueId = queueId;
    lastEventId = Number(snapshot.last_event_id);
    await handlers.onRegister(snapshot, again);
  };

  const loop = async () => {
    let registered = false;
    while (!stopped) {
      try {
        if (!registered) {
          await doRegister(failures > 0 || queueId !== "");
          registered = true;
        }
        controller = new AbortController();
        const answer = await call<{ events: Record<string, unknown>[] }>("GET", "events", { queue_id: queueId, last_event_id: lastEventId }, controller.signal);
        if (failures > 0) handlers.onConnection("connected", 0);
        failures = 0;
        if (answer.events.length > 0) {
          lastEventId = Math.max(lastEventId, ...answer.events.map((e) => Number(e.id)));
          handlers.onEvents(answer.events);
        }
      } catch (err) {
        if (stopped) return;
        if (err instanceof ApiError && err.status === 401) return;
        if (err instanceof ApiError && err.code === "BAD_EVENT_QUEUE_ID") {
          registered = false;
          continue;
        }
        await backoff();
        // After a failed register keep registering; after a failed poll the queue may still be alive.
      }
    }
  };
  void loop();
  return {
    stop() {
      stopped = true;
      controller.abort();
    },
  };
}
