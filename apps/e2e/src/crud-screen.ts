import type { Locator, Page } from "playwright-core";

/**
 * Drives a screen of the generic list/form layer (`apps/web/src/ui/crud`) by its test ids:
 * `<id>-page`, `<id>-create`, row buttons `<id>-<action>`, dialogs `<id>-<action>-dialog` with
 * inputs `<dialog>-<field>`, and each field inside `field-<name>` with its refusal.
 */
export function crudScreen(page: Page, id: string) {
  const root = page.getByTestId(`${id}-page`);
  let dialog = `${id}-create-dialog`;
  const input = (name: string) => page.getByTestId(`${dialog}-${name}`);
  // A dialog zooms in; a click while it still moves can land beside its target and be lost.
  const standing = () => page.waitForFunction(() => !document.querySelector(".ant-modal[class*='ant-zoom']"));
  return {
    root,
    async open(url: string, path: string) {
      await page.goto(`${url}#${path}`);
      await root.waitFor();
    },
    row: (text: string): Locator => root.locator("tr.ant-table-row", { hasText: text }),
    async create() {
      dialog = `${id}-create-dialog`;
      await page.getByTestId(`${id}-create`).click();
      await page.getByTestId(dialog).waitFor();
      await standing();
    },
    /** Opens a row's dialog (edit, reset…) or clicks a row's button. */
    async rowAction(text: string, action: string) {
      dialog = `${id}-${action}-dialog`;
      await root.locator("tr.ant-table-row", { hasText: text }).getByTestId(`${id}-${action}`).click();
      await standing();
    },
    /** Opens a row's dialog or drawer from its "More" menu (the actions not shown as buttons). */
    async menuAction(text: string, action: string) {
      dialog = `${id}-${action}-dialog`;
      await root.locator("tr.ant-table-row", { hasText: text }).getByTestId(`${id}-more`).click();
      await page.locator(".ant-dropdown:not(.ant-dropdown-hidden)").getByTestId(`${id}-${action}`).click();
      await standing();
    },
    async fill(values: Record<string, string>) {
      for (const [name, value] of Object.entries(values)) await input(name).fill(value);
    },
    /** Picks a choice of a select by its visible label, typed first as a user would in a long list. */
    async choose(name: string, label: string) {
      await input(name).click();
      await page.keyboard.type(label);
      await page
        .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: label })
        .first()
        .click();
      await page.keyboard.press("Escape");
      // The list closes with an animation; the next select's list must not be confused with it.
      await page.waitForFunction(
        () => document.querySelectorAll(".ant-select-dropdown:not(.ant-select-dropdown-hidden)").length === 0,
      );
    },
    /** Ticks entries of a checkable tree by their labels. */
    async tick(name: string, labels: string[]) {
      for (const label of labels) await input(name).locator(".ant-tree-title", { hasText: label }).first().click();
    },
    async save() {
      await page.getByTestId(`${dialog}-ok`).click();
    },
    async cancel() {
      await page.getByTestId(`${dialog}-cancel`).click();
      await page.getByTestId(dialog).waitFor({ state: "detached" });
    },
    dialogGone: () => page.getByTestId(dialog).waitFor({ state: "detached" }),
    /**
     * The refusal shown under a field, or null when the field is not refused: a message going away
     * stays in the page while it fades out (longer on a loaded machine), so the item's error state
     * is what counts.
     */
    async fieldError(name: string): Promise<string | null> {
      const item = page.getByTestId(`field-${name}`).locator(".ant-form-item").first();
      if ((await item.count()) === 0 || !((await item.getAttribute("class")) ?? "").includes("ant-form-item-has-error"))
        return null;
      const error = item.locator(".ant-form-item-explain-error");
      return (await error.count()) > 0 ? ((await error.first().textContent()) ?? "") : null;
    },
  };
}

/** The paths of the side menu a user sees, with every group opened. */
export async function sideMenuPaths(page: Page): Promise<string[]> {
  await page.getByTestId("sidebar").waitFor();
  const groups = page.locator('[data-testid="sidebar"] .ant-menu-submenu-title');
  for (let i = 0; i < (await groups.count()); i++) {
    const group = groups.nth(i);
    if ((await group.getAttribute("aria-expanded")) !== "true") await group.click();
  }
  await page.waitForTimeout(300);
  const ids = await page
    .locator('[data-testid="sidebar"] [data-testid^="menu:"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
  return ids.map((id) => String(id).slice("menu:".length)).sort();
}
