/** TeX/LaTeX, tokenized into Pygments' classes. */
import type { Lexer, Token } from "./lexer.js";

type State = "root" | "inline" | "display";

// Each state's rules; the first that matches at the cursor wins.
function step(code: string, pos: number, state: State): { token: Token; next: State } {
  const at = (re: RegExp): string | null => {
    re.lastIndex = pos;
    const m = re.exec(code);
    return m === null || m[0] === "" ? null : m[0];
  };
  let t: string | null;
  if (state === "root") {
    if ((t = at(/\\\[|\$\$/y))) return { token: { cls: "sb", text: t }, next: "display" };
    if ((t = at(/\\\(|\$/y))) return { token: { cls: "s", text: t }, next: "inline" };
    if ((t = at(/\\(?:[a-zA-Z@_:]+|\S?)(?:\[[^\]\n]*\])?\*?/y))) return { token: { cls: "k", text: t }, next: state };
  } else {
    if ((t = at(state === "inline" ? /\\\)|\$/y : /\\\]|\$\$/y))) return { token: { cls: state === "inline" ? "s" : "sb", text: t }, next: "root" };
    if (state === "display" && (t = at(/\$/y))) return { token: { cls: "nb", text: t }, next: state };
    if ((t = at(/\\(?:[a-zA-Z]+|\S?)/y))) return { token: { cls: "nv", text: t }, next: state };
  }
  if ((t = at(/%.*\n?/y))) return { token: { cls: "c", text: t }, next: state };
  if ((t = at(/[{}&_^]/y))) return { token: { cls: "nb", text: t }, next: state };
  if (state === "root") {
    if ((t = at(/[^\\$%&_^{}]+/y))) return { token: { cls: "", text: t }, next: state };
  } else {
    if ((t = at(/[0-9]+/y))) return { token: { cls: "m", text: t }, next: state };
    if ((t = at(/[-=!+*/()[\]]/y))) return { token: { cls: "o", text: t }, next: state };
    if ((t = at(/[^=!+*/()[\]\\$%&_^{}0-9-]+/y))) return { token: { cls: "nb", text: t }, next: state };
  }
  return { token: { cls: "err", text: code[pos] ?? "" }, next: state };
}

/** Pygments' "TeX" lexer. */
export const texLexer: Lexer = {
  name: "TeX",
  aliases: ["tex", "latex"],
  tokenize(code) {
    const tokens: Token[] = [];
    let state: State = "root";
    for (let pos = 0; pos < code.length; ) {
      const { token, next } = step(code, pos, state);
      // Command options like \section[short] are attributes, split off the command.
      const opt = token.cls === "k" ? /^(\\[^[*]*)(\[[^\]\n]*\])?(\*)?$/.exec(token.text) : null;
      if (opt) {
        tokens.push({ cls: "k", text: opt[1] ?? "" });
        if (opt[2]) tokens.push({ cls: "na", text: opt[2] });
        if (opt[3]) tokens.push({ cls: "k", text: opt[3] });
      } else tokens.push(token);
      pos += token.text.length;
      state = next;
    }
    return tokens;
  },
};
