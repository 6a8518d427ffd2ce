import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { parse } from "yaml";
import { readReference, referenceDir } from "./reference.js";

/**
 * Validate one HTTP response; throws an Error with a readable message listing schema errors, or
 * returns void. Without the reference directory (see reference.ts) it checks nothing.
 */
export function validateResponse(method: string, path: string, status: number, body: unknown): void {
  if (referenceDir === undefined) return;
  const verb = normaliseMethod(method);
  const concrete = normalisePath(path);
  const label = `${method.toUpperCase()} ${concrete} → ${status}`;
  if (isUndocumented(verb, concrete)) return;
  const candidates = operationsFor(verb, concrete);
  if (candidates.length === 0) throw new Error(`${label}: Zulip's OpenAPI document has no operation for this method and path`);
  const failures: string[] = [];
  for (const template of candidates) {
    const pointers = responsePointers(template, verb, status);
    if (pointers.length === 0) failures.push(`${template}: no response documented for ${status} (documented: ${documentedStatuses(template, verb)})`);
    for (const pointer of pointers) {
      if (pointer === "") return; // documented without a JSON body: nothing to check
      const problems = check(pointer, body);
      if (problems === undefined) return;
      failures.push(`${template} (${pointer}):\n${problems}`);
    }
  }
  throw new Error(`${label} does not match Zulip's OpenAPI document:\n${failures.join("\n")}`);
}

/**
 * Validate one event object (as returned in GET /events `events`) against the /events 200
 * response's event union. Without the reference directory it checks nothing.
 */
export function validateEvent(event: unknown): void {
  if (referenceDir === undefined) return;
  if (!isObj(event) || typeof event.type !== "string" || typeof event.id !== "number") {
    throw new Error(`event must be an object with a string "type" and a numeric "id": ${JSON.stringify(event)}`);
  }
  const op = typeof event.op === "string" ? event.op : undefined;
  const label = `event type=${event.type}${op === undefined ? "" : ` op=${op}`}`;
  const type = event.type;
  const alternatives = eventAlternatives().filter(
    (alt) => (alt.types?.includes(type) ?? true) && (op === undefined || (alt.ops?.includes(op) ?? true)),
  );
  if (alternatives.length === 0) throw new Error(`${label}: no such event type/op in Zulip's OpenAPI document`);
  // The union is a oneOf whose alternatives overlap, so any match is accepted (anyOf semantics).
  const failures: string[] = [];
  for (const alt of alternatives) {
    const problems = check(alt.pointer, event);
    if (problems === undefined) return;
    failures.push(`${alt.pointer}:\n${problems}`);
  }
  throw new Error(`${label} does not match Zulip's OpenAPI document:\n${failures.join("\n")}\nevent: ${JSON.stringify(event)}`);
}

/** True when the document has an operation for this method+path. */
export function hasOperation(method: string, path: string): boolean {
  return operationsFor(normaliseMethod(method), normalisePath(path)).length > 0;
}

type Obj = { [key: string]: unknown };
interface EventAlternative { pointer: string; types: string[] | undefined; ops: string[] | undefined }
interface Spec { doc: Obj; paths: Obj; ajv: Ajv }

const SPEC_FILE = "zulip-openapi.yaml";
const DOC_ID = "zulip-openapi.json";
/** Zulip documents its errors common to all endpoints (400, 401, 429) on this pseudo-endpoint. */
const COMMON_ERRORS: readonly [string, string] = ["/rest-error-handling", "post"];

/** Endpoints Zulip serves but does not document, as "METHOD /template"; their responses are not checked. */
const UNDOCUMENTED_ENDPOINTS: readonly string[] = [
  // Zulip serves these but leaves them out of its OpenAPI document.
  "POST /users/me/api_key/regenerate",
  "PATCH /realm",
  "GET /realm/domains",
  "POST /realm/domains",
  "PATCH /realm/domains/{domain}",
  "DELETE /realm/domains/{domain}",
  "POST /submessage",
  // Default channel groups, an experimental feature whose endpoints Zulip does not document.
  "POST /default_stream_groups/create",
  "PATCH /default_stream_groups/{group_id}",
  "DELETE /default_stream_groups/{group_id}",
  "PATCH /default_stream_groups/{group_id}/streams",
  "POST /users/me/avatar",
  "DELETE /users/me/avatar",
  "POST /realm/icon",
  "DELETE /realm/icon",
  "POST /realm/logo",
  "DELETE /realm/logo",
];

/**
 * Properties a feature-level-275 server sends that Zulip 11's document forbids or types differently.
 * Each names the component schema whose closed object (additionalProperties: false) gains or replaces the property.
 */
const KNOWN_VERSION_DIFFERENCES: readonly { schema: string; property: string; definition: Obj }[] = [
  // Removed in Zulip 10.0 (feature level 363), replaced by the realm's can_manage_billing_group; sent at 275.
  { schema: "get_own_user_200_response", property: "is_billing_admin", definition: { type: "boolean" } },
  { schema: "User", property: "is_billing_admin", definition: { type: "boolean" } },
  { schema: "register_queue_200_response_allOf_cross_realm_bots_inner", property: "is_billing_admin", definition: { type: "boolean" } },
  { schema: "register_queue_200_response", property: "is_billing_admin", definition: { type: "boolean" } },
  // Replaced by can_add_custom_emoji_group in Zulip 10.0 (feature level 307); sent at 275.
  { schema: "register_queue_200_response", property: "realm_add_custom_emoji_policy", definition: { type: "integer" } },
  // Replaced by can_create_groups/can_manage_all_groups (FL 299), can_invite_users_group (FL 321) and can_add_subscribers_group (FL 341); sent at 275.
  { schema: "register_queue_200_response", property: "realm_user_group_edit_policy", definition: { type: "integer" } },
  { schema: "register_queue_200_response", property: "realm_invite_to_realm_policy", definition: { type: "integer" } },
  { schema: "register_queue_200_response", property: "realm_invite_to_stream_policy", definition: { type: "integer" } },
  // dense_mode: a personal setting until Zulip 11 (feature level 364); sent at 275 in user_settings, the defaults and the legacy top level.
  { schema: "register_queue_200_response", property: "dense_mode", definition: { type: "boolean" } },
  { schema: "register_queue_200_response_allOf_user_settings", property: "dense_mode", definition: { type: "boolean" } },
  { schema: "register_queue_200_response_allOf_realm_user_settings_defaults", property: "dense_mode", definition: { type: "boolean" } },
  // Before Zulip 10.0 (feature level 330) default channels were sent as channel objects, not ids; before FL 343 stream delete carried whole channel objects.
  { schema: "register_queue_200_response", property: "realm_default_streams", definition: { type: "array", items: { $ref: "#/components/schemas/BasicChannel" } } },
  { schema: "get_events_200_response_allOf_events_inner_oneOf_29", property: "default_streams", definition: { type: "array", items: { $ref: "#/components/schemas/BasicChannel" } } },
  { schema: "get_events_200_response_allOf_events_inner_oneOf_17", property: "streams", definition: { type: "array", items: { $ref: "#/components/schemas/BasicChannel" } } },
  // Not a version difference: Zulip adds local_message_id to the message event for the queue named in POST /messages' queue_id (the client's local echo), and its document leaves it out.
  { schema: "get_events_200_response_allOf_events_inner_oneOf_10", property: "local_message_id", definition: { type: "string" } },
  // Replaced by can_move_messages_between_channels_group (FL 310) and can_move_messages_between_topics_group (FL 316); sent at 275.
  { schema: "register_queue_200_response", property: "realm_move_messages_between_streams_policy", definition: { type: "integer" } },
  { schema: "register_queue_200_response", property: "realm_edit_topic_policy", definition: { type: "integer" } },
  // Message edit history entries carried prev_rendered_content_version until Zulip 10.0 (feature level 284).
  { schema: "MessagesBase_edit_history_inner", property: "prev_rendered_content_version", definition: { type: "integer" } },
  // Not a version difference: MOVE_MESSAGES_TIME_LIMIT_EXCEEDED's fields appear only in the example of an
  // alternative of PATCH /messages/{id}'s 400 built on the closed CodedError.
  { schema: "CodedError", property: "first_message_id_allowed_to_move", definition: { type: "integer", nullable: true } },
  { schema: "CodedError", property: "total_messages_in_topic", definition: { type: "integer" } },
  { schema: "CodedError", property: "total_messages_allowed_to_move", definition: { type: "integer" } },
  // Replaced by can_delete_own_message_group (FL 291) and can_create_bots_group (FL 344); sent at 277.
  { schema: "register_queue_200_response", property: "realm_delete_own_message_policy", definition: { type: "integer" } },
  { schema: "register_queue_200_response", property: "realm_bot_creation_policy", definition: { type: "integer" } },
  // Replaced by can_move_messages_between_topics_group (FL 316); its changes came as realm update_dict at 277.
  { schema: "get_events_200_response_allOf_events_inner_oneOf_67_data", property: "edit_topic_policy", definition: { type: "integer" } },
  // Removed from server_supported_permission_settings in Zulip 10.0 (feature level 326); sent at 277.
  { schema: "GroupPermissionSetting", property: "allow_owners_group", definition: { type: "boolean" } },
  { schema: "GroupPermissionSetting", property: "id_field_name", definition: { type: "string" } },
  // Not a version difference: Zulip's ValidationFailureError (linkifiers, code playgrounds) adds the Django
  // field errors as `errors`, which the document leaves out.
  { schema: "CodedError", property: "errors", definition: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } } },
  // Before Zulip 10.0 (feature level 330) default channel groups carried channel objects, not ids.
  { schema: "DefaultChannelGroup", property: "streams", definition: { type: "array", items: { $ref: "#/components/schemas/BasicChannel" } } },
  // Not a version difference: the document says integer, but Zulip sends seconds as a float (its own example: 28.7…).
  { schema: "RateLimitedError", property: "retry-after", definition: { type: "number" } },
];

/**
 * Properties Zulip 11's document requires that a feature-level-275 server does not send yet, per
 * component schema: they stay allowed but are no longer required.
 */
const LATER_REQUIRED: readonly { schema: string; properties: readonly string[] }[] = [
  // Channel objects: is_archived (FL 315), is_recently_active (FL 323), can_subscribe_group (FL 357), folder_id (FL 389), subscriber_count (FL 394).
  { schema: "BasicChannel", properties: ["can_subscribe_group", "folder_id", "is_archived", "is_recently_active", "subscriber_count"] },
  {
    schema: "get_streams_200_response_allOf_streams_inner",
    properties: ["can_subscribe_group", "folder_id", "is_archived", "is_recently_active", "subscriber_count"],
  },
  // Custom profile fields: editable_by_user (FL 296).
  { schema: "CustomProfileField", properties: ["editable_by_user"] },
];

const ANNOTATIONS = new Set(["description", "example", "examples", "deprecated", "title", "default", "readOnly", "writeOnly"]);
let spec: Spec | undefined;
const validators = new Map<string, ValidateFunction>();
let events: EventAlternative[] | undefined;

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function normaliseMethod(method: string): string {
  const lower = method.toLowerCase();
  return lower === "head" ? "get" : lower;
}

function normalisePath(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? "";
  return bare.startsWith("/api/v1/") ? bare.slice("/api/v1".length) : bare;
}

function loadSpec(): Spec {
  if (spec !== undefined) return spec;
  const text = readReference(SPEC_FILE);
  if (text === undefined) throw new Error(`Zulip's ${SPEC_FILE} is needed here: set the reference directory (see test/harness/reference.ts)`);
  const raw: unknown = parse(text);
  if (!isObj(raw) || !isObj(raw.paths) || !isObj(raw.components) || !isObj(raw.components.schemas)) {
    throw new Error(`${SPEC_FILE} is not an OpenAPI document`);
  }
  for (const { schema, property, definition } of KNOWN_VERSION_DIFFERENCES) {
    addAllowedProperty(raw.components.schemas, schema, property, definition);
  }
  for (const { schema, properties } of LATER_REQUIRED) dropRequired(raw.components.schemas, schema, properties);
  const flat = flatten(raw, raw, new Map());
  const doc = toJsonSchema(flat);
  if (!isObj(doc) || !isObj(doc.paths)) throw new Error("normalising the OpenAPI document failed");
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false, logger: false });
  ajv.addSchema(doc, DOC_ID);
  spec = { doc, paths: doc.paths, ajv };
  return spec;
}

function dropRequired(schemas: Obj, name: string, properties: readonly string[]): void {
  const schema = schemas[name];
  const parts = isObj(schema) ? [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])] : [];
  const holders = parts.filter((part): part is Obj => isObj(part) && Array.isArray(part.required));
  if (holders.length === 0) throw new Error(`LATER_REQUIRED: ${name} has no required list`);
  for (const part of holders) part.required = (part.required as unknown[]).filter((p) => typeof p !== "string" || !properties.includes(p));
}

function addAllowedProperty(schemas: Obj, name: string, property: string, definition: Obj): void {
  const schema = schemas[name];
  const parts = isObj(schema) ? [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])] : [];
  const closed = parts.find((part): part is Obj => isObj(part) && part.additionalProperties === false && isObj(part.properties));
  if (closed === undefined || !isObj(closed.properties)) throw new Error(`KNOWN_VERSION_DIFFERENCES: ${name} has no closed object`);
  closed.properties[property] = definition;
}

function at(root: Obj, pointer: string): unknown {
  const keys = pointer.split("/").slice(1).map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"));
  return keys.reduce<unknown>((node, key) => (isObj(node) ? node[key] : undefined), root);
}

function deref(root: Obj, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObj(current) && typeof current.$ref === "string" && hops < 20; hops++) {
    current = at(root, current.$ref.slice(1));
  }
  return current;
}

/** Merges `allOf` members into one schema, so OpenAPI's `{nullable: true}` overrides apply to the base's property. */
function flatten(root: Obj, node: unknown, memo: Map<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((item) => flatten(root, item, memo));
  if (!isObj(node)) return node;
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === "example" || key === "examples" ? value : flatten(root, value, memo);
  if (!Array.isArray(out.allOf)) return out;
  const members = out.allOf.map((member) => {
    const ref = isObj(member) && typeof member.$ref === "string" ? member.$ref : undefined;
    if (ref === undefined) return member;
    if (!memo.has(ref)) memo.set(ref, flatten(root, deref(root, member), memo));
    return memo.get(ref);
  });
  const rest: Obj = { ...out };
  delete rest.allOf;
  const merged = members.reduce<Obj | undefined>((acc, member) => (acc !== undefined && isObj(member) ? merge(acc, member) : undefined), rest);
  return merged ?? out;
}

/** Intersection of two schemas when it is expressible without allOf, else undefined. */
function merge(a: Obj, b: Obj): Obj | undefined {
  const out: Obj = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (mine === undefined || ANNOTATIONS.has(key)) out[key] = value;
    else if (key === "nullable") out[key] = mine === true || value === true;
    else if (key === "required" && Array.isArray(mine) && Array.isArray(value)) out[key] = [...new Set([...mine, ...value])];
    else if (key === "properties" && isObj(mine) && isObj(value)) out[key] = mergeProperties(mine, value);
    else if (JSON.stringify(mine) !== JSON.stringify(value)) return undefined;
  }
  // A closed member only admits its own properties; keep that after merging.
  const closed = [a, b]
    .filter((part) => part.additionalProperties === false)
    .map((part) => Object.keys(isObj(part.properties) ? part.properties : {}));
  if (closed.length > 0 && isObj(out.properties)) {
    const props = out.properties;
    out.properties = Object.fromEntries(Object.entries(props).filter(([name]) => closed.every((names) => names.includes(name))));
    out.additionalProperties = false;
  }
  return out;
}

function mergeProperties(a: Obj, b: Obj): Obj {
  const out: Obj = { ...a };
  for (const [name, schema] of Object.entries(b)) {
    const mine = out[name];
    out[name] = isObj(mine) && isObj(schema) ? (merge(mine, schema) ?? { allOf: [mine, schema] }) : schema;
  }
  return out;
}

/** OpenAPI 3.0 → JSON Schema: `nullable` becomes a null type; `oneOf` becomes `anyOf`, as Zulip's alternatives overlap. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!isObj(node)) return node;
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "example" || key === "examples") out[key] = value;
    else if (key === "oneOf") out.anyOf = toJsonSchema(value);
    else out[key] = toJsonSchema(value);
  }
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  if (typeof out.type === "string") return { ...out, type: [out.type, "null"] };
  return Object.keys(out).some((key) => !ANNOTATIONS.has(key)) ? { anyOf: [{ type: "null" }, out] } : out;
}

function isUndocumented(verb: string, concrete: string): boolean {
  return UNDOCUMENTED_ENDPOINTS.some((entry) => {
    const [entryMethod = "", template = ""] = entry.split(" ");
    return normaliseMethod(entryMethod) === verb && matchedTemplates(concrete, [template]).length > 0;
  });
}

function matchedTemplates(concrete: string, templates: readonly string[]): string[] {
  const segments = concrete.split("/");
  const scored: [string, string][] = [];
  for (const template of templates) {
    const parts = template.split("/");
    if (parts.length !== segments.length) continue;
    const score = parts
      .map((part, i) => (part.startsWith("{") && part.endsWith("}") && segments[i] !== "" ? "0" : part === segments[i] ? "1" : "x"))
      .join("");
    if (!score.includes("x")) scored.push([template, score]);
  }
  // Literal segments beat templates, left to right (`/users/me` over `/users/{user_id}`).
  const best = scored.reduce((max, [, score]) => (score > max ? score : max), "");
  return scored.filter(([, score]) => score === best).map(([template]) => template);
}

function operationsFor(verb: string, concrete: string): string[] {
  const { paths } = loadSpec();
  return matchedTemplates(concrete, Object.keys(paths)).filter((template) => {
    const item = paths[template];
    return isObj(item) && isObj(item[verb]);
  });
}

function pointerOf(...keys: string[]): string {
  return keys.map((key) => `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/**
 * Pointers to the schemas a response may match: the operation's own response for the status (exact, `4XX`, `default`)
 * and Zulip's common error response for it; "" stands for a documented response without a JSON body.
 */
function responsePointers(template: string, verb: string, status: number): string[] {
  const codes = [String(status), `${Math.floor(status / 100)}XX`, "default"];
  const own = responseAt(pointerOf("paths", template, verb, "responses"), codes);
  const common = responseAt(pointerOf("paths", ...COMMON_ERRORS, "responses"), [String(status)]);
  return [own, common].filter((pointer): pointer is string => pointer !== undefined);
}

function responseAt(responsesPointer: string, codes: readonly string[]): string | undefined {
  const { doc } = loadSpec();
  const responses = at(doc, responsesPointer);
  const code = isObj(responses) ? codes.find((candidate) => candidate in responses) : undefined;
  if (code === undefined) return undefined;
  let base = `${responsesPointer}${pointerOf(code)}`;
  let response = at(doc, base);
  if (isObj(response) && typeof response.$ref === "string") {
    base = response.$ref.slice(1);
    response = deref(doc, response);
  }
  const content = isObj(response) && isObj(response.content) ? response.content["application/json"] : undefined;
  return isObj(content) && content.schema !== undefined ? `${base}${pointerOf("content", "application/json", "schema")}` : "";
}

function documentedStatuses(template: string, verb: string): string {
  const operation = at(loadSpec().doc, pointerOf("paths", template, verb));
  return isObj(operation) && isObj(operation.responses) ? Object.keys(operation.responses).join(", ") : "none";
}

/** Undefined when `value` matches the schema at `pointer`, else the readable errors. */
function check(pointer: string, value: unknown): string | undefined {
  let validate = validators.get(pointer);
  if (validate === undefined) {
    const fragment = pointer.split("/").map(encodeURIComponent).join("/");
    validate = loadSpec().ajv.compile({ $ref: `${DOC_ID}#${fragment}` });
    validators.set(pointer, validate);
  }
  if (validate(value)) return undefined;
  return formatErrors(validate.errors ?? []);
}

function formatErrors(errors: readonly ErrorObject[]): string {
  const lines = errors.map((error) => {
    const where = error.instancePath === "" ? "(root)" : error.instancePath;
    const params = "additionalProperty" in error.params ? ` '${String(error.params.additionalProperty)}'` : "";
    const allowed = error.keyword === "enum" ? ` ${JSON.stringify(error.params.allowedValues)}` : "";
    return `  ${where} ${error.message ?? error.keyword}${params}${allowed}`;
  });
  const unique = [...new Set(lines)];
  return unique.length > 25 ? [...unique.slice(0, 25), `  … and ${unique.length - 25} more`].join("\n") : unique.join("\n");
}

function eventAlternatives(): EventAlternative[] {
  if (events !== undefined) return events;
  const { doc } = loadSpec();
  const [responsePointer] = responsePointers("/events", "get", 200);
  if (responsePointer === undefined || responsePointer === "") throw new Error("the document has no GET /events 200 schema");
  const response = deref(doc, at(doc, responsePointer));
  const eventsProperty = isObj(response) && isObj(response.properties) ? response.properties.events : undefined;
  const items = isObj(eventsProperty) ? eventsProperty.items : undefined;
  const itemsRef = isObj(items) && typeof items.$ref === "string" ? items.$ref : `#${responsePointer}/properties/events/items`;
  const union = deref(doc, items);
  const list = isObj(union) && Array.isArray(union.anyOf) ? union.anyOf : [];
  events = list.map((alt: unknown, i) => {
    const pointer = isObj(alt) && typeof alt.$ref === "string" ? alt.$ref.slice(1) : `${itemsRef.slice(1)}/anyOf/${i}`;
    const schema = deref(doc, alt);
    const props = isObj(schema) && isObj(schema.properties) ? schema.properties : {};
    return { pointer, types: enumOf(doc, props.type), ops: enumOf(doc, props.op) };
  });
  return events;
}

function enumOf(doc: Obj, node: unknown): string[] | undefined {
  const schema = deref(doc, node);
  if (!isObj(schema)) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum.filter((value): value is string => typeof value === "string");
  const members = Array.isArray(schema.allOf) ? schema.allOf : [];
  return members.map((member) => enumOf(doc, member)).find((values) => values !== undefined);
}

/** A property a response schema documents: its name, its description and, for objects, its own properties. */
export interface DocumentedProperty {
  name: string;
  description: string;
  properties: DocumentedProperty[];
}

/** Whether Zulip's reference document is where the validator reads it. */
export function referenceAvailable(): boolean {
  return referenceDir !== undefined;
}

/**
 * The properties the reference document gives a JSON response at its top level (POST /register's
 * 200: the state keys), each with the properties of its value when that is an object.
 */
export function documentedResponseProperties(method: string, path: string, status: number): DocumentedProperty[] {
  const verb = normaliseMethod(method);
  const [template] = operationsFor(verb, normalisePath(path));
  if (template === undefined) throw new Error(`no operation for ${method} ${path}`);
  const [pointer] = responsePointers(template, verb, status);
  if (pointer === undefined || pointer === "") throw new Error(`no JSON response documented for ${method} ${path} ${status}`);
  const { doc } = loadSpec();
  return propertiesOf(doc, deref(doc, at(doc, pointer)));
}

function propertiesOf(doc: Obj, schema: unknown): DocumentedProperty[] {
  const resolved = deref(doc, schema);
  // A nullable object becomes anyOf [null, object] in toJsonSchema.
  const object = isObj(resolved) && Array.isArray(resolved.anyOf) ? resolved.anyOf.map((alt) => deref(doc, alt)).find((alt) => isObj(alt) && isObj(alt.properties)) : resolved;
  if (!isObj(object) || !isObj(object.properties)) return [];
  return Object.entries(object.properties).map(([name, value]) => {
    const property = deref(doc, value);
    const description = isObj(property) && typeof property.description === "string" ? property.description : "";
    return { name, description, properties: propertiesOf(doc, property) };
  });
}
