import { API } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { containsPattern, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { dataScope } from "../scope/data-scope.ts";
import { refuseUnseen } from "../scope/unseen.ts";
import { END_USER_FROM, END_USER_SELECT, type EndUserRow, endUserWhere, findEndUser, toEndUser } from "./enduser.repository.ts";
import { createEndUserService } from "./enduser.service.ts";

const SORT = { id: "u.id", username: "u.username", name: "u.name", createTime: "u.created_at" } as const;

export function registerEndUserRoutes(app: FastifyInstance, db: Db, onAccountChange: (userId: number) => void) {
  const service = createEndUserService(db, onAccountChange);

  bindRoute(app, API.endUser.page, async ({ auth, input }) => {
    const q = input.query;
    await refuseUnseen(db, dataScope(auth), { organisations: [q.orgId], users: [q.parentUserId] });
    const where = endUserWhere(
      dataScope(auth),
      sql.and([
        q.username !== undefined && sql`u.username ILIKE ${containsPattern(q.username)}`,
        q.name !== undefined && sql`u.name ILIKE ${containsPattern(q.name)}`,
        q.phone !== undefined && sql`u.phone ILIKE ${containsPattern(q.phone)}`,
        q.status !== undefined && sql`u.status = ${q.status}`,
        q.orgId !== undefined && sql`u.org_id = ${q.orgId}`,
        q.parentUserId !== undefined && sql`u.parent_user_id = ${q.parentUserId}`,
      ]),
    );
    return fetchPage<EndUserRow, ReturnType<typeof toEndUser>>(
      db,
      { select: END_USER_SELECT, from: END_USER_FROM, where, order: orderBy(q, SORT, "u.created_at") },
      q,
      toEndUser,
    );
  });

  bindRoute(app, API.endUser.info, async ({ auth, input }) => {
    const row = await findEndUser(db, dataScope(auth), input.query.id);
    if (!row) throw notFound();
    return toEndUser(row);
  });

  bindRoute(app, API.endUser.save, async ({ auth, input }) => toEndUser(await service.create(auth, dataScope(auth), input.body)));
  bindRoute(app, API.endUser.edit, async ({ auth, input }) => toEndUser(await service.edit(dataScope(auth), input.body)));
  bindRoute(app, API.endUser.lock, async ({ auth, input }) => {
    await service.lock(auth, dataScope(auth), input.body.id, input.body.status);
    return null;
  });
  bindRoute(app, API.endUser.del, async ({ auth, input }) => {
    await service.remove(auth, dataScope(auth), input.body.id);
    return null;
  });
}
