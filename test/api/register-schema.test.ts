/**
 * Every key Zulip documents for POST /register's 200 response at feature level 277, present
 * exactly when its fetch_event_types entry is requested: walks the reference document's schema.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { documentedResponseProperties, referenceAvailable, type DocumentedProperty } from "../harness/openapi.js";
import { startServer, type TestServer } from "../harness/server.js";

const FEATURE_LEVEL = 277;

/** Keys sent whatever fetch_event_types says. */
const ALWAYS = new Set(["result", "msg", "queue_id", "last_event_id", "zulip_version", "zulip_feature_level", "zulip_merge_base"]);

/**
 * Keys the document leaves without a "Present if `x` is present in `fetch_event_types`" sentence,
 * with the entry zerver/lib/events.py's fetch_initial_state_data gates them on. (Where the sentence
 * is there, it agrees with events.py.) is_billing_admin and the legacy keys below were removed
 * after level 277, so the document no longer has them; the validator's version table adds them.
 */
const ENTRY_OF: Readonly<Record<string, string>> = {
  drafts: "drafts",
  realm_default_streams: "default_streams",
  is_billing_admin: "realm_user",
  dense_mode: "update_display_settings",
  realm_add_custom_emoji_policy: "realm",
  realm_user_group_edit_policy: "realm",
  realm_invite_to_realm_policy: "realm",
  realm_invite_to_stream_policy: "realm",
  realm_move_messages_between_streams_policy: "realm",
  realm_edit_topic_policy: "realm",
  realm_delete_own_message_policy: "realm",
  realm_bot_creation_policy: "realm",
};

/**
 * Documented keys a level-277 server does not send in the situations this test sets up, as Zulip
 * 9 does not: why, for each.
 */
const CONDITIONAL: Readonly<Record<string, string>> = {
  // Only when a request carried parameters the endpoint did not read.
  ignored_parameters_unsupported: "only for ignored parameters",
  // Only for a demo organization (realm.demo_organization_scheduled_deletion_date set).
  demo_organization_scheduled_deletion_date: "only for demo organizations",
  // Documented at the top level, but Zulip 9 sends it only inside user_settings: it is not one of
  // UserProfile.display_settings_legacy / notification_settings_legacy, which are frozen.
  receives_typing_notifications: "user_settings only",
};

/** Zulip's "Changes: New in Zulip X (feature level N)": newer than us when N > 277. */
function newerThanUs(description: string): boolean {
  const match = /New in Zulip [\d.]+ \(feature level (\d+)\)/.exec(description);
  return match !== null && Number(match[1]) > FEATURE_LEVEL;
}

/** The fetch_event_types entries a key needs (both, for unread_msgs). */
function entriesOf(property: DocumentedProperty): string[] {
  const explicit = ENTRY_OF[property.name];
  if (explicit !== undefined) return [explicit];
  const text = property.description.replace(/\s+/g, " ");
  const both = /Present if `(\w+)` and `(\w+)` are both present in `(?:fetch_)?event_types`/.exec(text);
  if (both) return [both[1]!, both[2]!];
  const one = /Present if `(\w+)` is present in `fetch_event_types`/.exec(text);
  if (one) return [one[1]!];
  throw new Error(`${property.name}: the document does not say which fetch_event_types entry brings it; add it to ENTRY_OF`);
}

const LEGACY_ENTRIES = ["update_display_settings", "update_global_notifications"];

interface OwedKey {
  name: string;
  entries: string[];
  properties: DocumentedProperty[];
}

/** The register response keys a level-277 server owes, each with its entries. */
function owedKeys(): OwedKey[] {
  const documented = documentedResponseProperties("POST", "/register", 200);
  return documented
    .filter((p) => !ALWAYS.has(p.name) && !(p.name in CONDITIONAL) && !newerThanUs(p.description))
    .map((p) => ({ name: p.name, entries: entriesOf(p), properties: p.properties.filter((sub) => !newerThanUs(sub.description)) }));
}


/** Documented keys of the value of `key` that `value` lacks (objects only, one level down). */
function missingInside(key: OwedKey, value: unknown): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value) || key.properties.length === 0) return [];
  // realm_user_settings_defaults and user_settings document each setting; nothing below is conditional.
  return key.properties.filter((sub) => !(sub.name in value)).map((sub) => `${key.name}.${sub.name}`);
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function register(params: Record<string, unknown>): Promise<Json> {
  const res = await server.as("hamlet").post("/register", { client_capabilities: { notification_settings_null: true }, ...params } as never);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe.skipIf(!referenceAvailable())("POST /register against the documented response (feature level 277)", () => {
  it("with fetch_event_types and event_types omitted, sends every documented key", async () => {
    const state = await register({});
    const keys = owedKeys();
    const missing = keys.filter((k) => !(k.name in state)).map((k) => k.name);
    const missingNested = keys.filter((k) => k.name in state).flatMap((k) => missingInside(k, state[k.name]));
    expect([...missing, ...missingNested]).toEqual([]);
  });

  it("the legacy settings keys are left out for clients declaring user_settings_object, as Zulip does", async () => {
    const state = await register({ client_capabilities: { notification_settings_null: true, user_settings_object: true } });
    const legacy = owedKeys().filter((k) => k.entries.some((e) => LEGACY_ENTRIES.includes(e)));
    expect(legacy.length).toBeGreaterThan(20);
    expect(legacy.filter((k) => k.name in state).map((k) => k.name)).toEqual([]);
    expect(state.user_settings).toBeDefined();
  });

  it("each fetch_event_types entry requested alone brings exactly its own keys", async () => {
    const keys = owedKeys();
    const entries = [...new Set(keys.flatMap((k) => k.entries))].sort();
    const problems: string[] = [];
    for (const entry of entries) {
      // unread_msgs needs both of its entries; asked for alone, one of them does not bring it.
      const state = await register({ fetch_event_types: [entry] });
      for (const key of keys) {
        const wanted = key.entries.every((e) => e === entry);
        if (wanted && !(key.name in state)) problems.push(`${entry}: ${key.name} missing`);
        if (!wanted && key.name in state) problems.push(`${entry}: ${key.name} sent, but it belongs to ${key.entries.join(" + ")}`);
      }
    }
    const both = await register({ fetch_event_types: ["message", "update_message_flags"] });
    if (!("unread_msgs" in both)) problems.push("message + update_message_flags: unread_msgs missing");
    expect(problems).toEqual([]);
  });

  it("muted_topics is left out when the client names user_topic too, as Zulip does", async () => {
    const alone = await register({ fetch_event_types: ["muted_topics"] });
    expect(alone.muted_topics).toEqual([]);
    const both = await register({ fetch_event_types: ["muted_topics", "user_topic"] });
    expect(both.muted_topics).toBeUndefined();
    expect(both.user_topics).toEqual([]);
  });
});
