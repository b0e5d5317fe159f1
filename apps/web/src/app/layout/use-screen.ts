import { useSyncExternalStore } from "react";

/** Spec §2: screen size classes 0 below 768 px, 1 from 768, 2 from 992, 3 from 1200. */
export const BREAKPOINTS = [768, 992, 1200] as const;
export type ScreenClass = 0 | 1 | 2 | 3;

export const screenClassOf = (width: number): ScreenClass => BREAKPOINTS.filter((b) => width >= b).length as ScreenClass;

const subscribe = (listener: () => void) => {
  window.addEventListener("resize", listener);
  return () => window.removeEventListener("resize", listener);
};

export const useScreen = (): ScreenClass => useSyncExternalStore(subscribe, () => screenClassOf(window.innerWidth));
