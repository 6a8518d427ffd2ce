import { badRequest } from "../../../base/errors.js";

/**
 * Zulip 9.0's checks on what readers send to a poll or a to-do list (POST /submessage), with its
 * validators' exact messages. The data was JSON-decoded by a Python server, where `true` and
 * `false` are integers too; that is kept.
 */

// This should match the widgets' own limit on option and task indexes (Zulip's MAX_IDX).
const MAX_INDEX = 1000;

type Checker = (value: unknown, name: string) => void;

/** Validates a poll event; only the poll's author may change its question. */
export function checkPollData(data: unknown, isWidgetAuthor: boolean): void {
  const type = typeOf(data, "poll data");
  if (type === "vote") return onlyKeys(data, "poll data", { type: isString, key: isString, vote: intIn([1, -1]) });
  if (type === "question") {
    if (!isWidgetAuthor) throw badRequest("You can't edit a question unless you are the author.");
    return onlyKeys(data, "poll data", { type: isString, question: isString });
  }
  if (type === "new_option") return onlyKeys(data, "poll data", { type: isString, option: isString, idx: intRange(0, MAX_INDEX) });
  throw badRequest(`Unknown type for poll data: ${type}`);
}

/** Validates a to-do list event; only the list's author may change its title. */
export function checkTodoData(data: unknown, isWidgetAuthor: boolean): void {
  const type = typeOf(data, "todo data");
  if (type === "new_task") {
    return onlyKeys(data, "todo data", { type: isString, key: intRange(0, MAX_INDEX), task: isString, desc: isString, completed: isBool });
  }
  if (type === "strike") return onlyKeys(data, "todo data", { type: isString, key: isString });
  if (type === "new_task_list_title") {
    if (!isWidgetAuthor) throw badRequest("You can't edit the task list title unless you are the author.");
    return onlyKeys(data, "todo data", { type: isString, title: isString });
  }
  throw badRequest(`Unknown type for todo data: ${type}`);
}

function typeOf(data: unknown, name: string): string {
  const dict = asDict(data, name);
  if (!("type" in dict)) throw badRequest(`type key is missing from ${name}`);
  isString(dict.type, `${name}["type"]`);
  return String(dict.type);
}

function onlyKeys(data: unknown, name: string, keys: Record<string, Checker>): void {
  const dict = asDict(data, name);
  for (const [key, check] of Object.entries(keys)) {
    if (!(key in dict)) throw badRequest(`${key} key is missing from ${name}`);
    check(dict[key], `${name}["${key}"]`);
  }
  const unexpected = Object.keys(dict).filter((key) => !(key in keys));
  if (unexpected.length > 0) throw badRequest(`Unexpected arguments: ${unexpected.join(", ")}`);
}

function asDict(data: unknown, name: string): Record<string, unknown> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw badRequest(`${name} is not a dict`);
  return data as Record<string, unknown>;
}

const isString: Checker = (value, name) => {
  if (typeof value !== "string") throw badRequest(`${name} is not a string`);
};

const isBool: Checker = (value, name) => {
  if (typeof value !== "boolean") throw badRequest(`${name} is not a boolean`);
};

function asInt(value: unknown, name: string): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value !== "number" || !Number.isInteger(value)) throw badRequest(`${name} is not an integer`);
  return value;
}

function intIn(allowed: readonly number[]): Checker {
  return (value, name) => {
    if (!allowed.includes(asInt(value, name))) throw badRequest(`Invalid ${name}`);
  };
}

function intRange(low: number, high: number): Checker {
  return (value, name) => {
    const n = asInt(value, name);
    if (n < low) throw badRequest(`${name} is too small`);
    if (n > high) throw badRequest(`${name} is too large`);
  };
}
