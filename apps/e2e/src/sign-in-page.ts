import { solveSlide } from "@ess/simulator";
import type { Page } from "playwright-core";

/** Drags the slide piece into its gap as a user would, after looking at the picture. */
export async function solveSlideOnPage(page: Page) {
  await page.getByTestId("slide-background").waitFor();
  const background = (await page.getByTestId("slide-background").getAttribute("src")) as string;
  const piece = (await page.getByTestId("slide-piece").getAttribute("src")) as string;
  const top = await page.getByTestId("slide-piece").evaluate((el) => Number.parseFloat((el as HTMLElement).style.top));
  const x = solveSlide(background, piece, top);
  const box = (await page.getByTestId("slide-handle").boundingBox()) as { x: number; y: number; width: number; height: number };
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let step = 1; step <= 12; step++)
    await page.mouse.move(box.x + box.width / 2 + (x * step) / 12, box.y + box.height / 2, { steps: 2 });
  await page.mouse.up();
}

/** Fills the sign-in form, solves the slide verification and submits. */
export async function signInOnPage(page: Page, username: string, password: string) {
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await solveSlideOnPage(page);
  await page.getByTestId("slide-handle").and(page.locator("[disabled]")).waitFor();
  await page.getByTestId("login-submit").click();
}
