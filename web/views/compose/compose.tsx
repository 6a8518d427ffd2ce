/**
 * Compose: to a channel and topic or to people, typeahead, preview, Enter or Ctrl+Enter per the
 * user's setting, drafts (localStorage at once, the server's /drafts soon), typing notifications,
 * uploads by button, drop and paste with progress, local echo with retry.
 */
import { signal } from "@preact/signals";
import { useEffect, useRef, useState } from "preact/hooks";
import { renderMarkdown, sendMessage, updateSetting, uploadFile, type Destination } from "../../api/compose.js";
import { loadUnicodeEmoji, type EmojiEntry } from "../../api/emoji.js";
import { currentQueueId } from "../../api/events.js";
import { fetchTopics } from "../../api/messages.js";
import { dmKeyOf, userName } from "../../state/conversation.js";
import { termsToHash } from "../../state/narrow.js";
import { addEcho, echoMessage, echoOf, echoSent, nextLocalId, removeEcho, setEchoStatus } from "../../state/local-echo.js";
import { current, route, update } from "../../state/store.js";
import type { Draft, Message, State } from "../../state/types.js";
import { Overlay } from "../overlay.js";
import { fillEmoji } from "../rendered-emoji.js";
import { useStateOf } from "../select.js";
import { compose, destinationOf, dropDraft, flushDraft, noteTyping, restored, setCompose, stopTyping, valueForRoute, type ComposeValue } from "./compose-state.js";
import { matchChannels, matchPeople, matchTopics, suggest, TypeaheadList, type Suggestion } from "./typeahead.js";

/** A request from elsewhere (quote and reply, drafts) to put text into the box and focus it. */
export const composeRequest = signal<{ value: Partial<ComposeValue>; append?: string; n: number } | null>(null);

/** Replaces or appends to the compose text from another view (e.g. "Quote and reply"). */
export function requestCompose(value: Partial<ComposeValue>, append?: string): void {
  composeRequest.value = { value, append, n: (composeRequest.value?.n ?? 0) + 1 };
}

const NO_TOPIC = "(no topic)";
let unicodeEmoji: EmojiEntry[] = [];

/** Opens a saved draft: its conversation (where compose picks the draft up), or the box alone for a draft with no recipient. */
export function restoreDraft(d: Draft): void {
  const s = current();
  if (d.type === "stream" && d.to[0] !== undefined) location.hash = termsToHash([{ operator: "channel", operand: String(d.to[0]) }, { operator: "topic", operand: d.topic }], s);
  else if (d.type === "private" && d.to.length > 0) location.hash = termsToHash([{ operator: "dm", operand: dmKeyOf(d.to, s.me) }], s);
  else requestCompose({ content: d.content, draftId: d.id });
}
const topicCache = new Map<number, string[]>();

type Upload = { id: number; name: string; fraction: number; abort: () => void };
let uploadSeq = 0;

export function Compose() {
  const s = useStateOf((st) => [st.subs, st.streams, st.users, st.settings, st.groups, st.realmEmoji, st.topics, st.realm, st.drafts]);
  const v = compose.value;
  const r = route.value;
  const text = useRef<HTMLTextAreaElement>(null);
  const [error, setError] = useState("");
  const [preview, setPreview] = useState<string | null>(null);
  const [found, setFound] = useState<{ start: number; items: Suggestion[]; active: number } | null>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [, setTopicsLoaded] = useState(0);
  const routeKey = JSON.stringify(r);
  const firstRoute = useRef(true);

  // The open narrow names the recipient; its draft (if any) comes back into the box.
  useEffect(() => {
    if (!s) return;
    const skip = firstRoute.current && restored.value;
    firstRoute.current = false;
    if (skip) return;
    const next = valueForRoute(r);
    if (!next) return;
    const cur = compose.value;
    if (JSON.stringify(destinationOf(cur)) === JSON.stringify(destinationOf(next)) && cur.content !== "") return;
    if (cur.content.trim() !== "") void flushDraft(cur);
    stopTyping();
    setCompose(next);
    setPreview(null);
    setError("");
  }, [routeKey, s !== null]);

  useEffect(() => {
    const req = composeRequest.value;
    if (!req) return;
    const cur = compose.value;
    const content = req.append !== undefined ? `${cur.content}${cur.content && !cur.content.endsWith("\n") ? "\n" : ""}${req.append}` : (req.value.content ?? cur.content);
    setCompose({ ...req.value, content });
    requestAnimationFrame(() => {
      const el = text.current;
      if (el) {
        el.focus();
        el.setSelectionRange(el.value.length, el.value.length);
      }
    });
  }, [composeRequest.value]);

  const streamId = v.kind === "stream" ? v.streamId : null;
  useEffect(() => {
    if (streamId === null || topicCache.has(streamId)) return;
    void fetchTopics(streamId)
      .then((a) => {
        topicCache.set(streamId, a.topics.map((t) => t.name));
        setTopicsLoaded((n) => n + 1);
      })
      .catch(() => undefined);
  }, [streamId]);

  if (!s) return null;
  const enterSends = s.settings.enter_sends === true;
  const topicsOf = (id: number) => [...new Set([...(s.topics.get(id)?.keys() ?? []), ...(topicCache.get(id) ?? [])])];

  const submit = () => {
    setFound(null);
    const err = problem(s, v);
    if (err) {
      setError(err);
      return;
    }
    setError("");
    stopTyping();
    send(s, v);
    dropDraft(v);
    setCompose({ content: "", draftId: null });
    setPreview(null);
  };

  const refreshTypeahead = (el: HTMLTextAreaElement) => {
    const before = el.value.slice(0, el.selectionStart);
    if (/(?:^|\s):[a-z0-9_+-]{2,}$/i.test(before) && unicodeEmoji.length === 0) {
      void loadUnicodeEmoji(s.realm.server_emoji_data_url)
        .then((list) => {
          unicodeEmoji = list;
          if (text.current) refreshTypeahead(text.current);
        })
        .catch(() => undefined);
    }
    const f = suggest(current(), before, unicodeEmoji, topicsOf);
    setFound(f ? { ...f, active: 0 } : null);
  };

  const pick = (it: Suggestion) => {
    const el = text.current;
    if (!el || !found) return;
    // Edited in place (caret after the insert) so keys typed straight after land where they should.
    el.setRangeText(it.insert, found.start, el.selectionStart, "end");
    setCompose({ content: el.value });
    setFound(null);
    el.focus();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (found) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const n = found.items.length;
        setFound({ ...found, active: (found.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n });
        return;
      }
      if ((e.key === "Enter" || e.key === "Tab") && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        const it = found.items[found.active];
        if (it) pick(it);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setFound(null);
        return;
      }
    }
    if (e.key !== "Enter" || e.isComposing) return;
    const ctrl = e.ctrlKey || e.metaKey;
    if ((enterSends && !ctrl && !e.shiftKey && !e.altKey) || (!enterSends && ctrl)) {
      e.preventDefault();
      submit();
    } else if (enterSends && ctrl) {
      // Ctrl+Enter is a new line when Enter sends (as in Zulip).
      e.preventDefault();
      insertAtCaret("\n");
    }
  };

  const insertAtCaret = (insert: string) => {
    const el = text.current;
    if (el) {
      el.setRangeText(insert, el.selectionStart, el.selectionEnd, "end");
      setCompose({ content: el.value });
    } else setCompose({ content: compose.value.content + insert });
  };

  const upload = (files: Iterable<File>) => {
    for (const file of files) {
      const id = ++uploadSeq;
      const name = file.name.replace(/[[\]]/g, "") || "file";
      const placeholder = `[Uploading ${name}…]()`;
      insertAtCaret(`${placeholder} `);
      const job = uploadFile(file, (fraction) => setUploads((list) => list.map((u) => (u.id === id ? { ...u, fraction } : u))));
      setUploads((list) => [...list, { id, name, fraction: 0, abort: job.abort }]);
      const finish = (replacement: string) => {
        setUploads((list) => list.filter((u) => u.id !== id));
        setCompose({ content: compose.value.content.replace(placeholder, replacement) });
      };
      job.done.then(
        (f) => finish(`[${name}](${f.url})`),
        (err: Error) => {
          finish("");
          setError(`Could not upload ${name}: ${err.message}`);
        },
      );
    }
  };

  const togglePreview = () => {
    if (preview !== null) {
      setPreview(null);
      return;
    }
    if (v.content.trim() === "") {
      setPreview("");
      return;
    }
    setPreview("…");
    renderMarkdown(v.content).then(setPreview, (err: Error) => {
      setPreview(null);
      setError(err.message);
    });
  };

  const listId = "compose-typeahead";
  return (
    <section class="compose" aria-label="Compose">
      <Overlay />
      <form
        class="compose-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        onDragOver={(e) => {
          if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
        }}
        onDrop={(e) => {
          if (!e.dataTransfer?.files.length) return;
          e.preventDefault();
          upload(e.dataTransfer.files);
        }}
      >
        <Recipient s={s} v={v} topicsOf={topicsOf} />
        <div class="compose-box">
          {found && found.items.length > 0 && <TypeaheadList id={listId} items={found.items} active={found.active} onPick={pick} />}
          {preview === null ? (
            <textarea
              ref={text}
              aria-label="Message"
              placeholder={v.kind === "stream" ? `Message #${s.streams.get(v.streamId ?? 0)?.name ?? "…"}${v.topic ? ` > ${v.topic}` : ""}` : `Message ${v.to.map((id) => userName(s, id)).join(", ") || "…"}`}
              value={v.content}
              rows={Math.min(12, Math.max(2, v.content.split("\n").length))}
              aria-autocomplete="list"
              aria-controls={found ? listId : undefined}
              aria-activedescendant={found ? `${listId}-${found.active}` : undefined}
              onInput={(e) => {
                const el = e.currentTarget;
                setCompose({ content: el.value });
                noteTyping(compose.value);
                refreshTypeahead(el);
              }}
              onKeyDown={onKeyDown}
              onBlur={() => setFound(null)}
              onPaste={(e) => {
                const files = e.clipboardData?.files;
                if (files && files.length > 0) {
                  e.preventDefault();
                  upload(files);
                }
              }}
            />
          ) : (
            <div class="preview rendered" aria-label="Preview" ref={(el) => {
              if (el) fillEmoji(el);
            }} dangerouslySetInnerHTML={{ __html: preview === "" ? "<p><em>Nothing to preview</em></p>" : preview === "…" ? "<p>Rendering…</p>" : preview }} />
          )}
        </div>
        {uploads.length > 0 && (
          <ul class="uploads" aria-label="Uploads">
            {uploads.map((u) => (
              <li key={u.id}>
                <span class="name">{u.name}</span>
                <progress max={1} value={u.fraction} aria-label={`Uploading ${u.name}`} />
                <button type="button" class="link" onClick={u.abort}>
                  Cancel
                </button>
              </li>
            ))}
          </ul>
        )}
        {error && (
          <p class="compose-error" role="alert">
            {error}
          </p>
        )}
        <div class="compose-tools">
          <label class="tool" title="Upload files">
            <input type="file" multiple class="visually-hidden" aria-label="Upload files" onChange={(e) => {
              const input = e.currentTarget;
              if (input.files) upload([...input.files]);
              input.value = "";
            }} />
            <span aria-hidden="true">📎</span>
          </label>
          <button type="button" class={preview !== null ? "tool on" : "tool"} aria-pressed={preview !== null} onClick={togglePreview}>
            {preview !== null ? "Edit" : "Preview"}
          </button>
          <span class="spacer" />
          <label class="enter-setting" title="When off, Ctrl+Enter sends">
            <input
              type="checkbox"
              checked={enterSends}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                // At once, as the server's user_settings event will: the next key already follows it.
                update((st) => ({ ...st, settings: { ...st.settings, enter_sends: on } }));
                void updateSetting("enter_sends", on).catch((err: Error) => {
                  update((st) => ({ ...st, settings: { ...st.settings, enter_sends: !on } }));
                  setError(err.message);
                });
              }}
            />{" "}
            Enter sends
          </label>
          <button type="submit" class="send">
            Send
          </button>
        </div>
      </form>
    </section>
  );
}

/** Why the message cannot be sent yet, or "". */
function problem(s: State, v: ComposeValue): string {
  if (v.content.trim() === "") return "You have nothing to send!";
  if (v.kind === "stream") {
    if (v.streamId === null || !s.streams.has(v.streamId)) return "Please specify a channel.";
    if (v.topic.trim() === "" && s.realm.realm_mandatory_topics === true) return "Topics are required in this organization.";
  } else if (v.to.length === 0) return "Please specify at least one valid recipient.";
  const max = Number(s.realm.max_message_length ?? 10000);
  if (v.content.length > max) return `Message length shouldn't be greater than ${max} characters.`;
  return "";
}

/** Shows the message at once (local echo) and sends it; a failure marks the echo with the reason. */
function send(s: State, v: ComposeValue): void {
  const dest = destinationOf(v);
  if (!dest) return;
  const id = nextLocalId(s);
  const localId = String(id);
  const fields: Pick<Message, "id" | "type" | "stream_id" | "subject" | "display_recipient"> =
    dest.type === "stream"
      ? { id, type: "stream", stream_id: dest.streamId, subject: dest.topic.trim() || NO_TOPIC, display_recipient: s.streams.get(dest.streamId)?.name ?? "" }
      : { id, type: "private", subject: "", display_recipient: [...new Set([s.me, ...dest.to])].map((uid) => ({ id: uid, email: s.users.get(uid)?.email ?? "", full_name: userName(s, uid) })) };
  update((st) => addEcho(st, echoMessage(st, fields, v.content, localId)));
  deliver(id, dest, v.content, localId);
}

function deliver(id: number, dest: Destination, content: string, localId: string): void {
  // An empty topic is sent as Zulip's web app sends it (the server refuses an empty one).
  sendMessage(dest.type === "stream" ? { ...dest, topic: dest.topic.trim() || NO_TOPIC } : dest, content, currentQueueId(), localId).then(
    (answer) => update((st) => echoSent(st, id, answer.id)),
    (err: Error) => update((st) => setEchoStatus(st, id, "failed", err.message)),
  );
}

/** Under a local echo: "Sending…", or why it failed with Retry and Discard. */
export function EchoStatus({ m }: { m: Message }) {
  const echo = echoOf(m);
  if (!echo) return null;
  if (echo.status === "sending") return <div class="echo-status">Sending…</div>;
  const dest: Destination = m.type === "stream" ? { type: "stream", streamId: m.stream_id ?? 0, topic: m.subject } : { type: "private", to: Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id).filter((uid) => uid !== current().me || (m.display_recipient as unknown[]).length === 1) : [] };
  return (
    <div class="echo-status failed" role="alert">
      Not sent: {echo.error ?? "unknown error"}.{" "}
      <button
        type="button"
        class="link"
        onClick={() => {
          update((st) => setEchoStatus(st, m.id, "sending"));
          deliver(m.id, dest, echo.raw, echo.localId);
        }}
      >
        Retry
      </button>{" "}
      <button
        type="button"
        class="link"
        onClick={() => {
          update((st) => removeEcho(st, m.id));
          requestCompose({}, echo.raw);
        }}
      >
        Back to compose
      </button>
    </div>
  );
}

/** Channel and topic, or the people of a direct message, each with typeahead. */
function Recipient({ s, v, topicsOf }: { s: State; v: ComposeValue; topicsOf: (id: number) => string[] }) {
  const channel = v.streamId !== null ? s.streams.get(v.streamId) : undefined;
  return (
    <div class="compose-recipient">
      <select aria-label="Message type" value={v.kind} onChange={(e) => setCompose({ kind: e.currentTarget.value === "private" ? "private" : "stream" })}>
        <option value="stream">Channel</option>
        <option value="private">Direct message</option>
      </select>
      {v.kind === "stream" ? (
        <>
          <Field
            label="Channel"
            initial={channel?.name ?? ""}
            resetKey={String(v.streamId)}
            suggestions={(q) => matchChannels(s, q)}
            onPick={(it) => setCompose({ streamId: Number(it.key.slice(1)) })}
            onText={(q) => {
              const exact = [...s.streams.values()].find((c) => c.name.toLowerCase() === q.trim().toLowerCase());
              if (exact) setCompose({ streamId: exact.stream_id });
              else if (q.trim() === "") setCompose({ streamId: null });
            }}
          />
          <span class="sep" aria-hidden="true">›</span>
          <Field label="Topic" initial={v.topic} resetKey={v.topic} suggestions={(q) => (v.streamId === null ? [] : matchTopics(topicsOf(v.streamId), q))} onPick={(it) => setCompose({ topic: it.insert })} onText={(q) => setCompose({ topic: q })} />
        </>
      ) : (
        <div class="pills">
          {v.to.map((id) => (
            <span class="pill" key={id}>
              {userName(s, id)}
              <button type="button" aria-label={`Remove ${userName(s, id)}`} onClick={() => setCompose({ to: v.to.filter((x) => x !== id) })}>
                ×
              </button>
            </span>
          ))}
          <Field label="To" initial="" resetKey={v.to.join(",")} clearOnPick suggestions={(q) => (q === "" ? [] : matchPeople(s, q).filter((p) => !v.to.includes(Number(p.key.slice(1)))))} onPick={(it) => setCompose({ to: [...v.to, Number(it.key.slice(1))] })} onText={() => undefined} />
        </div>
      )}
    </div>
  );
}

/** A text field with a suggestion list (recipient, channel, topic). */
function Field(props: { label: string; initial: string; resetKey: string; clearOnPick?: boolean; suggestions: (q: string) => Suggestion[]; onPick: (s: Suggestion) => void; onText: (q: string) => void }) {
  const [value, setValue] = useState(props.initial);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  useEffect(() => setValue(props.initial), [props.resetKey]);
  const items = open ? props.suggestions(value) : [];
  const id = `field-${props.label.toLowerCase()}`;
  const pick = (it: Suggestion) => {
    props.onPick(it);
    setValue(props.clearOnPick ? "" : it.insert);
    setOpen(false);
  };
  return (
    <div class={`field field-${props.label.toLowerCase()}`}>
      <input
        aria-label={props.label}
        placeholder={props.label}
        value={value}
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls={id}
        aria-autocomplete="list"
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onInput={(e) => {
          setValue(e.currentTarget.value);
          setOpen(true);
          setActive(0);
          props.onText(e.currentTarget.value);
        }}
        onKeyDown={(e) => {
          if (items.length === 0) return;
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            setActive((active + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length);
          } else if (e.key === "Enter" || e.key === "Tab") {
            const it = items[active];
            if (it && (e.key === "Enter" || value !== "")) {
              if (e.key === "Enter") e.preventDefault();
              pick(it);
            }
          } else if (e.key === "Escape") setOpen(false);
        }}
      />
      {items.length > 0 && <TypeaheadList id={id} items={items} active={active} onPick={pick} />}
    </div>
  );
}
