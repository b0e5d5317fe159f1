import { API } from "@ess/contracts";
import { GRID_DIRECTIONS } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { run } from "../../db/sql.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { dataScope } from "../scope/data-scope.ts";
import { commandRows, exchangeRows, sendWorkbook } from "./grid-centre.exports.ts";
import {
  COMMAND_FROM,
  COMMAND_SELECT,
  COMMAND_SORT,
  type CommandRow,
  commandWhere,
  deviceInScope,
  EXCHANGE_FROM,
  EXCHANGE_SELECT,
  EXCHANGE_SORT,
  type ExchangeRow,
  exchangeWhere,
  newestFirst,
  SITE_FROM,
  SITE_SELECT,
  SITE_SORT,
  type SiteRow,
  siteWhere,
  toCommandRecord,
  toExchangeRecord,
  toSiteRecord,
} from "./grid-centre.repository.ts";
import { registerPowerGridRoutes } from "./power-grid.routes.ts";
import {
  RESPONSE_FROM,
  RESPONSE_SELECT,
  RESPONSE_SORT,
  type ResponseRow,
  responseWhere,
  toResponseRecord,
} from "./response-trail.ts";

const EXPORT_LIMIT = 10_000;

/** The IEEE device management centre (spec §2): sites, their documents and commands, exports. */
export function registerGridCentreRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  bindRoute(app, API.ieee.page, async ({ auth, input }) =>
    fetchPage<SiteRow, ReturnType<typeof toSiteRecord>>(
      db,
      {
        select: SITE_SELECT,
        from: SITE_FROM,
        where: siteWhere(auth.tenantId, dataScope(auth).devices("d"), input.query),
        order: orderBy(input.query, SITE_SORT, "s.updated_at"),
      },
      input.query,
      toSiteRecord,
    ),
  );

  for (const [route, direction] of [
    [API.ieee.receivePage, GRID_DIRECTIONS.received],
    [API.ieee.sendPage, GRID_DIRECTIONS.sent],
  ] as const)
    bindRoute(app, route, async ({ auth, input }) => {
      const device = await deviceInScope(db, dataScope(auth).devices("d"), input.query);
      return fetchPage<ExchangeRow, ReturnType<typeof toExchangeRecord>>(
        db,
        {
          select: EXCHANGE_SELECT,
          from: EXCHANGE_FROM,
          where: exchangeWhere(device.site_id, direction, input.query),
          order: orderBy(input.query, EXCHANGE_SORT, "x.at"),
        },
        input.query,
        toExchangeRecord,
      );
    });

  bindRoute(app, API.ieee.responsePage, async ({ auth, input }) => {
    const device = await deviceInScope(db, dataScope(auth).devices("d"), input.query);
    return fetchPage<ResponseRow, ReturnType<typeof toResponseRecord>>(
      db,
      {
        select: RESPONSE_SELECT,
        from: RESPONSE_FROM,
        where: responseWhere(device.site_id),
        order: orderBy(input.query, RESPONSE_SORT, "x.at"),
      },
      input.query,
      toResponseRecord,
    );
  });

  /** The device the command records are narrowed to, when the query names one. */
  const commandDevice = async (
    auth: Parameters<typeof dataScope>[0],
    q: { sn?: string | undefined; deviceId?: number | undefined },
  ) => (q.sn === undefined && q.deviceId === undefined ? null : (await deviceInScope(db, dataScope(auth).devices("d"), q)).id);

  bindRoute(app, API.ieee.commandPage, async ({ auth, input }) => {
    const deviceId = await commandDevice(auth, input.query);
    return fetchPage<CommandRow, ReturnType<typeof toCommandRecord>>(
      db,
      {
        select: COMMAND_SELECT,
        from: COMMAND_FROM,
        where: commandWhere(auth.tenantId, dataScope(auth).devices("d"), deviceId, input.query),
        order: orderBy(input.query, COMMAND_SORT, "c.received_at"),
      },
      input.query,
      toCommandRecord,
    );
  });

  for (const [route, direction, name] of [
    [API.ieee.receiveExport, GRID_DIRECTIONS.received, "receive"],
    [API.ieee.sendExport, GRID_DIRECTIONS.sent, "send"],
  ] as const)
    bindRoute(app, route, async ({ auth, input, reply, request }) => {
      const device = await deviceInScope(db, dataScope(auth).devices("d"), { sn: input.params.sn });
      const { rows } = await run<ExchangeRow>(
        db,
        newestFirst(EXCHANGE_SELECT, EXCHANGE_FROM, exchangeWhere(device.site_id, direction, input.query), "x.at", EXPORT_LIMIT),
      );
      await sendWorkbook(
        reply,
        `ieee-${name}-${device.sn.replace(/[^A-Za-z0-9_-]/g, "_")}.xlsx`,
        exchangeRows(request.t, name, rows),
      );
      return "";
    });

  bindRoute(app, API.ieee.commandExport, async ({ auth, input, reply, request }) => {
    const deviceId = await commandDevice(auth, input.query);
    const { rows } = await run<CommandRow>(
      db,
      newestFirst(
        COMMAND_SELECT,
        COMMAND_FROM,
        commandWhere(auth.tenantId, dataScope(auth).devices("d"), deviceId, input.query),
        "c.received_at",
        EXPORT_LIMIT,
      ),
    );
    await sendWorkbook(reply, "ieee-commands.xlsx", commandRows(request.t, rows));
    return "";
  });

  registerPowerGridRoutes(app, deps);
}
