/** The part of zulip-js (which ships no types) the integration test drives. */
declare module "zulip-js" {
  /** A decoded JSON answer: success or error envelope and the endpoint's fields. */
  export type ZulipResult = { result: "success" | "error"; msg: string; code?: string } & Record<string, unknown>;

  export interface ZulipClient {
    queues: {
      register(params: { event_types?: string[] | null } & Record<string, unknown>): Promise<ZulipResult>;
      deregister(params: { queue_id: string }): Promise<ZulipResult>;
    };
    events: {
      retrieve(params: { queue_id: string; last_event_id: number; dont_block?: boolean }): Promise<ZulipResult>;
    };
    typing: {
      send(params: { to: number[]; op: "start" | "stop"; type?: string }): Promise<ZulipResult>;
    };
    users: {
      me: { getProfile(): Promise<ZulipResult> };
    };
    callEndpoint(endpoint: string, method?: string, params?: Record<string, unknown>): Promise<ZulipResult>;
    /** Registers a queue and long-polls it forever, calling `callback` for each event. */
    callOnEachEvent(callback: (event: { id: number; type: string } & Record<string, unknown>) => void, eventTypes?: string[] | null): Promise<void>;
  }

  /** Builds a client from credentials (or a zuliprc file). */
  export default function zulip(config: { username: string; apiKey: string; realm: string } | { zuliprc: string }): Promise<ZulipClient>;
}
