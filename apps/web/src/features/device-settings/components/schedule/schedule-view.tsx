import {
  type DeviceSchedule,
  ENUMS,
  SCHEDULE_LAYOUT,
  SCHEDULE_TYPES,
  type ScheduleProduct,
  type ScheduleQuarter,
  SOC_LIMIT_KINDS,
  scheduleRegister,
} from "@ess/domain";
import { Alert, Button, Checkbox, Col, Form, Radio, Row, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../../api/client.ts";
import { PageLoading } from "../../../../ui/page-loading.tsx";
import { StickyActions } from "../../../../ui/sticky-actions.tsx";
import { useWriteSettings } from "../../hooks/use-device-settings.ts";
import { useScheduleDraft } from "../../hooks/use-schedule.ts";
import { settingProblemText } from "../../setting-problem.ts";
import { ReadAgainButton } from "../read-again-button.tsx";
import { RestoreDefaults } from "../restore-defaults.tsx";
import { SettingsForm } from "../settings-form.tsx";
import { DayStrip } from "./day-strip.tsx";
import { QuarterCard } from "./quarter-card.tsx";
import { SocLimits } from "./soc-limits.tsx";
import { SpecialDates } from "./special-dates.tsx";
import type { FieldState } from "./window-fields.tsx";
import { YearStrip } from "./year-strip.tsx";

type Outcome = { type: "success" | "error" | "info"; text: string };

const socRegisters = (product: ScheduleProduct) =>
  Object.fromEntries(
    SOC_LIMIT_KINDS.map((kind) => {
      const [soc, enabled] = SCHEDULE_LAYOUT[product].socLimits[kind];
      return [kind, { soc: scheduleRegister(product, soc), enabled: scheduleRegister(product, enabled) }];
    }),
  ) as Record<(typeof SOC_LIMIT_KINDS)[number], { soc: string; enabled: string }>;

function Section({
  title,
  help,
  inUse,
  children,
  testId,
}: {
  title: string;
  help: string;
  /** Whether the device follows this part now (unknown: not said). */
  inUse?: boolean | undefined;
  children: React.ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation(["schedules"]);
  return (
    <section style={{ marginBottom: 24 }} data-testid={testId}>
      <Typography.Title level={5} style={{ marginBottom: 0 }}>
        {title}{" "}
        {inUse !== undefined && (
          <Tag color={inUse ? "green" : "default"} data-testid={testId && `${testId}-in-use`}>
            {t(inUse ? "schedules:view.inUse" : "schedules:view.notInUse")}
          </Tag>
        )}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{help}</Typography.Paragraph>
      {children}
    </section>
  );
}

/**
 * The schedule page drawn as a schedule: quarters as month ranges with their weekdays, periods and
 * modes; five special dates; the day's 24 hourly modes as a strip; the SOC limits beside their
 * switches. Its registers stay the storage: Save sends the registers the edits change as one
 * change record through the write path, then reads the page back from the device.
 */
export function ScheduleView({ deviceId, product }: { deviceId: number; product: ScheduleProduct }) {
  const { t } = useTranslation(["schedules", "settings", "enums", "errors", "registers", "fields"]);
  const s = useScheduleDraft(deviceId, product);
  const write = useWriteSettings(deviceId);
  const [queue, setQueue] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const page = SCHEDULE_LAYOUT[product].page;

  if (s.answer.error) {
    return (
      <Alert
        type="warning"
        showIcon
        title={s.answer.error instanceof ApiError ? s.answer.error.message : t("errors:internal")}
        data-testid="settings-load-error"
      />
    );
  }
  if (s.answer.isPending || !s.rightsReady) return <PageLoading />;
  if (!s.reading.ok || !s.schedule) {
    // Registers missing from the answer (hidden for this audience) or out of range: the fields as they are.
    return (
      <>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t("schedules:view.unreadable", { count: s.reading.ok ? 0 : s.reading.unreadable.length })}
          data-testid="schedule-unreadable"
        />
        <SettingsForm deviceId={deviceId} page={page} product={product} />
      </>
    );
  }

  const schedule = s.schedule;
  const live: Record<string, string> = {};
  for (const p of s.problems) {
    const path = s.pathOf(p.field);
    if (path && !live[path]) live[path] = settingProblemText(t, p);
  }
  const state: FieldState = { errorAt: (path) => live[path] ?? serverErrors[path], settable: s.settable };
  const count = Object.keys(s.changes).length;
  const inUse = (type: number) => (s.type === null ? undefined : s.type === type);
  const edit = (change: (draft: DeviceSchedule) => void) => {
    const next = structuredClone(schedule);
    change(next);
    setServerErrors({});
    setOutcome(null);
    s.edit(next);
  };

  const save = async () => {
    setOutcome(null);
    if (count === 0) return setOutcome({ type: "info", text: t("settings:form.noChanges") });
    const first = s.problems[0];
    if (first) return setOutcome({ type: "error", text: t(first.key, first.values) });
    try {
      const record = await write.mutateAsync({ values: s.changes, queueIfOffline: queue });
      if (record.state === "acknowledged") {
        // Read back what the device now holds; the view shows it, not what was sent.
        await s.readAgain();
        setOutcome({ type: "success", text: t("schedules:view.savedAndRead") });
      } else if (record.state === "queued") setOutcome({ type: "info", text: t("settings:form.queued") });
      else setOutcome({ type: "error", text: record.refusalText ?? t(`settings:states.${record.state}`) });
    } catch (error) {
      if (error instanceof ApiError) {
        setServerErrors(Object.fromEntries(error.fields.map((f) => [s.pathOf(f.field) ?? f.field, f.message])));
        setOutcome({ type: "error", text: error.fields[0]?.message ?? error.message });
      } else setOutcome({ type: "error", text: t("errors:internal") });
    }
  };

  return (
    <Form layout="vertical" component="div" data-testid="schedule-view">
      {s.type !== null && (
        <Section title={t("schedules:view.follows")} help={t("schedules:view.followsHelp")}>
          <Form.Item help={state.errorAt("type")} validateStatus={state.errorAt("type") ? "error" : undefined}>
            <Radio.Group
              value={s.type}
              optionType="button"
              disabled={!s.typeSettable}
              onChange={(e) => {
                setServerErrors({});
                setOutcome(null);
                s.editType(e.target.value);
              }}
              data-testid="schedule-type"
              options={ENUMS.scheduleType.values.map((v) => ({
                value: v,
                label: <span data-testid={`schedule-type-${v}`}>{t(`enums:scheduleType.${v}`)}</span>,
              }))}
            />
          </Form.Item>
        </Section>
      )}
      <Section
        title={t("schedules:view.quarters")}
        help={t("schedules:view.quartersHelp")}
        inUse={inUse(SCHEDULE_TYPES.byDate)}
        testId="schedule-section-quarters"
      >
        <YearStrip quarters={schedule.quarters} />
        <Row gutter={[16, 16]}>
          {SCHEDULE_LAYOUT[product].quarters.map((base, i) => (
            <Col key={base} xs={24} xxl={12}>
              <QuarterCard
                index={i}
                value={schedule.quarters[i] as ScheduleQuarter}
                state={state}
                onChange={(next) =>
                  edit((d) => {
                    d.quarters[i] = next;
                  })
                }
              />
            </Col>
          ))}
        </Row>
      </Section>
      <Section
        title={t("schedules:view.specialDates")}
        help={t("schedules:view.specialDatesHelp")}
        inUse={inUse(SCHEDULE_TYPES.byDate)}
      >
        <SpecialDates
          value={schedule.specialDates}
          state={state}
          onChange={(i, next) =>
            edit((d) => {
              d.specialDates[i] = next;
            })
          }
        />
      </Section>
      <Section
        title={t("schedules:view.hourly")}
        help={t("schedules:view.hourlyHelp")}
        inUse={inUse(SCHEDULE_TYPES.byTime)}
        testId="schedule-section-hourly"
      >
        <DayStrip
          hourly={schedule.hourly}
          editable={schedule.hourly.every((_, h) => s.settable(`hourly.${h}`))}
          onChange={(hourly) =>
            edit((d) => {
              d.hourly = hourly;
            })
          }
        />
      </Section>
      <Section title={t("schedules:view.soc")} help={t("schedules:view.socHelp")}>
        <RestoreDefaults
          deviceId={deviceId}
          product={product}
          shown={Object.values(socRegisters(product)).flatMap((r) => [r.soc, r.enabled])}
          current={s.current}
          settable={s.settableRegister}
          onRestored={() => s.readAgain()}
          blockedBy={count > 0 ? t("schedules:view.saveFirst") : undefined}
          onOutcome={setOutcome}
        />
        <SocLimits
          value={schedule.soc}
          registers={socRegisters(product)}
          state={state}
          onChange={(kind, next) =>
            edit((d) => {
              d.soc[kind] = next;
            })
          }
        />
      </Section>
      <StickyActions>
        <Space wrap>
          <Button type="primary" onClick={() => void save()} loading={write.isPending} data-testid="schedule-save">
            {t("settings:form.save")}
          </Button>
          <ReadAgainButton unsaved={count} loading={s.answer.isFetching} onRead={s.readAgain} testId="schedule-reload" />
          <Checkbox checked={queue} onChange={(e) => setQueue(e.target.checked)} data-testid="schedule-queue">
            {t("settings:form.queueIfOffline")}
          </Checkbox>
          {count > 0 && (
            <Tag color="blue" data-testid="schedule-changes">
              {t("schedules:view.changes", { count })}
            </Tag>
          )}
        </Space>
        {outcome && (
          <Alert style={{ width: "100%" }} type={outcome.type} showIcon title={outcome.text} data-testid="schedule-outcome" />
        )}
      </StickyActions>
    </Form>
  );
}
