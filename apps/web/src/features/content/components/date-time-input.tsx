import { DatePicker } from "antd";
import dayjs, { type Dayjs } from "dayjs";

/**
 * One instant picked with date and time (antd's picker, in the language's pattern); the value is
 * an ISO instant, or null when cleared.
 */
export function DateTimeInput({
  value,
  onChange,
  testId,
  id,
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
  id?: string;
}) {
  return (
    <DatePicker
      id={id}
      showTime
      data-testid={testId}
      value={typeof value === "string" && value ? dayjs(value) : null}
      onChange={(v: Dayjs | null) => onChange?.(v ? v.toISOString() : null)}
    />
  );
}
