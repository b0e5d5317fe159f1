import { type CancellationRecord, cancellationRoutes } from "@ess/contracts";
import { CANCELLATION_STATUS, CANCELLATION_TYPES } from "@ess/domain";
import { Tag } from "antd";
import { API } from "../../../api/api.ts";
import { defineCrud, type FormSpec } from "../../../ui/crud/index.ts";

const statusOptions = { values: Object.values(CANCELLATION_STATUS), labelKey: "enums:cancellationReview" };
const typeOptions = { values: CANCELLATION_TYPES, labelKey: "enums:logoutTypeFilter" };
const STATUS_COLOURS = ["gold", "green", "red"];

/** The review dialog: approving deletes the account for good, refusing keeps it. */
const review = (status: 1 | 2): FormSpec<CancellationRecord> => ({
  title: status === 1 ? "cancellation:screen.approveTitle" : "cancellation:screen.refuseTitle",
  intro: status === 1 ? "cancellation:screen.approveNote" : undefined,
  route: API.cancellation.review,
  schema: cancellationRoutes.review.body,
  initial: () => ({}),
  toBody: (values, r) => ({ ...values, id: r?.id, status }),
  success: "cancellation:screen.reviewed",
  fields: [{ name: "remarks", kind: "textarea" }],
});

/** Account deletion requests (spec §3 Cancellation record) and their review. */
export const cancellationsCrud = defineCrud<CancellationRecord>({
  id: "cancellations",
  ns: ["cancellation"],
  list: API.cancellation.page,
  filters: [
    { name: "status", kind: "select", options: statusOptions },
    { name: "type", kind: "select", options: typeOptions },
    { name: "username" },
    { name: "email" },
  ],
  columns: [
    { key: "username" },
    { key: "email" },
    { key: "ip" },
    { key: "type", options: typeOptions },
    { key: "reason", ellipsis: true, width: 200 },
    {
      key: "status",
      sortable: true,
      render: (r, t) => <Tag color={STATUS_COLOURS[r.status]}>{t(`enums:cancellationReview.${r.status}`)}</Tag>,
    },
    { key: "remarks", ellipsis: true, width: 200 },
    { key: "reviewer", title: "cancellation:screen.reviewer" },
    { key: "reviewTime", title: "cancellation:screen.reviewTime", kind: "time" },
    { key: "createTime", kind: "time", sortable: true },
  ],
  actions: [
    {
      key: "approve",
      label: "cancellation:screen.approve",
      permission: "cancel.review",
      danger: true,
      visible: (r) => r.status === CANCELLATION_STATUS.pending,
      form: review(1),
    },
    {
      key: "refuse",
      label: "cancellation:screen.refuse",
      permission: "cancel.review",
      visible: (r) => r.status === CANCELLATION_STATUS.pending,
      form: review(2),
    },
  ],
  remove: { route: API.cancellation.del, permission: "cancel.delete" },
});
