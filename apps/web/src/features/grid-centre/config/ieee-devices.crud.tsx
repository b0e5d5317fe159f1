import { type IeeeDeviceRecord, powerGridSaveBody } from "@ess/contracts";
import { COUNTRY_AUSTRALIA, GRID_REGISTRATION_STATES } from "@ess/domain";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud, type OptionSource } from "../../../ui/crud/index.ts";
import { activeControlText } from "../components/active-control.tsx";
import { ControlsDrawer } from "../components/controls-drawer.tsx";
import { CreatedUpdated, LfdiCell, ModeCounts, OneLine } from "../components/device-cells.tsx";
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
  // Widths sum to about scrollX: the list fits the content area of a 1,600 px window (sider open,
  // a scroll bar's room spared) in every language; narrower, the table scrolls inside itself.
  // Text wraps within its column; what cannot wrap is shortened and whole on hover.
  columns: [
    // Cut in its cells only: the header wraps instead.
    { key: "sn", title: "gridCentre:columns.sn", width: 136, render: (r) => <OneLine text={r.sn} /> },
    { key: "nmi", title: "gridCentre:columns.nmi", width: 104 },
    { key: "lfdi", title: "gridCentre:columns.lfdi", width: 96, render: (r) => <LfdiCell lfdi={r.lfdi} /> },
    { key: "gridCompany", title: "gridCentre:columns.gridCompany", width: 100 },
    { key: "registeredState", title: "gridCentre:columns.registeredState", width: 112, options: registeredStates },
    {
      key: "onlineStatus",
      title: "gridCentre:columns.onlineStatus",
      width: 100,
      options: { values: [0, 1, 2], labelKey: "enums:onlineStatusFilter" },
    },
    // Date above time: the space between them wraps.
    { key: "lastCommandTime", title: "gridCentre:columns.lastCommandTime", kind: "time", sortable: true, width: 108 },
    { key: "modeCounts", title: "gridCentre:columns.modeCounts", width: 100, render: (r, t) => <ModeCounts record={r} t={t} /> },
    // The one column without a width: it takes what the others leave.
    { key: "activeControl", title: "gridCentre:columns.activeControl", render: (r, t) => activeControlText(r.activeControl, t) },
    // Sorted by creation, the first line; the update time below it.
    {
      key: "createTime",
      title: "gridCentre:columns.createUpdateTime",
      sortable: true,
      width: 128,
      render: (r, t) => <CreatedUpdated record={r} t={t} />,
    },
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
  // The drawers opened most as buttons, the rest under "More" (as the device list does).
  rowButtons: ["controls", "received", "sent"],
  actionsWidth: 184,
  scrollX: 1290,
});
