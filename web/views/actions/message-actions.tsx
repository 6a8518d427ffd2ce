/**
 * The actions of one message (in its row's hover bar): add a reaction, and a menu with quote and
 * reply, edit, move, resolve, delete, copy link, mark unread from here, edit history, read receipts.
 * The dialogs and the emoji picker are a lazily loaded chunk.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { fetchRaw, markUnreadFrom } from "../../api/actions.js";
import { setReaction } from "../../api/messages.js";
import { refOf } from "../../state/conversation.js";
import { echoOf } from "../../state/local-echo.js";
import { apiNarrow, termsToHash } from "../../state/narrow.js";
import { current, route } from "../../state/store.js";
import type { Message, State, Term } from "../../state/types.js";
import { requestCompose } from "../compose/compose.js";
import { closeDialog, openDialog } from "../overlay.js";

const dialogs = () => import("./dialogs.js");
const picker = () => import("./emoji-picker.js");

/** Whether a realm policy (Zulip's numbering: 1 members, 2 admins, 3 full members, 4 moderators, 5 everyone, 6 owners) lets this role act. */
export function policyAllows(policy: unknown, role: number): boolean {
  switch (Number(policy)) {
    case 2:
      return role <= 200;
    case 4:
      return role <= 300;
    case 5:
      return true;
    case 6:
      return role <= 100;
    default:
      return role <= 400;
  }
}

const within = (limit: unknown, since: number) => limit === null || limit === undefined || Number(limit) === 0 || Date.now() / 1000 - since <= Number(limit) + 10;

/** What you may do to this message, by the organisation's settings. */
export function permissions(s: State, m: Message) {
  const role = s.users.get(s.me)?.role ?? 400;
  const mine = m.sender_id === s.me;
  const r = s.realm;
  const isStream = m.type === "stream";
  const moderator = role <= 300;
  const editContent = mine && r.realm_allow_message_editing !== false && within(r.realm_message_content_edit_limit_seconds, m.timestamp);
  const editTopic = isStream && r.realm_allow_message_editing !== false && policyAllows(r.realm_edit_topic_policy, role) && (moderator || within(r.realm_move_messages_within_stream_limit_seconds, m.timestamp));
  const moveChannel = isStream && policyAllows(r.realm_move_messages_between_streams_policy, role) && (moderator || within(r.realm_move_messages_between_streams_limit_seconds, m.timestamp));
  const del = role <= 200 || (mine && policyAllows(r.realm_delete_own_message_policy, role) && within(r.realm_message_content_delete_limit_seconds, m.timestamp));
  return { editContent, editTopic, moveChannel, delete: del };
}

/** The permalink of a message: its conversation's narrow with /near/<id>. */
export function permalink(s: State, m: Message): string {
  const ref = refOf(m, s.me);
  const terms: Term[] = ref.kind === "stream" ? [{ operator: "channel", operand: String(ref.streamId) }, { operator: "topic", operand: ref.topic }] : [{ operator: "dm", operand: ref.key }];
  return `${location.origin}/${termsToHash([...terms, { operator: "near", operand: String(m.id) }], s)}`;
}

/** Zulip's quote: a silent mention, a link to the message, and the source in a quote fence longer than any fence inside. */
export function quoteOf(s: State, m: Message, raw: string): string {
  const name = s.users.get(m.sender_id)?.full_name ?? m.sender_full_name;
  let fence = "```";
  while (raw.includes(fence)) fence += "`";
  return `@_**${name}|${m.sender_id}** [said](${permalink(s, m)}):\n${fence}quote\n${raw}\n${fence}\n`;
}

export function MessageActions({ message: m }: { message: Message }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    addEventListener("mousedown", away);
    addEventListener("keydown", esc);
    box.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      removeEventListener("mousedown", away);
      removeEventListener("keydown", esc);
    };
  }, [open]);
  if (echoOf(m)) return null;

  const run = (fn: () => void | Promise<unknown>) => () => {
    setOpen(false);
    const out = fn();
    if (out instanceof Promise) out.catch((err: Error) => setNote(err.message));
  };
  return (
    <div class="message-actions" ref={box}>
      <button
        type="button"
        class="icon-button"
        aria-label="Add emoji reaction"
        title="Add emoji reaction"
        onClick={() =>
          void picker().then((p) =>
            p.openPicker((e) => {
              closeDialog();
              void setReaction(m.id, e, true).catch((err: Error) => setNote(err.message));
            }),
          )
        }
      >
        ☺<span class="plus">+</span>
      </button>
      <button type="button" class="icon-button" aria-label="Message actions" title="Message actions" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        ⋮
      </button>
      {open && <ActionsMenu m={m} run={run} setNote={setNote} />}
      {note && (
        <span class="action-note" role="status" onAnimationEnd={() => setNote("")}>
          {note}
        </span>
      )}
    </div>
  );
}

/** The open menu: what you may do, by the organisation's settings (worked out only when the menu opens). */
function ActionsMenu({ m, run, setNote }: { m: Message; run: (fn: () => void | Promise<unknown>) => () => void; setNote: (note: string) => void }) {
  const s = current();
  const can = permissions(s, m);
  const resolved = m.subject.startsWith("✔ ");
  const items: [string, () => void, boolean][] = [
    [
      "Quote and reply",
      run(async () => {
        const raw = await fetchRaw(m.id);
        const ref = refOf(m, s.me);
        requestCompose(ref.kind === "stream" ? { kind: "stream", streamId: ref.streamId, topic: ref.topic } : { kind: "private", to: ref.key.split(",").map(Number) }, quoteOf(current(), m, raw));
      }),
      true,
    ],
    [can.editContent ? "Edit message" : "View message source", run(async () => (await dialogs()).openEdit(m, can.editContent, can.editTopic)), true],
    ["Move messages", run(async () => (await dialogs()).openMove(m, can.moveChannel)), can.editTopic || can.moveChannel],
    [resolved ? "Mark as unresolved" : "Mark as resolved", run(async () => (await dialogs()).toggleResolved(m)), can.editTopic],
    [
      "Copy link to message",
      run(async () => {
        const link = permalink(s, m);
        try {
          await navigator.clipboard.writeText(link);
          setNote("Link copied");
        } catch {
          openDialog("Link to message", () => <input class="wide-input" readOnly value={link} aria-label="Link" onFocus={(e) => e.currentTarget.select()} />);
        }
      }),
      true,
    ],
    [
      "Mark as unread from here",
      run(() => {
        const r = route.value;
        return markUnreadFrom(apiNarrow(r.view === "feed" ? r.terms : []), m.id);
      }),
      true,
    ],
    ["View edit history", run(async () => (await dialogs()).openHistory(m)), m.last_edit_timestamp !== undefined],
    ["View read receipts", run(async () => (await dialogs()).openReceipts(m)), s.realm.realm_enable_read_receipts !== false],
    ["Delete message", run(async () => (await dialogs()).openDelete(m)), can.delete],
  ];
  return (
    <ul class="menu" role="menu" aria-label="Message actions">
      {items
        .filter(([, , shown]) => shown)
        .map(([label, fn]) => (
          <li key={label} role="none">
            <button type="button" role="menuitem" class={label === "Delete message" ? "danger" : ""} onClick={fn}>
              {label}
            </button>
          </li>
        ))}
    </ul>
  );
}
