import type { FastifyReply } from "fastify";
import type { Translate } from "../../i18n/translator.ts";
import { writeWorkbook, XLSX_TYPE } from "../../workbooks/workbooks.ts";
import type { CommandRow, ExchangeRow } from "./grid-centre.repository.ts";

/** A spreadsheet cell holds at most 32,767 characters; a longer document is cut and says so. */
const CELL_MAX = 32_767;
const cellText = (text: string) => (text.length <= CELL_MAX ? text : `${text.slice(0, CELL_MAX - 1)}…`);
const iso = (v: Date | null) => (v === null ? "" : v.toISOString());
/** An enum value's label, or the number itself for a value the labels do not know (a newer standard's). */
const label = (t: Translate, prefix: string, value: number | null) =>
  value === null ? "" : t(`${prefix}.${value}`, { defaultValue: String(value) });

export interface Sheet {
  name: string;
  header: string[];
  rows: unknown[][];
}

const EXCHANGE_COLUMNS = ["id", "time", "lastTime", "reads", "method", "path", "status", "resource", "xml"] as const;
const COMMAND_COLUMNS = [
  "id",
  "sn",
  "mrid",
  "programMrid",
  "primacy",
  "kind",
  "mode",
  "startTime",
  "durationS",
  "eventStatus",
  "responseStatus",
  "receivedTime",
] as const;

export function exchangeRows(t: Translate, direction: "receive" | "send", rows: ExchangeRow[]): Sheet {
  return {
    name: t(`gridCentre:sheets.${direction}`),
    header: EXCHANGE_COLUMNS.map((c) => t(`gridCentre:columns.${c}`)),
    rows: rows.map((r) => [
      r.id,
      iso(r.at),
      iso(r.last_at),
      r.reads,
      r.method,
      r.path,
      r.status ?? "",
      r.resource ?? "",
      cellText(r.body),
    ]),
  };
}

export function commandRows(t: Translate, rows: CommandRow[]): Sheet {
  return {
    name: t("gridCentre:sheets.command"),
    header: COMMAND_COLUMNS.map((c) => t(`gridCentre:columns.${c}`)),
    rows: rows.map((r) => [
      r.id,
      r.sn,
      r.mrid,
      r.program_mrid ?? "",
      r.primacy ?? "",
      label(t, "enums:gridCommandKind", r.kind),
      label(t, "enums:gridCommandMode", r.mode),
      iso(r.start_at),
      r.duration_s ?? "",
      label(t, "enums:gridEventStatus", r.event_status),
      label(t, "enums:gridResponseStatus", r.response_status),
      iso(r.received_at),
    ]),
  };
}

export async function sendWorkbook(reply: FastifyReply, fileName: string, sheet: Sheet) {
  const file = await writeWorkbook(sheet.name, sheet.header, sheet.rows);
  reply.type(XLSX_TYPE).header("content-disposition", `attachment; filename="${fileName}"`).send(file);
}
