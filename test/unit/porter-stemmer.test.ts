import SQLite from "../../src/db/sqlite-binding.js";
import { describe, expect, it } from "vitest";
import { porterStem } from "../../src/algorithms/porter-stemmer.js";

/** Words from Porter's paper and a few more; the stems must be the ones SQLite's FTS5 stores. */
const WORDS = `caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping
  tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci digitizer conformabli
  radicalli differentli vileli analogousli vietnamization predication operator feudalism decisiveness hopefulness
  callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical hopeful goodness
  revival allowance inference airliner gyroscopic adjustable defensible irritant replacement adjustment dependent
  adoption homologou communism activate angulariti homologous effective bowdlerize probate rate cease controll roll
  walking walked walks generously archaeology syllogism apology generalizations ion lion station abc ab yyy y1x`.split(/\s+/);

describe("porterStem", () => {
  it("gives the stem FTS5's porter tokenizer indexes", () => {
    const db = new SQLite(":memory:");
    db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61'); CREATE VIRTUAL TABLE v USING fts5vocab(t, row);");
    const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
    WORDS.forEach((word, i) => insert.run(i + 1, word));
    const indexed = (db.prepare("SELECT term FROM v ORDER BY term").all() as { term: string }[]).map((r) => r.term);
    expect([...new Set(WORDS.map(porterStem))].sort()).toEqual(indexed);
    expect(["walking", "walked", "walks"].map(porterStem)).toEqual(["walk", "walk", "walk"]);
    db.close();
  });
});
