/**
 * A pure function of one key, remembered (up to `limit` keys, then forgotten all at once). For
 * values built on every request from inputs that rarely change: a user's avatar hash and join
 * date in each user object, the decoded Authorization header. A call that throws is not kept.
 */
export function remembered<K, V>(fn: (key: K) => V, limit = 10_000): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      if (memo.size >= limit) memo.clear();
      value = fn(key);
      memo.set(key, value);
    }
    return value;
  };
}
