/**
 * Runs `work` beside a 2 ms interval timer and answers the longest gap between its ticks: the
 * longest time the event loop was blocked (the synchronous start of `work` included).
 */
export async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let worst = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 2);
  await new Promise((resolve) => setTimeout(resolve, 20));
  worst = 0;
  last = performance.now();
  await work();
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(probe);
  return worst;
}
