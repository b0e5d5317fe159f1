import { Activity, type ReactNode, useRef } from "react";
import { useLocation, useOutlet } from "react-router";

/**
 * Which pages are kept mounted, by path, after a render at `pathname`: a kept page enters when it
 * first shows and leaves when its tab closes — or when its path shows and is not kept (any more):
 * a path judged kept for one render (the route's flag read while the previous route's was still
 * current) must not stay cached beside the page rendered afresh, or it shows twice.
 */
export function updateKeptPages<E>(cache: Map<string, E>, pathname: string, kept: boolean, open: ReadonlySet<string>, page: E) {
  for (const path of cache.keys()) if (!open.has(path)) cache.delete(path);
  if (!kept) cache.delete(pathname);
  else if (!cache.has(pathname)) cache.set(pathname, page);
}

/**
 * Renders the current route, and keeps the pages of routes flagged keep-alive mounted but hidden
 * while another tab shows (spec §2), so their state survives switching tabs. A page leaves the
 * cache when its tab closes.
 */
export function KeepAliveOutlet({ keepAlive, open }: { keepAlive: (path: string) => boolean; open: ReadonlySet<string> }) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const cache = useRef(new Map<string, ReactNode>());
  const kept = keepAlive(pathname);
  updateKeptPages(cache.current, pathname, kept, open, outlet);
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
