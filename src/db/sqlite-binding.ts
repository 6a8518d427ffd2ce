import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

const load = createRequire(import.meta.url);

/**
 * better-sqlite3, in the version that runs on this Node.js. Version 12 is a V8 addon: from Node.js
 * 24.19 on, node::ObjectWrap registers an environment cleanup hook, and a statement collected
 * when no context is entered aborts the process (`Assertion failed: (env) != nullptr`). Version 13
 * (Node-API, prebuilt for every platform in its npm package) fixes that but crashes on Node.js 20.
 * Both are installed (13 under the alias better-sqlite3-napi) until Node.js 20 is dropped.
 */
const SQLite: typeof BetterSqlite3 = load(Number(process.versions.node.split(".")[0]) >= 22 ? "better-sqlite3-napi" : "better-sqlite3");
export default SQLite;
