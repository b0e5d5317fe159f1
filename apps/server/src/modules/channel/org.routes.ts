import { API } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { containsPattern, run, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { dataScope } from "../scope/data-scope.ts";
import { refuseUnseen } from "../scope/unseen.ts";
import { findOrg, ORG_FROM, ORG_SELECT, type OrgRow, orgWhere, toOrganisation } from "./org.repository.ts";
import { createOrgService } from "./org.service.ts";

const SORT = { id: "o.id", name: "o.name", kind: "o.kind", createTime: "o.created_at" } as const;

export function registerOrgRoutes(app: FastifyInstance, db: Db) {
  const service = createOrgService(db);

  bindRoute(app, API.org.page, async ({ auth, input }) => {
    const q = input.query;
    await refuseUnseen(db, dataScope(auth), { organisations: [q.parentId] });
    const where = orgWhere(
      dataScope(auth),
      false,
      sql.and([
        q.kind !== undefined && sql`o.kind = ${q.kind}`,
        q.name !== undefined && sql`o.name ILIKE ${containsPattern(q.name)}`,
        q.contact !== undefined && sql`o.contact ILIKE ${containsPattern(q.contact)}`,
        q.email !== undefined && sql`o.email ILIKE ${containsPattern(q.email)}`,
        q.parentId !== undefined && sql`o.parent_id = ${q.parentId}`,
      ]),
    );
    return fetchPage<OrgRow, ReturnType<typeof toOrganisation>>(
      db,
      { select: ORG_SELECT, from: ORG_FROM, where, order: orderBy(q, SORT, "o.created_at") },
      q,
      toOrganisation,
    );
  });

  bindRoute(app, API.org.list, async ({ auth, input }) => {
    const kind = input.query.kind;
    const { rows } = await run<{ id: number; name: string; kind: OrgRow["kind"]; parent_id: number | null }>(
      db,
      sql`SELECT o.id, o.name, o.kind, o.parent_id FROM organisation o
           WHERE ${orgWhere(dataScope(auth), false, kind ? sql`o.kind = ${kind}` : sql.raw("TRUE"))}
           ORDER BY o.path LIMIT 2000`,
    );
    return rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind, parentId: r.parent_id }));
  });

  bindRoute(app, API.org.info, async ({ auth, input }) => {
    const row = await findOrg(db, dataScope(auth), input.query.id);
    if (!row) throw notFound();
    return toOrganisation(row);
  });

  bindRoute(app, API.org.save, async ({ auth, input }) =>
    toOrganisation(await service.create(auth, dataScope(auth), input.body)),
  );
  bindRoute(app, API.org.edit, async ({ auth, input }) => toOrganisation(await service.edit(auth, dataScope(auth), input.body)));
  bindRoute(app, API.org.del, async ({ auth, input }) => {
    await service.remove(auth, dataScope(auth), input.body.id);
    return null;
  });
}
