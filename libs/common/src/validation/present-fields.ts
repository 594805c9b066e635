/** The listed keys of `T`, each optional and never `undefined`. */
export type PresentFields<T, K extends keyof T> = { [P in K]?: Exclude<T[P], undefined> };

/**
 * The listed keys the body actually carries, for a partial update: an omitted field keeps its stored value, while
 * `null` is kept so that it clears a nullable one. Keys not listed (server-owned or handled apart) never pass.
 */
export function presentFields<T extends object, K extends keyof T>(source: T, keys: readonly K[]): PresentFields<T, K> {
  const fields: PresentFields<T, K> = {};
  for (const key of keys) {
    const value = source[key];
    if (value !== undefined) fields[key] = value as Exclude<T[K], undefined>;
  }
  return fields;
}
