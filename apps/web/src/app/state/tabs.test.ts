import { describe, expect, it } from "vitest";
import { addTab, closeAll, closeOthers, closeTab, HOME_TAB, isClosable, setTabSubject, type Tab } from "./tabs.ts";

const tab = (value: string): Tab => ({ value, query: "", label: { text: value } });
const paths = (tabs: Tab[]) => tabs.map((t) => t.value);
const open = [HOME_TAB, tab("/a/index"), tab("/b/index"), tab("/c/index")];

describe("tab rules (spec §2)", () => {
  it("adds a tab once; a second visit refreshes its query; empty paths are skipped", () => {
    const once = addTab([HOME_TAB], tab("/a/index"));
    const twice = addTab(once, { ...tab("/a/index"), query: "?id=2" });
    expect(paths(twice)).toEqual(["/wel/index", "/a/index"]);
    expect(twice[1]?.query).toBe("?id=2");
    expect(addTab(once, tab(""))).toEqual(once);
  });

  it("never closes the only tab nor, by default, home", () => {
    expect(isClosable([HOME_TAB], HOME_TAB)).toBe(false);
    expect(isClosable(open, HOME_TAB)).toBe(false);
    expect(closeTab(open, HOME_TAB.value, "/a/index")).toEqual({ tabs: open, open: null });
    expect(isClosable([tab("/a/index")], tab("/a/index"))).toBe(false);
  });

  it("closing the active tab opens the one before it, or the first", () => {
    expect(closeTab(open, "/b/index", "/b/index")).toEqual({
      tabs: [HOME_TAB, tab("/a/index"), tab("/c/index")],
      open: tab("/a/index"),
    });
    const [, ...withoutHome] = open;
    expect(closeTab(withoutHome, "/a/index", "/a/index").open).toEqual(tab("/b/index"));
    expect(closeTab(open, "/b/index", "/c/index")).toEqual({ tabs: [HOME_TAB, tab("/a/index"), tab("/c/index")], open: null });
  });

  it("close others keeps home and the chosen tab; close all returns to home", () => {
    expect(paths(closeOthers(open, "/b/index"))).toEqual(["/wel/index", "/b/index"]);
    expect(closeAll(open)).toEqual({ tabs: [HOME_TAB], open: HOME_TAB });
  });

  it("names what a tab's page shows, keeps the name on a second visit, and touches no other tab", () => {
    const two = [HOME_TAB, tab("/device/details/1"), tab("/device/details/2")];
    const named = setTabSubject(setTabSubject(two, "/device/details/1", "Demo 1"), "/device/details/2", "ESSDEMO00002");
    expect(named.map((t) => t.subject)).toEqual([undefined, "Demo 1", "ESSDEMO00002"]);
    expect(addTab(named, { ...tab("/device/details/1"), query: "?tab=statistics" })[1]?.subject).toBe("Demo 1");
    // Naming it the same again changes nothing (the same objects: no store update, no render).
    expect(setTabSubject(named, "/device/details/1", "Demo 1")[1]).toBe(named[1]);
  });
});
