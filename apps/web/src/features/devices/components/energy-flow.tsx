import type { DeviceLive } from "@ess/contracts";
import { Alert, Card, theme } from "antd";
import { useTranslation } from "react-i18next";

type Quantities = Record<string, number | null>;

/** Node positions of the diagram (viewBox 0 0 600 340); the inverter sits in the middle. */
const CENTRE = { x: 300, y: 170 };
const NODES = {
  pv: { x: 300, y: 40 },
  grid: { x: 70, y: 170 },
  load: { x: 530, y: 170 },
  battery: { x: 300, y: 300 },
  generator: { x: 530, y: 40 },
} as const;
type Node = keyof typeof NODES;

/**
 * Power on each branch with its direction towards the inverter (+1), away from it (−1) or none (0),
 * from the sign conventions of the key quantities: grid > 0 imports, battery > 0 discharges.
 */
export function flowsOf(q: Quantities): Record<Node, { watts: number; direction: -1 | 0 | 1 }> {
  const branch = (w: number | null | undefined, towardsInverterWhenPositive: boolean) => {
    const watts = Math.round(w ?? 0);
    const sign = watts === 0 ? 0 : watts > 0 ? 1 : -1;
    return { watts: Math.abs(watts), direction: (towardsInverterWhenPositive ? sign : -sign) as -1 | 0 | 1 };
  };
  return {
    pv: branch(q.pv_power, true),
    grid: branch(q.grid_power, true),
    battery: branch(q.battery_power, true),
    load: branch(q.load_power, false),
    generator: branch(q.generator_power, true),
  };
}

const kw = (w: number) => `${(w / 1000).toFixed(2)} kW`;

/**
 * The energy flow (spec §2): PV, battery, grid, load and generator around the inverter, each line
 * moving in the direction power flows and labelled with its power, redrawn with every live reading.
 */
export function EnergyFlow({ live, loading }: { live: DeviceLive | undefined; loading: boolean }) {
  const { t } = useTranslation(["devices"]);
  // The theme colour draws the flows, as it does every primary control.
  const { token } = theme.useToken();
  if (live && live.onlineStatus === 0) {
    return (
      <Card title={t("flow.title")} size="small">
        <Alert type="warning" showIcon title={t("flow.offline")} data-testid="energy-flow-offline" />
      </Card>
    );
  }
  if (loading || !live?.latest) {
    return (
      <Card title={t("flow.title")} size="small">
        <Alert type="info" showIcon title={t("flow.loading")} data-testid="energy-flow-loading" />
      </Card>
    );
  }
  const q = live.latest.quantities;
  const flows = flowsOf(q);
  const soc = q.battery_soc;
  return (
    <Card title={t("flow.title")} size="small" data-testid="energy-flow">
      <svg viewBox="0 0 600 340" style={{ width: "100%", maxHeight: 340 }} role="img" aria-label={t("flow.title")}>
        <style>{`
          .ess-flow { stroke-dasharray: 10 8; animation: ess-flow-move 0.9s linear infinite; }
          .ess-flow.out { animation-direction: reverse; }
          @keyframes ess-flow-move { from { stroke-dashoffset: 18; } to { stroke-dashoffset: 0; } }
        `}</style>
        {(Object.keys(NODES) as Node[]).map((node) => {
          const p = NODES[node];
          const f = flows[node];
          const active = f.direction !== 0;
          return (
            <g key={node} data-testid={`flow-${node}`} data-direction={f.direction}>
              <line
                x1={p.x}
                y1={p.y}
                x2={CENTRE.x}
                y2={CENTRE.y}
                stroke={active ? token.colorPrimary : token.colorBorder}
                strokeWidth={active ? 4 : 2}
                className={active ? `ess-flow${f.direction < 0 ? " out" : ""}` : undefined}
              />
              <circle cx={p.x} cy={p.y} r={30} fill={token.colorBgContainer} stroke={token.colorPrimary} strokeWidth={2} />
              <text x={p.x} y={p.y + 4} textAnchor="middle" fontSize={12}>
                {t(`flow.${node}`)}
              </text>
              <text
                x={p.x}
                y={node === "battery" ? p.y - 40 : p.y + 48}
                textAnchor="middle"
                fontSize={13}
                data-testid={`flow-${node}-power`}
              >
                {kw(f.watts)}
                {node === "battery" && soc !== null && soc !== undefined ? ` · ${soc}%` : ""}
              </text>
            </g>
          );
        })}
        <rect
          x={CENTRE.x - 40}
          y={CENTRE.y - 24}
          width={80}
          height={48}
          rx={8}
          fill={token.colorPrimary}
          data-testid="flow-inverter"
        />
        <text x={CENTRE.x} y={CENTRE.y + 5} textAnchor="middle" fontSize={12} fill="#fff">
          {t("flow.inverter")}
        </text>
      </svg>
    </Card>
  );
}
