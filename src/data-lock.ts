import fs from "node:fs";
import path from "node:path";
import SQLite from "./db/sqlite-binding.js";
import { ConfigError } from "./config.js";

/** The lock a server holds on its data folder while it runs; `release` lets go of it. */
export interface DataLock {
  release(): void;
}

/** The file whose lock marks the folder as taken, and the file naming the process holding it. */
const LOCK_FILE = "rookery.lock";
const HOLDER_FILE = "rookery.pid";

/**
 * Takes the data folder for this process, or throws a ConfigError naming the process that holds
 * it. The lock is SQLite's own exclusive lock on a small database of its own (an fcntl lock held
 * by the open connection): the kernel drops it when the process ends, however it ends, so a
 * server killed with SIGKILL leaves nothing to clean up. The holder's pid is written beside it,
 * for the message only.
 */
export function lockDataDir(dataDir: string): DataLock {
  fs.mkdirSync(dataDir, { recursive: true });
  // timeout 0: a held lock fails at once instead of waiting for it.
  const lock = new SQLite(path.join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    lock.pragma("locking_mode = EXCLUSIVE");
    // The first write takes the exclusive lock; in this mode the connection keeps it until closed.
    lock.exec("BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (pid INTEGER); DELETE FROM held; INSERT INTO held VALUES (" + process.pid + "); COMMIT");
  } catch (error) {
    lock.close();
    if (!(error instanceof SQLite.SqliteError) || !error.code.startsWith("SQLITE_BUSY")) throw error;
    throw new ConfigError(`the data folder ${dataDir} is in use by another Rookery server (${holder(dataDir)}); stop it first, or give this one another ROOKERY_DATA_DIR`);
  }
  fs.writeFileSync(path.join(dataDir, HOLDER_FILE), `${process.pid}\n`);
  return {
    release() {
      if (!lock.open) return;
      fs.rmSync(path.join(dataDir, HOLDER_FILE), { force: true });
      lock.close();
    },
  };
}

function holder(dataDir: string): string {
  try {
    const pid = fs.readFileSync(path.join(dataDir, HOLDER_FILE), "utf8").trim();
    if (/^\d+$/.test(pid)) return `process ${pid}`;
  } catch {
    // Not written yet: the other server is starting at this very moment.
  }
  return "a process that is starting";
}
