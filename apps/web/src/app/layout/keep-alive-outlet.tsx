import { Activity, type ReactNode, useRef } from "react";
import { useLocation, useOutlet } from "react-router";

/**
 * Renders the current route, and keeps the pages of routes flagged keep-alive mounted but hidden
 * while another tab shows (spec §2), so their state survives switching tabs. A page leaves the
 * cache when its tab closes.
 */
export function KeepAliveOutlet({ keepAlive, open }: { keepAlive: (path: string) => boolean; open: ReadonlySet<string> }) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const cache = useRef(new Map<string, ReactNode>());
  for (const path of cache.current.keys()) if (!open.has(path)) cache.current.delete(path);
  const kept = keepAlive(pathname);
  if (kept && !cache.current.has(pathname)) cache.current.set(pathname, outlet);
  return (
    <>
      {[...cache.current].map(([path, element]) => (
        <Activity key={path} mode={path === pathname ? "visible" : "hidden"}>
          {element}
        </Activity>
      ))}
      {!kept && outlet}
    </>
  );
}
