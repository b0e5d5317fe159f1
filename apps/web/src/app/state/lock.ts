import { onSignIn } from "../session.ts";
import { persistedStore, useStore } from "./persisted-store.ts";

/**
 * The lock of spec §4: a flag and the lock password, kept in local storage so that a reload does
 * not unlock. Only a salted SHA-256 digest of the password is stored.
 */
export interface LockState {
  locked: boolean;
  salt: string;
  digest: string;
  /** Where the user was when locking, to return there on unlock. */
  from?: string;
}

const UNLOCKED: LockState = { locked: false, salt: "", digest: "" };

export const lockStore = persistedStore<LockState>(
  () => localStorage,
  "ess.lock",
  UNLOCKED,
  (raw) => {
    const v = raw as Partial<LockState>;
    return v && v.locked === true && typeof v.salt === "string" && typeof v.digest === "string"
      ? { locked: true, salt: v.salt, digest: v.digest, from: typeof v.from === "string" ? v.from : "/" }
      : UNLOCKED;
  },
);

export const useLock = () => useStore(lockStore);

async function digestOf(salt: string, password: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${salt}:${password}`));
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function lockWith(password: string) {
  const salt = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  lockStore.set({ locked: true, salt, digest: await digestOf(salt, password) });
}

/** Unlocks when the password matches; answers where to return, or null for a wrong password. */
export async function unlockWith(password: string): Promise<string | null> {
  const state = lockStore.get();
  if (!state.locked) return "/";
  if ((await digestOf(state.salt, password)) !== state.digest) return null;
  lockStore.reset();
  return state.from ?? "/";
}

/** Signing in again or a token refresh clears the lock (spec §4). */
export const clearLock = () => lockStore.reset();

onSignIn(clearLock);
