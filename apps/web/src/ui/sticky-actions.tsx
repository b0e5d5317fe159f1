import type { ReactNode } from "react";

/**
 * A form's actions (Save, Read again, …) kept in view at the bottom of the window while a long
 * form scrolls under them, and in their place at the form's end once it is reached
 * (`.ess-sticky-actions` in the shell's styles).
 */
export function StickyActions({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="ess-sticky-actions" data-testid={testId}>
      {children}
    </div>
  );
}
