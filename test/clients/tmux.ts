import { spawnSync } from "node:child_process";

/** A tmux server of its own (`-L socket`) holding one session `name`: commands, its screen, and waiting on it. */
export function tmuxSession(socket: string, name: string) {
  const tmux = (...args: string[]): string => {
    const run = spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8", timeout: 10_000 });
    if (run.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${run.stderr}`);
    return run.stdout;
  };
  /** The screen as text, or with its colours (SGR sequences) kept. */
  const screen = (colours = false): string => tmux("capture-pane", "-p", ...(colours ? ["-e"] : []), "-t", name);
  /** Waits until every text is on the screen (or fails with the screen). */
  const waitFor = async (texts: string[], seconds = 40): Promise<string> => {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const shown = screen();
      if (texts.every((t) => shown.includes(t))) return shown;
      if (Date.now() > deadline) throw new Error(`not shown: ${texts.filter((t) => !shown.includes(t)).join(" | ")}\n${shown}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const kill = (): void => void spawnSync("tmux", ["-L", socket, "kill-server"]);
  return { tmux, screen, waitFor, kill };
}
