import { useSyncExternalStore } from "react";

/**
 * A small value store kept in local or session storage and shared with React through
 * useSyncExternalStore. Unreadable stored data falls back to the initial value.
 */
export function persistedStore<T>(
  storage: () => Storage,
  key: string,
  initial: T,
  revive: (raw: unknown) => T = (raw) => raw as T,
) {
  const listeners = new Set<() => void>();
  const read = (): T => {
    try {
      const raw = storage().getItem(key);
      return raw === null ? initial : revive(JSON.parse(raw));
    } catch {
      return initial;
    }
  };
  let current = read();
  const store = {
    get: () => current,
    set(next: T) {
      current = next;
      try {
        if (next === initial) storage().removeItem(key);
        else storage().setItem(key, JSON.stringify(next));
      } catch {
        // storage full or disabled: the value still holds for this page
      }
      for (const listener of listeners) listener();
    },
    update(change: (value: T) => T) {
      store.set(change(current));
    },
    reset: () => store.set(initial),
    /** Re-reads storage (after start-up cache clearing or another tab's change). */
    reload() {
      current = read();
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  return store;
}

export type PersistedStore<T> = ReturnType<typeof persistedStore<T>>;

export function useStore<T>(store: PersistedStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}
