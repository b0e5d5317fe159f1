import type { DeviceLive } from "@ess/contracts";
import { Card, Col, Row, Statistic } from "antd";
import { useTranslation } from "react-i18next";

const SHOWN = [
  { column: "pv_power", unit: "W" },
  { column: "load_power", unit: "W" },
  { column: "battery_power", unit: "W" },
  { column: "battery_soc", unit: "%" },
  { column: "grid_power", unit: "W" },
] as const;

/** The newest reading's key quantities, one tile each. */
export function LiveQuantities({ latest }: { latest: NonNullable<DeviceLive["latest"]> }) {
  const { t } = useTranslation("deviceLive");
  return (
    <Row gutter={[16, 16]}>
      {SHOWN.map(({ column, unit }) => {
        const value = latest.quantities[column];
        return (
          <Col xs={12} md={8} lg={4} key={column}>
            <Card size="small">
              <Statistic
                title={t(`quantities.${column}`)}
                value={value ?? "—"}
                suffix={value === null || value === undefined ? undefined : unit}
                valueRender={(node) => <span data-testid={`live-${column}`}>{node}</span>}
              />
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
