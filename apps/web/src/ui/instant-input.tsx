import { DatePicker } from "antd";
import dayjs, { type Dayjs } from "dayjs";

/**
 * A date and time input for the CRUD layer whose value is an ISO instant (or null when cleared),
 * shown on the browser's clock in the language's pattern (antd's locale).
 */
export function InstantInput({
  value,
  onChange,
  testId,
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
}) {
  return (
    <DatePicker
      showTime
      data-testid={testId}
      value={typeof value === "string" && value ? dayjs(value) : null}
      onChange={(v: Dayjs | null) => onChange?.(v ? v.toISOString() : null)}
    />
  );
}
