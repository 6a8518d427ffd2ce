/** "X is typing…" at the bottom of the open conversation's feed, from state.typing (each entry expires by itself). */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { dmKeyOf, userName } from "../../state/conversation.js";
import { route } from "../../state/store.js";
import type { State } from "../../state/types.js";
import { useStateOf } from "../select.js";

/** The typing key of the open narrow ("s:<id>:<topic>" or "d:<dmKey>"), or null. */
function openConversation(s: State): string | null {
  const r = route.value;
  if (r.view !== "feed") return null;
  const channel = r.terms.find((t) => t.operator === "channel" || t.operator === "stream");
  const topic = r.terms.find((t) => t.operator === "topic" || t.operator === "subject");
  const dm = r.terms.find((t) => t.operator === "dm" || t.operator === "pm-with");
  if (channel && topic) return `s:${channel.operand}:${topic.operand.toLowerCase()}`;
  if (dm && /^\d+(,\d+)*$/.test(dm.operand)) return `d:${dmKeyOf(dm.operand.split(",").map(Number), s.me)}`;
  return null;
}

export function TypingNotice() {
  const s = useStateOf((st) => [st.typing, st.users]);
  const [now, setNow] = useState(Date.now());
  const key = s ? openConversation(s) : null;
  const typists = s && key ? [...(s.typing.get(key) ?? new Map<number, number>()).entries()].filter(([, until]) => until > now).map(([id]) => id) : [];
  useEffect(() => {
    if (typists.length === 0) return;
    const t = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(t);
  });
  useEffect(() => setNow(Date.now()), [s?.typing]);
  const names = s ? typists.map((id) => userName(s, id)) : [];
  const text = names.length === 0 ? "" : names.length > 3 ? "Several people are typing…" : `${names.join(", ")} ${names.length === 1 ? "is" : "are"} typing…`;
  // A feed read at its bottom stays at its bottom when the line appears.
  // Read only when the line changes: reading the scroller's geometry while rendering forces a layout.
  const line = useRef<HTMLDivElement>(null);
  const shown = useRef("");
  const box = text !== shown.current ? line.current?.closest(".scroller") : null;
  const atBottom = box ? box.scrollHeight - box.scrollTop - box.clientHeight < 40 : false;
  useLayoutEffect(() => {
    shown.current = text;
    if (atBottom && box && text !== "") box.scrollTop = box.scrollHeight;
  }, [text]);
  return (
    <div class="typing" aria-live="polite" ref={line}>
      {text}
    </div>
  );
}
