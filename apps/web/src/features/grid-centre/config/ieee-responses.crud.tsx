import type { IeeeResponseRecord } from "@ess/contracts";
import { GRID_RESPONSE_OUTCOMES } from "@ess/domain";
import { Tag } from "antd";
import { API } from "../../../api/api.ts";
import { defineCrud } from "../../../ui/crud/index.ts";

/** How often the trail (and the drawer's control in force above it) is read again while shown. */
export const TRAIL_REFRESH_MS = 5000;

const OUTCOME_COLOURS: Record<number, string> = {
  [GRID_RESPONSE_OUTCOMES.accepted]: "green",
  [GRID_RESPONSE_OUTCOMES.resent]: "default",
  [GRID_RESPONSE_OUTCOMES.retrying]: "orange",
};

/**
 * The response trail of a device's site: each response the console posted to the utility for its
 * controls (received, started, completed, cancelled, superseded, refusals), when, for which control
 * and program, and whether the utility took it or it is still being retried. Reloaded every few
 * seconds while shown: the trail grows as the control runs.
 */
export const ieeeResponsesCrud = (sn: string) =>
  defineCrud<IeeeResponseRecord>({
    id: "ieee-responses",
    ns: ["gridCentre"],
    list: API.ieee.responsePage,
    baseQuery: { sn },
    // Widths sum to about scrollX: the trail fits its drawer in a 1,600 px window in every language;
    // mRIDs are cut with an ellipsis, whole in their titles.
    columns: [
      // Date above time: the space between them wraps.
      { key: "time", title: "gridCentre:trail.time", kind: "time", sortable: true, width: 96 },
      { key: "mrid", title: "gridCentre:trail.mrid", ellipsis: true, width: 140 },
      { key: "programMrid", title: "gridCentre:trail.program", ellipsis: true, width: 130 },
      // Without a width: it takes what the others leave.
      {
        key: "status",
        title: "gridCentre:trail.status",
        // A status newer than the labels shows its number rather than nothing (IEEE 2030.5 grows).
        render: (r, t) =>
          r.status === null ? "—" : t(`enums:gridResponseStatus.${r.status}`, { defaultValue: String(r.status) }),
      },
      {
        key: "outcome",
        title: "gridCentre:trail.outcome",
        width: 180,
        // A long outcome ("not accepted yet; being retried") wraps inside its tag.
        render: (r, t) => (
          <Tag color={OUTCOME_COLOURS[r.outcome]} style={{ whiteSpace: "normal" }}>
            {t(`enums:gridResponseOutcome.${r.outcome}`)}
          </Tag>
        ),
      },
      {
        key: "httpStatus",
        title: "gridCentre:trail.httpStatus",
        width: 110,
        render: (r, t) => (r.httpStatus === null ? t("gridCentre:trail.noAnswer") : String(r.httpStatus)),
      },
    ],
    scrollX: 900,
    refetchMs: TRAIL_REFRESH_MS,
  });
