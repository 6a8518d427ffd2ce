/** The message dialogs (a lazily loaded chunk): edit, move, delete, edit history, read receipts. */
import { useEffect, useState } from "preact/hooks";
import { deleteMessage, editMessage, fetchHistory, fetchRaw, fetchReadReceipts, type EditInput, type HistoryEntry } from "../../api/actions.js";
import { userName } from "../../state/conversation.js";
import { current } from "../../state/store.js";
import type { Message } from "../../state/types.js";
import { Avatar } from "../avatar.js";
import { fullTimeOf } from "../format.js";
import { closeDialog, openDialog } from "../overlay.js";

const RESOLVED = "✔ ";

function useAction(): [string, boolean, (p: Promise<unknown>) => void] {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const go = (p: Promise<unknown>) => {
    setBusy(true);
    setError("");
    p.then(closeDialog, (err: Error) => {
      setBusy(false);
      setError(err.message);
    });
  };
  return [error, busy, go];
}

const ErrorLine = ({ error }: { error: string }) => (error ? <p class="compose-error" role="alert">{error}</p> : null);

export function openEdit(m: Message, editContent: boolean, editTopic: boolean): void {
  openDialog(editContent ? "Edit message" : "Message source", () => <EditForm m={m} editContent={editContent} editTopic={editTopic} />, true);
}

function EditForm({ m, editContent, editTopic }: { m: Message; editContent: boolean; editTopic: boolean }) {
  const [raw, setRaw] = useState<string | null>(null);
  const [topic, setTopic] = useState(m.subject);
  const [error, busy, go] = useAction();
  useEffect(() => {
    fetchRaw(m.id).then(setRaw, () => setRaw(""));
  }, [m.id]);
  if (raw === null) return <p role="status">Loading…</p>;
  return (
    <form
      class="dialog-form"
      onSubmit={(e) => {
        e.preventDefault();
        const input: EditInput = {};
        const content = (e.currentTarget.elements.namedItem("content") as HTMLTextAreaElement).value;
        if (editContent && content !== raw) input.content = content;
        if (editTopic && m.type === "stream" && topic !== m.subject) Object.assign(input, { topic, propagate_mode: "change_one" });
        if (Object.keys(input).length === 0) closeDialog();
        else go(editMessage(m.id, input));
      }}
    >
      {m.type === "stream" && editTopic && (
        <label>
          Topic
          <input value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />
        </label>
      )}
      <label>
        Message
        <textarea name="content" rows={8} readOnly={!editContent} defaultValue={raw} autoFocus />
      </label>
      <ErrorLine error={error} />
      <div class="buttons">
        <button type="button" onClick={closeDialog}>
          {editContent ? "Cancel" : "Close"}
        </button>
        {editContent && (
          <button type="submit" class="primary" disabled={busy}>
            Save
          </button>
        )}
      </div>
    </form>
  );
}

export function openMove(m: Message, betweenChannels: boolean): void {
  openDialog("Move messages", () => <MoveForm m={m} betweenChannels={betweenChannels} />);
}

function MoveForm({ m, betweenChannels }: { m: Message; betweenChannels: boolean }) {
  const s = current();
  const [streamId, setStreamId] = useState(m.stream_id ?? 0);
  const [topic, setTopic] = useState(m.subject);
  const [mode, setMode] = useState<NonNullable<EditInput["propagate_mode"]>>("change_all");
  const [notifyOld, setNotifyOld] = useState(false);
  const [notifyNew, setNotifyNew] = useState(true);
  const [error, busy, go] = useAction();
  const channels = [...s.subs.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <form
      class="dialog-form"
      onSubmit={(e) => {
        e.preventDefault();
        const input: EditInput = { propagate_mode: mode, send_notification_to_old_thread: notifyOld, send_notification_to_new_thread: notifyNew };
        if (topic !== m.subject) input.topic = topic;
        if (streamId !== m.stream_id) input.stream_id = streamId;
        if (input.topic === undefined && input.stream_id === undefined) closeDialog();
        else go(editMessage(m.id, input));
      }}
    >
      <label>
        Channel
        <select value={String(streamId)} disabled={!betweenChannels} onChange={(e) => setStreamId(Number(e.currentTarget.value))}>
          {channels.map((c) => (
            <option key={c.stream_id} value={String(c.stream_id)}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Topic
        <input value={topic} onInput={(e) => setTopic(e.currentTarget.value)} autoFocus />
      </label>
      <label>
        Which messages
        <select value={mode} onChange={(e) => setMode(e.currentTarget.value as typeof mode)}>
          <option value="change_one">Move only this message</option>
          <option value="change_later">Move this and all following messages in this topic</option>
          <option value="change_all">Move all messages in this topic</option>
        </select>
      </label>
      <label class="check">
        <input type="checkbox" checked={notifyOld} onChange={(e) => setNotifyOld(e.currentTarget.checked)} /> Send automated notice to old topic
      </label>
      <label class="check">
        <input type="checkbox" checked={notifyNew} onChange={(e) => setNotifyNew(e.currentTarget.checked)} /> Send automated notice to new topic
      </label>
      <ErrorLine error={error} />
      <div class="buttons">
        <button type="button" onClick={closeDialog}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={busy}>
          Move
        </button>
      </div>
    </form>
  );
}

/** Resolves (prefixes "✔ ") or unresolves a topic, for every message in it. */
export function toggleResolved(m: Message): Promise<unknown> {
  const topic = m.subject.startsWith(RESOLVED) ? m.subject.slice(RESOLVED.length).replace(/^✔\s*/, "") : RESOLVED + m.subject;
  return editMessage(m.id, { topic, propagate_mode: "change_all", send_notification_to_old_thread: false, send_notification_to_new_thread: true });
}

export function openDelete(m: Message): void {
  openDialog("Delete message?", () => <DeleteForm m={m} />);
}

function DeleteForm({ m }: { m: Message }) {
  const [error, busy, go] = useAction();
  return (
    <div class="dialog-form">
      <p>Deleting a message permanently removes it for everyone.</p>
      <ErrorLine error={error} />
      <div class="buttons">
        <button type="button" onClick={closeDialog}>
          Cancel
        </button>
        <button type="button" class="primary danger" disabled={busy} onClick={() => go(deleteMessage(m.id))}>
          Delete
        </button>
      </div>
    </div>
  );
}

export function openHistory(m: Message): void {
  openDialog("Message edit history", () => <History m={m} />, true);
}

function History({ m }: { m: Message }) {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    fetchHistory(m.id).then(setEntries, (err: Error) => setError(err.message));
  }, [m.id]);
  const s = current();
  if (error) return <ErrorLine error={error} />;
  if (!entries) return <p role="status">Loading…</p>;
  return (
    <ol class="history">
      {entries.map((h, i) => (
        <li key={i}>
          <div class="meta">
            {i === 0 ? "Posted" : "Edited"} by {h.user_id === null ? "someone" : userName(s, h.user_id)}, {fullTimeOf(s, h.timestamp)}
          </div>
          {h.prev_topic !== undefined && h.topic !== undefined && (
            <div class="topic-change">
              Topic: <del>{h.prev_topic}</del> → <ins>{h.topic}</ins>
            </div>
          )}
          {h.prev_stream !== undefined && h.stream !== undefined && (
            <div class="topic-change">
              Channel: <del>{s.streams.get(h.prev_stream)?.name ?? "?"}</del> → <ins>{s.streams.get(h.stream)?.name ?? "?"}</ins>
            </div>
          )}
          {(i === 0 || h.prev_rendered_content !== undefined) && h.rendered_content !== undefined && <div class="rendered" dangerouslySetInnerHTML={{ __html: h.rendered_content }} />}
        </li>
      ))}
    </ol>
  );
}

export function openReceipts(m: Message): void {
  openDialog("Read receipts", () => <Receipts m={m} />);
}

function Receipts({ m }: { m: Message }) {
  const [ids, setIds] = useState<number[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    fetchReadReceipts(m.id).then(setIds, (err: Error) => setError(err.message));
  }, [m.id]);
  const s = current();
  if (error) return <ErrorLine error={error} />;
  if (!ids) return <p role="status">Loading…</p>;
  return (
    <div>
      <p>{ids.length === 0 ? "No one has read this message yet." : `This message has been read by ${ids.length} ${ids.length === 1 ? "person" : "people"}:`}</p>
      <ul class="people-list">
        {ids.map((id) => (
          <li key={id}>
            <Avatar s={s} userId={id} name={userName(s, id)} size={24} />
            {userName(s, id)}
          </li>
        ))}
      </ul>
    </div>
  );
}
