import type { IeeeDeviceRecord } from "@ess/contracts";
import { useQuery } from "@tanstack/react-query";
import { Descriptions, Drawer, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { CrudPage } from "../../../ui/crud/index.ts";
import { ieeeResponsesCrud, TRAIL_REFRESH_MS } from "../config/ieee-responses.crud.tsx";
import { activeControlLine } from "./active-control-line.ts";

/**
 * A device's site with the grid: the control in force (what it asks, until when), its source
 * program and primacy, and below it the response trail — what the console told the utility of
 * each control and whether the utility took it.
 */
export function ControlsDrawer({ site, onClose }: { site: IeeeDeviceRecord; onClose: () => void }) {
  const { t, i18n } = useTranslation("gridCentre");
  // The list's filter matches serial numbers containing the text: the drawer's own site is picked out.
  const fresh = useQuery({
    queryKey: ["ieee-site", site.id],
    queryFn: () => call(API.ieee.page, { query: { sn: site.sn, current: 1, size: 10 } } as never),
    // A control starts and ends while the drawer is open.
    refetchInterval: TRAIL_REFRESH_MS,
  });
  const active = (fresh.data?.records.find((r) => r.id === site.id) ?? site).activeControl;
  return (
    <Drawer
      open
      onClose={onClose}
      width="min(1200px, 95vw)"
      title={t("gridCentre:drawer.controls", { sn: site.sn })}
      data-testid="ieee-controls-drawer"
    >
      <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t("gridCentre:trail.active")}>
          <span data-testid="ieee-controls-active">
            {active ? activeControlLine(active, t, { locale: i18n.language }) : t("gridCentre:trail.none")}
          </span>
        </Descriptions.Item>
        {active && (
          <Descriptions.Item label={t("gridCentre:trail.program")}>
            <span data-testid="ieee-controls-program">
              {t("gridCentre:control.source", { program: active.programMrid, primacy: active.primacy })}
            </span>
          </Descriptions.Item>
        )}
      </Descriptions>
      <Typography.Title level={5}>{t("gridCentre:trail.title")}</Typography.Title>
      <CrudPage config={ieeeResponsesCrud(site.sn)} />
    </Drawer>
  );
}
