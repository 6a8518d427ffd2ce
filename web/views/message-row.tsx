import { Component } from "preact";
import { setReaction, updateFlags } from "../api/messages.js";
import { dmKeyOf, userName } from "../state/conversation.js";
import { termsToHash } from "../state/narrow.js";
import type { Message, Reaction, State } from "../state/types.js";
import { MessageActions } from "./actions/message-actions.js";
import { Avatar } from "./avatar.js";
import { EchoStatus } from "./compose/compose.js";
import { Widget } from "./widgets/widget.js";
import { emojiChar, fullTimeOf, timeOf } from "./format.js";

/** The bar above a conversation's run of messages: channel › topic, or the DM's people. */
export function RecipientBar({ s, m }: { s: State; m: Message }) {
  if (m.type === "stream") {
    const streamId = m.stream_id ?? 0;
    const name = s.streams.get(streamId)?.name ?? (typeof m.display_recipient === "string" ? m.display_recipient : "unknown");
    return (
      <div class="recipient-bar">
        <a class="channel" href={termsToHash([{ operator: "channel", operand: String(streamId) }], s)}>
          # {name}
        </a>
        <span class="sep" aria-hidden="true">›</span>
        <a class="topic" href={termsToHash([{ operator: "channel", operand: String(streamId) }, { operator: "topic", operand: m.subject }], s)}>
          {m.subject === "" ? "general chat" : m.subject}
        </a>
      </div>
    );
  }
  const ids = Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id) : [];
  const key = dmKeyOf(ids, s.me);
  const others = key.split(",").map(Number);
  return (
    <div class="recipient-bar dm">
      <a href={termsToHash([{ operator: "dm", operand: key }], s)}>You and {others.filter((id) => id !== s.me).map((id) => userName(s, id)).join(", ") || "yourself"}</a>
    </div>
  );
}

/** The message's permalink: its conversation, near it (Zulip's form). */
export function permalink(s: State, m: Message): string {
  if (m.type === "stream") return termsToHash([{ operator: "channel", operand: String(m.stream_id ?? 0) }, { operator: "topic", operand: m.subject }, { operator: "near", operand: String(m.id) }], s);
  const ids = Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id) : [];
  return termsToHash([{ operator: "dm", operand: dmKeyOf(ids, s.me) }, { operator: "near", operand: String(m.id) }], s);
}

type RowProps = { s: State; m: Message; showSender: boolean; selected: boolean };

/** One message: sender (first of a run), time, server HTML as is, EDITED, reactions, star. */
export class MessageRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    const a = this.props;
    return a.m !== next.m || a.showSender !== next.showSender || a.selected !== next.selected || a.s.users !== next.s.users || a.s.realmEmoji !== next.s.realmEmoji;
  }

  override render({ s, m, showSender, selected }: RowProps) {
    const unread = !m.flags.includes("read");
    const starred = m.flags.includes("starred");
    const sender = s.users.get(m.sender_id);
    const name = sender?.full_name ?? m.sender_full_name;
    return (
      <article class={`message${showSender ? " first" : ""}${selected ? " selected" : ""}${unread ? " unread" : ""}${m.flags.some((f) => f.includes("mentioned")) ? " mentioned" : ""}`} data-id={m.id} aria-label={`${name}, ${timeOf(s, m.timestamp)}`}>
        <div class="gutter">{showSender ? <Avatar s={s} userId={m.sender_id} fallbackUrl={m.avatar_url} name={name} /> : <time class="hover-time">{timeOf(s, m.timestamp)}</time>}</div>
        <div class="body">
          {showSender && (
            <div class="sender-line">
              <span class="sender">{name}</span>
              <a class="time" href={permalink(s, m)} onMouseEnter={(e) => (e.currentTarget.title ||= fullTimeOf(s, m.timestamp))}>
                <time dateTime={new Date(m.timestamp * 1000).toISOString()}>{timeOf(s, m.timestamp)}</time>
              </a>
            </div>
          )}
          {m.flags.includes("collapsed") ? (
            <button type="button" class="link collapsed-note" onClick={() => void updateFlags([m.id], "remove", "collapsed").catch(() => undefined)}>
              Show collapsed message
            </button>
          ) : m.submessages.length > 0 ? (
            <Widget s={s} m={m} />
          ) : (
            <div class="content rendered" dangerouslySetInnerHTML={{ __html: m.content }} />
          )}
          {m.echo ? <EchoStatus m={m} /> : null}
          {m.last_edit_timestamp ? <span class="edited" title={`Edited ${fullTimeOf(s, m.last_edit_timestamp)}`}>EDITED</span> : null}
          {m.reactions.length > 0 && <Reactions s={s} m={m} />}
        </div>
        <div class="actions">
          <button type="button" class={starred ? "star on" : "star"} aria-pressed={starred} aria-label={starred ? "Unstar" : "Star"} title={starred ? "Unstar this message" : "Star this message"} onClick={() => void updateFlags([m.id], starred ? "remove" : "add", "starred").catch(() => undefined)}>
            {starred ? "★" : "☆"}
          </button>
          <MessageActions message={m} />
        </div>
      </article>
    );
  }
}

function Reactions({ s, m }: { s: State; m: Message }) {
  const groups = new Map<string, { r: Reaction; users: number[] }>();
  for (const r of m.reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(key);
    if (g) g.users.push(r.user_id);
    else groups.set(key, { r, users: [r.user_id] });
  }
  return (
    <div class="reactions">
      {[...groups.values()].map(({ r, users }) => {
        const mine = users.includes(s.me);
        const who = users.map((id) => (id === s.me ? "You" : userName(s, id))).join(", ");
        return (
          <button type="button" key={`${r.reaction_type}:${r.emoji_code}`} class={mine ? "reaction mine" : "reaction"} aria-pressed={mine} title={`${who} reacted with :${r.emoji_name}:`} aria-label={`:${r.emoji_name}: ${users.length}`} onClick={() => void setReaction(m.id, r, !mine).catch(() => undefined)}>
            <Emoji s={s} r={r} /> <span class="n">{users.length}</span>
          </button>
        );
      })}
    </div>
  );
}

/** A reaction's emoji: the character, a custom emoji's image, or its name. */
export function Emoji({ s, r }: { s: State; r: Pick<Reaction, "emoji_code" | "emoji_name" | "reaction_type"> }) {
  if (r.reaction_type === "unicode_emoji") return <span class="emoji">{emojiChar(r.emoji_code)}</span>;
  const custom = s.realmEmoji[r.emoji_code];
  if (r.reaction_type === "realm_emoji" && custom && typeof custom.source_url === "string") return <img class="emoji" src={custom.source_url} alt={`:${r.emoji_name}:`} />;
  return <span class="emoji">:{r.emoji_name}:</span>;
}
