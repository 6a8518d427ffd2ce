import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkout, hasProgram, pythonWith } from "./real-clients.js";

const terminal = checkout("zulip-terminal");
const api = checkout("python-zulip-api");
const pythonPath = terminal && api ? [terminal, path.join(api, "zulip")] : [];
const python = terminal && api ? pythonWith(["urwid", "urwid_readline", "bs4", "lxml", "pygments", "tzlocal", "dateutil", "pytz", "requests", "zulipterminal.cli.run"], pythonPath) : undefined;

/** Whether zulip-terminal can run here: both checkouts, a Python 3 with their modules, and tmux. */
export const terminalRunnable = python !== undefined && hasProgram("tmux");

/**
 * Starts the real zulip-terminal, unpatched, in a new tmux session `session` (through `tmux`, see
 * tmux.ts) with a zuliprc for `account` in a fresh home folder, which it answers. The terminal
 * writes zulip-terminal-tracebacks.log into that folder on any error; when it exits, the session
 * shows "exited <code>".
 */
export function startTerminal(tmux: (...args: string[]) => string, session: string, account: { email: string; apiKey: string; site: string }, size = { columns: 160, rows: 70 }): string {
  if (!python) throw new Error("zulip-terminal cannot run here (see terminalRunnable)");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `rookery-${session}-`));
  const zuliprc = path.join(home, "zuliprc");
  fs.writeFileSync(zuliprc, `[api]\nemail=${account.email}\nkey=${account.apiKey}\nsite=${account.site}\n`, { mode: 0o600 });
  const env = `HOME=${home} PYTHONPATH=${pythonPath.join(":")} TERM=xterm-256color`;
  tmux("new-session", "-d", "-s", session, "-x", String(size.columns), "-y", String(size.rows), `cd ${home} && env ${env} ${python} -m zulipterminal.cli.run -c ${zuliprc}; echo "exited $?"; sleep 600`);
  return home;
}
