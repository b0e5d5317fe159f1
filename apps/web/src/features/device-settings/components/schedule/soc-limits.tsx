import { SOC_LIMIT_KINDS, type SocLimit, type SocLimitKind } from "@ess/domain";
import { Col, Form, InputNumber, Row, Switch } from "antd";
import { useTranslation } from "react-i18next";
import type { FieldState } from "./window-fields.tsx";

/**
 * The buy, sell and use SOC limits beside their switches. The labels are the registers' own
 * (catalogue), so they say upper or lower limit as the model's firmware does. A number out of
 * range is kept as typed and refused by the rule, never clamped.
 */
export function SocLimits({
  value,
  onChange,
  registers,
  state,
}: {
  value: Record<SocLimitKind, SocLimit>;
  onChange: (kind: SocLimitKind, next: SocLimit) => void;
  /** The register ids of each limit and its switch. */
  registers: Record<SocLimitKind, { soc: string; enabled: string }>;
  state: FieldState;
}) {
  const { t } = useTranslation(["registers", "schedules", "enums"]);
  return (
    <Row gutter={16} data-testid="schedule-soc">
      {SOC_LIMIT_KINDS.map((kind) => {
        const limit = value[kind];
        const path = `soc.${kind}`;
        const error = state.errorAt(`${path}.soc`) ?? state.errorAt(`${path}.enabled`);
        return (
          <Col key={kind} xs={24} md={8}>
            <Form.Item
              label={t(`registers:${registers[kind].soc}`)}
              validateStatus={error ? "error" : undefined}
              help={error}
              data-testid={`schedule-soc-${kind}`}
            >
              <div style={{ display: "flex", gap: 12, alignItems: "center" }}>
                <Switch
                  checked={limit.enabled}
                  checkedChildren={t("enums:prohibitEnable.1")}
                  unCheckedChildren={t("enums:prohibitEnable.0")}
                  onChange={(enabled) => onChange(kind, { ...limit, enabled })}
                  disabled={!state.settable(`${path}.enabled`)}
                  aria-label={t(`registers:${registers[kind].enabled}`)}
                  title={t(`registers:${registers[kind].enabled}`)}
                  data-testid={`schedule-soc-${kind}-enabled`}
                />
                <InputNumber
                  value={Number.isNaN(limit.soc) ? null : limit.soc}
                  onChange={(soc) => onChange(kind, { ...limit, soc: typeof soc === "number" ? soc : Number.NaN })}
                  disabled={!state.settable(`${path}.soc`)}
                  suffix="%"
                  aria-label={t(`registers:${registers[kind].soc}`)}
                  data-testid={`schedule-soc-${kind}-value`}
                  style={{ flex: 1 }}
                />
              </div>
            </Form.Item>
          </Col>
        );
      })}
    </Row>
  );
}
