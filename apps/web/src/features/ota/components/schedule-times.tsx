import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { OTA_SCHEDULE_MAX } from "@ess/domain";
import { Button, DatePicker, Space } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useTranslation } from "react-i18next";

/**
 * The OTA schedule: one to three upgrade times (spec §2, §9). The value is a list of ISO
 * instants; the schema refuses duplicates and an empty schedule with the spec's words.
 */
export function ScheduleTimes({
  value,
  onChange,
  testId,
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
}) {
  const { t } = useTranslation("ota");
  const times = Array.isArray(value) ? (value as (string | null)[]) : [];
  const set = (next: (string | null)[]) => onChange?.(next);
  return (
    <Space direction="vertical" data-testid={testId}>
      {times.map((time, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the times are edited in place by position
        <Space key={i}>
          <DatePicker
            showTime
            aria-label={t("time", { n: i + 1 })}
            data-testid={`${testId}-${i}`}
            value={time ? dayjs(time) : null}
            onChange={(v: Dayjs | null) => set(times.map((x, j) => (j === i ? (v ? v.toISOString() : null) : x)))}
          />
          <Button
            type="text"
            icon={<MinusCircleOutlined />}
            aria-label={t("removeTime")}
            onClick={() => set(times.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      {times.length < OTA_SCHEDULE_MAX && (
        <Button icon={<PlusOutlined />} onClick={() => set([...times, null])} data-testid={`${testId}-add`}>
          {t("addTime")}
        </Button>
      )}
    </Space>
  );
}
