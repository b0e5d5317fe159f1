import type { MenuNode, TokenAnswer, UserInfo } from "@ess/contracts";
import { useSyncExternalStore } from "react";

/** The session of spec §3, kept in session storage so it ends with the browser tab. */
export interface Session {
  access_token: string;
  refresh_token: string;
  /** Seconds left when stored; with `storedAt` it gives the expiry. */
  expires_in: number;
  storedAt: number;
  sfFirst: boolean;
  userInfo: UserInfo | null;
  permissions: Record<string, true>;
  /** The left and top menus from the server (spec §3 Session: menu). */
  menu?: { userId: number; left: MenuNode[]; top: MenuNode[] } | undefined;
}

const KEY = "ess.session";
const listeners = new Set<() => void>();
const signInListeners = new Set<() => void>();

/** Runs at every successful sign-in (the lock clears then, spec §4). */
export function onSignIn(listener: () => void) {
  signInListeners.add(listener);
}
let current: Session | null = read();

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

function write(next: Session | null) {
  current = next;
  if (next) sessionStorage.setItem(KEY, JSON.stringify(next));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export const sessionStore = {
  get: () => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  signIn(token: TokenAnswer) {
    write({
      access_token: token.access_token,
      refresh_token: token.refresh_token,
      expires_in: token.expires_in,
      storedAt: Date.now(),
      sfFirst: token.sfFirst,
      userInfo: null,
      permissions: {},
    });
    for (const listener of signInListeners) listener();
  },
  setUserInfo(info: UserInfo) {
    if (!current) return;
    write({ ...current, userInfo: info, permissions: Object.fromEntries(info.permissions.map((p) => [p, true])) });
  },
  setMenu(menu: { userId: number; left: MenuNode[]; top: MenuNode[] }) {
    // A late write for another account (after a sign-out) must not land in this session.
    if (current && current.userInfo?.user.id === menu.userId) write({ ...current, menu });
  },
  /** A token refresh replaces both tokens and restarts the expiry count. */
  replaceTokens(token: { access_token: string; refresh_token: string; expires_in: number }) {
    if (!current) return;
    write({ ...current, ...token, storedAt: Date.now() });
  },
  /** The forced first password change is done: the whole console opens. */
  passwordChanged() {
    if (current) write({ ...current, sfFirst: false });
  },
  clear: () => write(null),
};

/** Seconds left before the access token expires. */
export function secondsLeft(session: Session, now = Date.now()): number {
  return session.expires_in - Math.floor((now - session.storedAt) / 1000);
}

export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}
