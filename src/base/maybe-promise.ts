/**
 * A value a cache hands out at once when it holds it, or a promise when it must read the
 * database first. The request path skips the await (a microtask turn each) when it can; every
 * other caller simply awaits.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `f(a, b)` now when both are known, else once both have arrived. */
export function whenBoth<A, B, R>(a: MaybePromise<A>, b: MaybePromise<B>, f: (a: A, b: B) => R): MaybePromise<R> {
  if (a instanceof Promise || b instanceof Promise) return Promise.all([a, b]).then(([x, y]) => f(x, y));
  return f(a, b);
}
