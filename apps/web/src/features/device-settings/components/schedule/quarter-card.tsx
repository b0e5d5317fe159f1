import type { ScheduleQuarter } from "@ess/domain";
import { Card, Col, Form, Row, Select, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { monthNames, weekdayNames } from "./calendar-names.ts";
import { type FieldState, WindowFields } from "./window-fields.tsx";

/** A from–to pair of choices (months, weekdays) with the refusal of either shown under both. */
function RangeChoice({
  label,
  names,
  value,
  onChange,
  path,
  testId,
  state,
}: {
  label: string;
  names: string[];
  value: { start: number; end: number };
  onChange: (next: { start: number; end: number }) => void;
  path: string;
  testId: string;
  state: FieldState;
}) {
  const { t } = useTranslation(["schedules"]);
  const error = state.errorAt(`${path}.start`) ?? state.errorAt(`${path}.end`);
  const options = names.map((name, i) => ({ value: i + 1, label: name }));
  return (
    <Form.Item label={label} validateStatus={error ? "error" : undefined} help={error} data-testid={testId}>
      <Space.Compact style={{ width: "100%" }}>
        <Select
          value={value.start}
          options={options}
          onChange={(start) => onChange({ ...value, start })}
          disabled={!state.settable(`${path}.start`)}
          aria-label={`${label} ${t("schedules:view.from")}`}
          data-testid={`${testId}-start`}
          style={{ width: "50%" }}
        />
        <Select
          value={value.end}
          options={options}
          onChange={(end) => onChange({ ...value, end })}
          disabled={!state.settable(`${path}.end`)}
          aria-label={`${label} ${t("schedules:view.to")}`}
          data-testid={`${testId}-end`}
          style={{ width: "50%" }}
        />
      </Space.Compact>
    </Form.Item>
  );
}

/**
 * One quarter as a user plans it: the months it covers, the weekdays of its "range", and for the
 * days in that range and the other days a period of the day with the modes inside and outside it.
 */
export function QuarterCard({
  index,
  value,
  onChange,
  state,
}: {
  index: number;
  value: ScheduleQuarter;
  onChange: (next: ScheduleQuarter) => void;
  state: FieldState;
}) {
  const { t, i18n } = useTranslation(["schedules"]);
  const path = `quarters.${index}`;
  const testId = `schedule-q${index + 1}`;
  const days = weekdayNames(i18n.language);
  return (
    <Card size="small" title={t("schedules:view.quarter", { n: index + 1 })} data-testid={testId}>
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <RangeChoice
            label={t("schedules:view.months")}
            names={monthNames(i18n.language)}
            value={value.months}
            onChange={(months) => onChange({ ...value, months })}
            path={`${path}.months`}
            testId={`${testId}-months`}
            state={state}
          />
        </Col>
        <Col xs={24} md={12}>
          <RangeChoice
            label={t("schedules:view.weekdays")}
            names={days}
            value={value.weekdays}
            onChange={(weekdays) => onChange({ ...value, weekdays })}
            path={`${path}.weekdays`}
            testId={`${testId}-weekdays`}
            state={state}
          />
        </Col>
      </Row>
      <Typography.Text strong>
        {t("schedules:view.inRange", { from: days[value.weekdays.start - 1], to: days[value.weekdays.end - 1] })}
      </Typography.Text>
      <WindowFields
        value={value.inRange}
        onChange={(inRange) => onChange({ ...value, inRange })}
        path={`${path}.inRange`}
        testId={`${testId}-in`}
        state={state}
      />
      <Typography.Text strong>{t("schedules:view.outOfRange")}</Typography.Text>
      {value.weekdays.start === 1 && value.weekdays.end === days.length && (
        <Typography.Text type="secondary"> — {t("schedules:view.noOtherDays")}</Typography.Text>
      )}
      <WindowFields
        value={value.outOfRange}
        onChange={(outOfRange) => onChange({ ...value, outOfRange })}
        path={`${path}.outOfRange`}
        testId={`${testId}-out`}
        state={state}
      />
    </Card>
  );
}
