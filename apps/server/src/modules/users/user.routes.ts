import { API, type userListQuery } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { containsPattern, run, type Sql, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import type { AuthService } from "../auth/auth.service.ts";
import { type DataScope, dataScope } from "../scope/data-scope.ts";
import { refuseUnseen } from "../scope/unseen.ts";
import { toCsv } from "./csv.ts";
import { findUser, toUserRecord, USER_FROM, USER_SELECT, type UserRow, userWhere } from "./user.repository.ts";
import { createUserService } from "./user.service.ts";

const SORT = { id: "u.id", username: "u.username", name: "u.name", createTime: "u.created_at", lastLoginTime: "u.last_login_at" };
const EXPORT_LIMIT = 10_000;

function filters(scope: DataScope, q: Omit<z.output<typeof userListQuery>, "current" | "size">): Sql {
  return userWhere(
    scope,
    sql.and([
      q.username !== undefined && sql`u.username ILIKE ${containsPattern(q.username)}`,
      q.name !== undefined && sql`u.name ILIKE ${containsPattern(q.name)}`,
      q.phone !== undefined && sql`u.phone ILIKE ${containsPattern(q.phone)}`,
      q.userType !== undefined && sql`u.user_type = ${q.userType}`,
      q.status !== undefined && sql`u.status = ${q.status}`,
      q.roleId !== undefined && sql`u.id IN (SELECT user_id FROM sys_user_role WHERE role_id = ${q.roleId})`,
      q.orgId !== undefined && sql`u.org_id = ${q.orgId}`,
    ]),
  );
}

export function registerUserRoutes(app: FastifyInstance, db: Db, auth: AuthService) {
  const service = createUserService(db, auth);

  bindRoute(app, API.user.page, async ({ auth: caller, input }) => {
    await refuseUnseen(db, dataScope(caller), { organisations: [input.query.orgId] });
    return fetchPage<UserRow, ReturnType<typeof toUserRecord>>(
      db,
      {
        select: USER_SELECT,
        from: USER_FROM,
        where: filters(dataScope(caller), input.query),
        order: orderBy(input.query, SORT, "u.created_at"),
      },
      input.query,
      toUserRecord,
    );
  });

  bindRoute(app, API.user.export, async ({ auth: caller, input, reply, request }) => {
    await refuseUnseen(db, dataScope(caller), { organisations: [input.query.orgId] });
    const { rows } = await run<UserRow>(
      db,
      sql`SELECT ${USER_SELECT} FROM ${USER_FROM} WHERE ${filters(dataScope(caller), input.query)}
          ${orderBy(input.query, SORT, "u.created_at")} LIMIT ${EXPORT_LIMIT}`,
    );
    const t = request.t;
    const header = ["id", "username", "name", "phone", "email", "userType", "status", "orgId", "roles", "createTime"];
    const csv = toCsv(
      header.map((h) => t(`fields:${h}`, { defaultValue: h })),
      rows.map((r) => [
        r.id,
        r.username,
        r.name,
        r.phone,
        r.email,
        r.user_type,
        r.status,
        r.org_name,
        r.roles.map((x) => x.code).join(" "),
        r.created_at.toISOString(),
      ]),
    );
    reply.type("text/csv; charset=utf-8").header("content-disposition", 'attachment; filename="users.csv"').send(csv);
    return "";
  });

  bindRoute(app, API.user.details, async ({ auth: caller, input }) => {
    const row = await findUser(db, dataScope(caller), input.params.id);
    if (!row) throw notFound();
    return toUserRecord(row);
  });

  bindRoute(app, API.user.save, async ({ auth: caller, input }) =>
    toUserRecord(await service.create(caller, dataScope(caller), input.body)),
  );
  bindRoute(app, API.user.edit, async ({ auth: caller, input }) =>
    toUserRecord(await service.edit(caller, dataScope(caller), input.body)),
  );
  bindRoute(app, API.user.lock, async ({ auth: caller, input }) => {
    await service.lock(caller, dataScope(caller), input.body.id, input.body.status);
    return null;
  });
  bindRoute(app, API.user.passwordReset, async ({ auth: caller, input }) => {
    await service.resetPassword(caller, dataScope(caller), input.body.id, input.body.password);
    return null;
  });
  bindRoute(app, API.user.del, async ({ auth: caller, input }) => {
    await service.remove(caller, dataScope(caller), input.body.id);
    return null;
  });
}
