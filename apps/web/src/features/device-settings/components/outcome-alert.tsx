import { Alert } from "antd";
import type { CSSProperties } from "react";

/** How a save or a command ended, as the panels say it: green when done, red with the reason. */
export interface Outcome {
  ok: boolean;
  text: string;
}

/** The outcome of the last save or command under a panel's form; nothing before the first. */
export function OutcomeAlert({ outcome, testId, style }: { outcome: Outcome | null; testId: string; style?: CSSProperties }) {
  if (!outcome) return null;
  return <Alert style={style} type={outcome.ok ? "success" : "error"} showIcon title={outcome.text} data-testid={testId} />;
}
