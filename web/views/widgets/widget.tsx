/**
 * /poll and /todo widgets: built from a message's submessages (the first one, from the sender,
 * names the widget; the others are votes, options, tasks, ticks), answered through POST /submessage.
 * Every string in them is the users' text, so it is shown as text.
 */
import { useState } from "preact/hooks";
import { sendSubmessage } from "../../api/actions.js";
import { userName } from "../../state/conversation.js";
import type { Message, State } from "../../state/types.js";

type Sub = { sender_id: number; content: string };
type Dict = Record<string, unknown>;

function parse(sub: unknown): { sender: number; data: Dict } | null {
  const x = sub as Sub;
  try {
    const data = JSON.parse(x.content) as unknown;
    return typeof data === "object" && data !== null ? { sender: Number(x.sender_id), data: data as Dict } : null;
  } catch {
    return null;
  }
}

export function Widget({ s, m }: { s: State; m: Message }) {
  const subs = m.submessages.map(parse).filter((x): x is { sender: number; data: Dict } => x !== null);
  const head = subs[0];
  const extra = (head?.data.extra_data ?? {}) as Dict;
  if (head?.data.widget_type === "poll") return <Poll s={s} m={m} extra={extra} events={subs.slice(1)} />;
  if (head?.data.widget_type === "todo") return <Todo s={s} m={m} extra={extra} events={subs.slice(1)} />;
  return <div class="content rendered" dangerouslySetInnerHTML={{ __html: m.content }} />;
}

type Events = { sender: number; data: Dict }[];

function Poll({ s, m, extra, events }: { s: State; m: Message; extra: Dict; events: Events }) {
  const [option, setOption] = useState("");
  const [error, setError] = useState("");
  let question = typeof extra.question === "string" ? extra.question : "";
  const options = new Map<string, { text: string; votes: Set<number> }>();
  (Array.isArray(extra.options) ? extra.options : []).forEach((o, i) => options.set(`canned,${i}`, { text: String(o), votes: new Set() }));
  let myIdx = 1;
  for (const { sender, data } of events) {
    if (data.type === "question" && sender === m.sender_id) question = String(data.question);
    else if (data.type === "new_option") {
      const key = `${sender},${Number(data.idx)}`;
      if (!options.has(key)) options.set(key, { text: String(data.option), votes: new Set() });
      if (sender === s.me) myIdx = Math.max(myIdx, Number(data.idx) + 1);
    } else if (data.type === "vote") {
      const o = options.get(String(data.key));
      if (o) {
        if (Number(data.vote) === 1) o.votes.add(sender);
        else o.votes.delete(sender);
      }
    }
  }
  const act = (content: Dict) => void sendSubmessage(m.id, content).catch((err: Error) => setError(err.message));
  return (
    <div class="widget poll">
      <h4 class="question">{question || "(No question)"}</h4>
      <ul>
        {[...options.entries()].map(([key, o]) => {
          const mine = o.votes.has(s.me);
          return (
            <li key={key}>
              <button type="button" class={mine ? "vote mine" : "vote"} aria-pressed={mine} aria-label={`Vote for ${o.text}`} onClick={() => act({ type: "vote", key, vote: mine ? -1 : 1 })}>
                {o.votes.size}
              </button>
              <span class="option">{o.text}</span>
              {o.votes.size > 0 && <span class="voters">({[...o.votes].map((id) => userName(s, id)).join(", ")})</span>}
            </li>
          );
        })}
      </ul>
      <form
        class="widget-add"
        onSubmit={(e) => {
          e.preventDefault();
          if (option.trim() === "") return;
          act({ type: "new_option", idx: myIdx, option: option.trim() });
          setOption("");
        }}
      >
        <input aria-label="New option" placeholder="New option" value={option} onInput={(e) => setOption(e.currentTarget.value)} />
        <button type="submit">Add option</button>
      </form>
      {error && <p class="compose-error" role="alert">{error}</p>}
    </div>
  );
}

function Todo({ s, m, extra, events }: { s: State; m: Message; extra: Dict; events: Events }) {
  const [task, setTask] = useState("");
  const [error, setError] = useState("");
  let title = typeof extra.task_list_title === "string" && extra.task_list_title !== "" ? extra.task_list_title : "Task list";
  const tasks = new Map<string, { task: string; desc: string; done: boolean }>();
  (Array.isArray(extra.tasks) ? (extra.tasks as Dict[]) : []).forEach((t, i) => tasks.set(`${i},canned`, { task: String(t.task ?? ""), desc: String(t.desc ?? ""), done: false }));
  let myIdx = 0;
  for (const { sender, data } of events) {
    if (data.type === "new_task_list_title" && sender === m.sender_id) title = String(data.title);
    else if (data.type === "new_task") {
      const key = `${Number(data.key)},${sender}`;
      if (!tasks.has(key)) tasks.set(key, { task: String(data.task), desc: String(data.desc ?? ""), done: data.completed === true });
      if (sender === s.me) myIdx = Math.max(myIdx, Number(data.key) + 1);
    } else if (data.type === "strike") {
      const t = tasks.get(String(data.key));
      if (t) t.done = !t.done;
    }
  }
  // A tick shows at once, until a submessage arrives (ours, or anyone's) or the send fails: a redraw
  // of the row before then (selecting it, say) must not take the tick back.
  const [ticked, setTicked] = useState<{ key: string; done: boolean; seen: number } | null>(null);
  const act = (content: Dict) => void sendSubmessage(m.id, content).catch((err: Error) => setError(err.message));
  const strike = (key: string, done: boolean) => {
    setTicked({ key, done, seen: events.length });
    void sendSubmessage(m.id, { type: "strike", key }).catch((err: Error) => {
      setTicked(null);
      setError(err.message);
    });
  };
  const shownDone = (key: string, done: boolean) => (ticked?.key === key && ticked.seen === events.length ? ticked.done : done);
  return (
    <div class="widget todo">
      <h4 class="question">{title}</h4>
      <ul>
        {[...tasks.entries()].map(([key, t]) => (
          <li key={key} class={t.done ? "done" : ""}>
            <label>
              <input type="checkbox" checked={shownDone(key, t.done)} onChange={() => strike(key, !shownDone(key, t.done))} />
              <strong>{t.task}</strong>
              {t.desc && <span class="desc">: {t.desc}</span>}
            </label>
          </li>
        ))}
      </ul>
      <form
        class="widget-add"
        onSubmit={(e) => {
          e.preventDefault();
          if (task.trim() === "") return;
          act({ type: "new_task", key: myIdx, task: task.trim(), desc: "", completed: false });
          setTask("");
        }}
      >
        <input aria-label="New task" placeholder="New task" value={task} onInput={(e) => setTask(e.currentTarget.value)} />
        <button type="submit">Add task</button>
      </form>
      {error && <p class="compose-error" role="alert">{error}</p>}
    </div>
  );
}
