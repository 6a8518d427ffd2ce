/**
 * The widget a new message's content asks for (`/poll …`, `/todo …`), as Zulip 9.0 reads it, and
 * the JSON text of the `widget` submessage that carries it. Zulip is a Python server, so its notion
 * of whitespace and of lines (str.isspace, str.splitlines) and its JSON text (json.dumps with
 * ASCII escapes and ", "/": " separators) are what clients see and are reproduced here.
 */

/** The kinds of widget a message can start with. */
export type WidgetType = "poll" | "todo";

/** The widget of a message: its type and the data its first lines preset. */
export interface Widget {
  widgetType: WidgetType;
  extraData: PollExtraData | TodoExtraData;
}

/** A poll's preset question and options. */
export interface PollExtraData {
  question: string;
  options: string[];
}

/** A to-do list's preset title and tasks. */
export interface TodoExtraData {
  task_list_title: string;
  tasks: { task: string; desc: string }[];
}

// Python's whitespace (str.isspace, and `\s` in its str patterns).
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const FIRST_WORD = new RegExp(`^[^${SPACE}]*`);
const EDGE_SPACE = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");
// A list marker some people type before each option or task: `- ` or `* `.
const LIST_MARKER = new RegExp(`^[-*]?[${SPACE}]*`);
// Python's line boundaries (str.splitlines).
const BREAK_CHARS = "\\n\\r\\v\\f\\x1c\\x1d\\x1e\\x85\\u2028\\u2029";
const LINE_BREAK = new RegExp(`\\r\\n|[${BREAK_CHARS}]`);

/** The widget a message's content starts with, or undefined for an ordinary message. */
export function widgetOf(content: string): Widget | undefined {
  if (!content.startsWith("/")) return undefined;
  const command = FIRST_WORD.exec(content)?.[0] ?? "";
  if (command !== "/poll" && command !== "/todo") return undefined;
  const lines = splitLines(content.slice(command.length));
  // The rest of the command's line is the question or title; the lines after it are the items.
  const heading = lines.length > 0 && lines[0] !== "" ? pyStrip(lines.shift() ?? "") : "";
  const items = lines.map((line) => pyStrip(line).replace(LIST_MARKER, "")).filter((item) => item.length > 0);
  if (command === "/poll") return { widgetType: "poll", extraData: { question: heading, options: items } };
  return {
    widgetType: "todo",
    extraData: {
      task_list_title: heading,
      tasks: items.map((item) => {
        // A task's description follows the first ": ".
        const at = item.indexOf(": ");
        return at < 0 ? { task: pyStrip(item), desc: "" } : { task: pyStrip(item.slice(0, at)), desc: pyStrip(item.slice(at + 2)) };
      }),
    },
  };
}

/** The content of the `widget` submessage, byte for byte as Zulip stores it. */
export function widgetSubmessageContent(widget: Widget): string {
  return pythonJson({ widget_type: widget.widgetType, extra_data: widget.extraData });
}

/** The widget type a stored `widget` submessage names, or undefined when it names none. */
export function widgetTypeOf(content: string): unknown {
  try {
    const data: unknown = JSON.parse(content);
    return typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>).widget_type : undefined;
  } catch {
    return undefined;
  }
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(LINE_BREAK);
  // A final line break ends the last line rather than starting an empty one.
  if (LINE_BREAK.test(text.slice(-1))) lines.pop();
  return lines;
}

function pyStrip(text: string): string {
  return text.replace(EDGE_SPACE, "");
}

/** JSON text as Python's json.dumps writes it with its default options. */
function pythonJson(value: unknown): string {
  if (typeof value === "string") return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value).map(([k, v]) => `${pythonString(k)}: ${pythonJson(v)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

function pythonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    const code = text.charCodeAt(i);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    // Everything outside printable ASCII is written as \uXXXX (UTF-16 units, lower-case hex).
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}
