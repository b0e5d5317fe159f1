import { type IeeeDeviceRecord, powerGridSaveBody } from "@ess/contracts";
import { COUNTRY_AUSTRALIA, GRID_REGISTRATION_STATES } from "@ess/domain";
import { Typography } from "antd";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud, type OptionSource } from "../../../ui/crud/index.ts";
import { activeControlText } from "../components/active-control.tsx";
import { ControlsDrawer } from "../components/controls-drawer.tsx";
import { IeeeDrawer } from "../components/ieee-drawer.tsx";
import { ieeeCommandsCrud } from "./ieee-commands.crud.tsx";
import { ieeeExchangesCrud } from "./ieee-exchanges.crud.tsx";

const registeredStates = { values: Object.values(GRID_REGISTRATION_STATES), labelKey: "enums:gridRegistration" };
/** The distribution networks, by their published names (proper names, the same in every language). */
const networks: OptionSource = {
  key: "power-grids",
  load: async () => (await call(API.powerGrid.list, {} as never)).map((n) => ({ value: n.name, label: n.name })),
};

/**
 * The IEEE device management centre (spec §2, §3 IEEE device): each grid site with its device's
 * NMI and grid company, LFDI, registration and online state, the modes its commands asked for and
 * the control in force now (what it asks, until when, from which program) and, a click away, the
 * response trail of its controls;
 * from a row, the documents received and sent and the command records, each exportable after a
 * confirmation (spec §8). NMI and grid company are edited for Australian devices only.
 */
export const ieeeDevicesCrud = defineCrud<IeeeDeviceRecord>({
  id: "ieee-devices",
  ns: ["gridCentre"],
  list: API.ieee.page,
  filters: [
    { name: "sn", label: "fields:deviceSn" },
    { name: "nmi", label: "fields:nmi" },
    { name: "registeredState", label: "fields:registeredState", kind: "select", options: registeredStates },
    { name: "gridCompany", label: "fields:gridCompany", kind: "select", options: networks },
  ],
  columns: [
    { key: "sn", title: "gridCentre:columns.sn" },
    { key: "nmi", title: "gridCentre:columns.nmi" },
    {
      key: "lfdi",
      title: "gridCentre:columns.lfdi",
      render: (r) => (
        <Typography.Text code copyable style={{ fontSize: 12 }}>
          {r.lfdi}
        </Typography.Text>
      ),
    },
    { key: "gridCompany", title: "gridCentre:columns.gridCompany" },
    { key: "registeredState", title: "gridCentre:columns.registeredState", options: registeredStates },
    {
      key: "onlineStatus",
      title: "gridCentre:columns.onlineStatus",
      options: { values: [0, 1, 2], labelKey: "enums:onlineStatusFilter" },
    },
    { key: "lastCommandTime", title: "gridCentre:columns.lastCommandTime", kind: "time", sortable: true },
    {
      key: "modeCounts",
      title: "gridCentre:columns.modeCounts",
      // Two short lines, so the column stays narrow beside the LFDI.
      render: (r, t) => (
        <span style={{ whiteSpace: "pre-line" }}>
          {t("gridCentre:counts", {
            regular: r.regularCount,
            sell: r.sellCount,
            emergency: r.emergencyCount,
            purePv: r.purePvCount,
          })}
        </span>
      ),
    },
    { key: "activeControl", title: "gridCentre:columns.activeControl", render: (r, t) => activeControlText(r.activeControl, t) },
    { key: "createTime", title: "gridCentre:columns.createTime", kind: "time", sortable: true },
    { key: "updateTime", title: "gridCentre:columns.updateTime", kind: "time", sortable: true },
  ],
  actions: [
    {
      key: "received",
      label: "gridCentre:actions.received",
      panel: (r, close) => (
        <IeeeDrawer
          titleKey="gridCentre:drawer.received"
          sn={r.sn}
          config={ieeeExchangesCrud("received", r.sn)}
          onClose={close}
        />
      ),
    },
    {
      key: "sent",
      label: "gridCentre:actions.sent",
      panel: (r, close) => (
        <IeeeDrawer titleKey="gridCentre:drawer.sent" sn={r.sn} config={ieeeExchangesCrud("sent", r.sn)} onClose={close} />
      ),
    },
    {
      key: "commands",
      label: "gridCentre:actions.commands",
      panel: (r, close) => (
        <IeeeDrawer titleKey="gridCentre:drawer.commands" sn={r.sn} config={ieeeCommandsCrud(r.sn)} onClose={close} />
      ),
    },
    {
      key: "controls",
      label: "gridCentre:actions.controls",
      panel: (r, close) => <ControlsDrawer site={r} onClose={close} />,
    },
    {
      key: "editGrid",
      label: "gridCentre:actions.editGrid",
      permission: "grid.edit",
      unavailable: (r) => (r.countryCode === COUNTRY_AUSTRALIA ? undefined : "gridCentre:onlyAustralia"),
      form: {
        title: "gridCentre:editTitle",
        intro: "gridCentre:editIntro",
        fields: [
          { name: "nmi", label: "fields:nmi" },
          { name: "powerGrid", label: "fields:gridCompany", kind: "select", options: networks },
        ],
        schema: powerGridSaveBody,
        route: API.powerGrid.save,
        permission: "grid.edit",
        initial: (r) => ({ nmi: r?.nmi ?? "", powerGrid: r?.gridCompany ?? "" }),
        toBody: (values, r) => ({ sn: r?.sn, nmi: values.nmi ?? "", powerGrid: values.powerGrid ?? "" }),
        success: "gridCentre:saved",
      },
    },
  ],
  rowButtons: ["controls", "received", "sent", "commands", "editGrid"],
  actionsWidth: 440,
});
