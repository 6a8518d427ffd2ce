/** C and C++: Prism finds comments, strings, numbers and directives; words and declarations follow Pygments' C lexers. */
import type { Rule, Token } from "../lexer.js";
import { nextSignificant, previousSignificant, stringRules, wordTable } from "./common.js";
import { literalKind, mergedGrammar } from "./grammars.js";
import { prismLexer, type Classify } from "./lexer.js";

const cTypes =
  "size_t ssize_t off_t wchar_t ptrdiff_t sig_atomic_t fpos_t clock_t time_t va_list jmp_buf FILE DIR div_t ldiv_t mbstate_t wctrans_t wint_t wctype_t " +
  "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t " +
  "uint_least32_t uint_least64_t int_fast8_t int_fast16_t int_fast32_t int_fast64_t uint_fast8_t uint_fast16_t uint_fast32_t uint_fast64_t intptr_t " +
  "uintptr_t intmax_t uintmax_t clockid_t cpu_set_t cpumask_t dev_t gid_t id_t ino_t key_t mode_t nfds_t pid_t rlim_t sig_t sighandler_t siginfo_t " +
  "sigset_t sigval_t socklen_t timer_t uid_t atomic_bool atomic_char atomic_schar atomic_uchar atomic_short atomic_ushort atomic_int atomic_uint " +
  "atomic_long atomic_ulong atomic_llong atomic_ullong atomic_size_t atomic_intptr_t atomic_uintptr_t " +
  "bool int long float short double char unsigned signed void _BitInt __int128";
const cKeywords =
  "asm auto break case const continue default do else enum extern for goto if register restricted return sizeof struct static switch typedef " +
  "volatile while union thread_local alignas alignof static_assert _Pragma";
const cReserved =
  "inline _inline __inline naked restrict thread __m128i __m128d __m128 __m64 __int8 __int16 __int32 __int64 __wchar_t __asm __based __except " +
  "__stdcall __cdecl __fastcall __declspec __finally __try __leave __w64 __unaligned __raise __noop __identifier __forceinline __assume";

const cWords = wordTable({
  k: `${cKeywords} _Alignas _Alignof _Noreturn _Generic _Thread_local _Static_assert _Imaginary noreturn imaginary complex`,
  kr: cReserved,
  kt: `${cTypes} _Bool _Complex _Atomic`,
  nb: "true false NULL",
});
const cppWords = wordTable({
  k:
    `${cKeywords} catch const_cast delete dynamic_cast explicit export friend mutable new operator private protected public reinterpret_cast ` +
    "class __restrict static_cast template this throw throws try typeid using virtual constexpr nullptr concept decltype noexcept override final " +
    "constinit consteval co_await co_return co_yield requires import module typename and and_eq bitand bitor compl not not_eq or or_eq xor xor_eq namespace",
  kr: `${cReserved} __virtual_inheritance __uuidof __super __single_inheritance __multiple_inheritance __interface __event`,
  kt: `${cTypes} char16_t char32_t char8_t`,
  nb: "true false NULL",
});

function codeRules(words: Map<string, string>): Rule[] {
  return [
    [/\\\n/y, ""],
    [/\s+/y, "w"],
    [/(?!\d)[\w$]+/y, (m) => [{ cls: words.get(m[0]) ?? "n", text: m[0] }]],
    [/[~!%^&*+=|?:<>/-]+/y, "o"],
    [/[()[\],.{};]+/y, "p"],
    [/\d+/y, "mi"],
    [/[\s\S]/y, "err"],
  ];
}

const escapes = /\\(?:[\\abfnrtv"']|x[a-fA-F0-9]{2,4}|u[a-fA-F0-9]{4}|U[a-fA-F0-9]{8}|[0-7]{1,3})/y;
const stringClasses = stringRules("s", escapes);

function numberClass(text: string): string {
  if (/^0[xX].*[pP]/.test(text)) return "mf";
  if (/^0[xX]/.test(text)) return "mh";
  if (/^0[bB]/.test(text)) return "mb";
  if (/[.eE]|^\d['\d]*[fFlL]$/.test(text)) return "mf";
  if (/^0['0-7]+[uUlL]*$/.test(text)) return "mo";
  return "mi";
}

function classify(): Classify {
  return ({ text, kinds, within }) => {
    const kind = kinds[0] === "literal" ? literalKind(text) : kinds[0];
    if (kind === "comment") return text.startsWith("//") ? "c1" : "cm";
    if (within.includes("macro")) {
      // A file name only on an #include line, which refine() checks.
      return kind === "string" && within[0] === "macro" ? "cpf" : "cp";
    }
    switch (kind) {
      case "string":
      case "raw-string":
        return stringClasses;
      case "char":
        return "sc";
      case "number":
        return numberClass(text);
      case "operator":
        return /^(?:and|and_eq|bitand|bitor|not|not_eq|or|or_eq|xor|xor_eq)$/.test(text) ? "k" : "o";
      case "double-colon":
        return "o";
      case "punctuation":
        return text === ":" ? "o" : "p";
      default:
        return null;
    }
  };
}

const declarationStart = new Set(["k", "kr", "kt", "n", "nb"]);

/** What refine() knows of the line so far: built as it goes, so no token looks back along its line. */
class LineState {
  blank = true; // only spaces and tabs so far
  caseOpen = false; // a `case` not yet closed by ':', ';' or a brace
  text = ""; // the line so far, its first 200 characters

  advance(t: Token): void {
    const nl = t.text.lastIndexOf("\n");
    if (nl !== -1) {
      const rest = t.text.slice(nl + 1);
      this.blank = rest.trim() === "";
      this.caseOpen = false;
      this.text = rest.slice(0, 200);
      return;
    }
    this.blank &&= t.text.trim() === "";
    if (t.cls === "k" && t.text === "case") this.caseOpen = true;
    else if (/[:;{}]/.test(t.text)) this.caseOpen = false;
    if (this.text.length < 200) this.text += t.text;
  }
}

/** Declarations, labels and the other constructs Pygments tells apart by their neighbours. */
function refine(cpp: boolean): (tokens: Token[]) => Token[] {
  return (tokens) => {
    let depth = 0; // brace depth inside a function body; 0 at file level
    let awaitingBody = false;
    // At file level Pygments reads a declaration only at a statement's start; after a stray '}' or
    // an access label's ':' it reads on as a statement up to the next '{' or ';'.
    let inStatement = false;
    const line = new LineState();
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t === undefined) continue;
      if (t.cls === "p") {
        if (awaitingBody && t.text.includes("{")) {
          depth = count(t.text, "{") - count(t.text, "}");
          awaitingBody = false;
        } else if (depth > 0) depth = Math.max(0, depth + count(t.text, "{") - count(t.text, "}"));
        else if (/[{;]/.test(t.text)) inStatement = false;
        else if (t.text.includes("}")) inStatement = true;
        line.advance(t);
        continue;
      }
      // Only names, operators and directives depend on their neighbours.
      if (t.cls !== "n" && t.cls !== "o" && t.cls !== "cp" && t.cls !== "cpf") {
        line.advance(t);
        continue;
      }
      const prev = tokens[previousSignificant(tokens, i)];
      const next = tokens[nextSignificant(tokens, i)];
      if (t.cls === "cp" && t.text.trim() === "" && next?.cls === "cpf") t.cls = "w";
      else if (t.cls === "cpf" && !/#\s*include\s*$/.test(line.text)) t.cls = "cp";
      else if (t.cls === "o" && t.text.endsWith("-") && tokens[i + 1]?.cls.startsWith("m")) splitMinus(tokens, i);
      else if (t.cls === "n" && prev?.cls === "k" && /^(?:struct|union|class|concept|typename|enum)$/.test(prev.text)) t.cls = "nc";
      else if (t.cls === "n" && prev?.cls === "k" && prev.text === "namespace") t.cls = "nn";
      else if (t.cls === "n" && /^(?:L|u8|u|U)$/.test(t.text) && /^["']/.test(tokens[i + 1]?.text ?? "")) t.cls = "sa";
      else if (t.cls === "n" && prev?.cls === "k" && prev.text === "case") t.cls = "no";
      else if (t.cls === "n" && next?.text === ":" && line.blank && !/^(?:public|private|protected|default)$/.test(t.text)) {
        t.cls = "nl";
        next.cls = "p";
      } else if (t.cls === "o" && t.text === ":" && line.caseOpen) t.cls = "p";
      else if (t.cls === "o" && t.text === ":" && depth === 0 && cpp && /^(?:public|private|protected)$/.test(prev?.text ?? "")) inStatement = true;
      if (depth === 0 && !inStatement && !awaitingBody && t.cls === "n" && declarationStart.has(prev?.cls ?? "") && next?.text.startsWith("(")) {
        const end = declarationEnd(tokens, i);
        if (end !== undefined) {
          t.cls = "nf";
          awaitingBody = end === "{";
        }
      }
      line.advance(t);
    }
    return tokens;
  };
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}

// Pygments reads a minus sign right before a number as part of it.
function splitMinus(tokens: Token[], i: number): void {
  const op = tokens[i];
  const num = tokens[i + 1];
  if (op === undefined || num === undefined) return;
  // An emptied operator stays in the list: it prints as nothing.
  op.text = op.text.slice(0, -1);
  num.text = "-" + num.text;
}

// How far declarationEnd() looks, in tokens: Pygments' pattern has no bound, but a longer search
// would make a long run of `name name (` quadratic.
const declarationReach = 256;

/**
 * Whether the name at `i` is declared as a function: its parameter list has no ';' or quote, and
 * a '{' (a definition) or ';' (a prototype) follows. Returns which.
 */
function declarationEnd(tokens: readonly Token[], i: number): "{" | ";" | undefined {
  const prevIndex = previousSignificant(tokens, i);
  // The return type is one word, then whitespace or pointer marks.
  for (let j = prevIndex + 1; j < i; j++) if (!/^[\s&*]*$/.test(tokens[j]?.text ?? "")) return undefined;
  if (prevIndex + 1 === i) return undefined;
  const open = nextSignificant(tokens, i);
  const limit = Math.min(tokens.length, open + declarationReach);
  let j = open;
  for (; j < limit; j++) {
    const text = tokens[j]?.text ?? "";
    const close = text.indexOf(")");
    const body = j === open ? text.slice(1) : text;
    if (/[;"']/.test(close === -1 ? body : body.slice(0, close - (j === open ? 1 : 0)))) return undefined;
    if (close !== -1) break;
  }
  if (j >= limit) return undefined;
  for (j++; j < limit; j++) {
    const t = tokens[j]?.text ?? "";
    if (t.startsWith("{")) return "{";
    if (t.startsWith(";")) return ";";
    if (/[;{/"']/.test(t)) return undefined;
  }
  return undefined;
}

const literals = ["comment", "char", "string"];

export const cLexer = prismLexer({ name: "C", aliases: ["c"], grammar: mergedGrammar("c", literals), classify: classify(), code: codeRules(cWords), refine: refine(false) });

export const cppLexer = prismLexer({
  name: "C++",
  aliases: ["cpp", "c++"],
  grammar: mergedGrammar("cpp", literals),
  classify: classify(),
  code: codeRules(cppWords),
  refine: refine(true),
});
