import { canonicalOperator } from "../state/narrow.js";
import { setViewTitle } from "./title.js";
import { useStateOf } from "./select.js";
import type { Term } from "../state/types.js";
import { describeNarrow } from "./describe.js";

export { describeNarrow } from "./describe.js";

export function NarrowHeader({ terms }: { terms: Term[] }) {
  const s = useStateOf((st) => [st.streams, st.users, st.realm]);
  if (!s) return null;
  const title = describeNarrow(terms, s);
  const ch = terms.find((t) => canonicalOperator(t.operator) === "channel");
  const stream = ch ? s.streams.get(Number(ch.operand)) : undefined;
  setViewTitle(title);
  return (
    <header class="narrow-header">
      <h1>{title}</h1>
      {stream?.rendered_description ? <div class="description rendered" dangerouslySetInnerHTML={{ __html: stream.rendered_description }} /> : null}
    </header>
  );
}
