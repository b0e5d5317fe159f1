import { API } from "@ess/contracts";
import { ADMIN_ROLE_CODE } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { containsPattern, first, run, sql } from "../../db/sql.ts";
import { business, forbidden, notFound, ValidationError } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import type { AuthService } from "../auth/auth.service.ts";
import { permissionTree } from "./permission-tree.ts";
import { findRole, ROLE_SELECT, type RoleRow, setPermissions, toRoleRecord } from "./role.repository.ts";

const SORT = { id: "r.id", roleCode: "r.code", roleName: "r.name", createTime: "r.created_at" };

const isAdmin = (caller: AuthContext) => caller.roles.includes(ADMIN_ROLE_CODE);
/** A role may not carry more than its editor holds (except for the administrator). */
function checkGrant(caller: AuthContext, permissions: readonly string[]) {
  if (!isAdmin(caller) && permissions.some((p) => !caller.permissions.has(p as never))) throw forbidden("users:grantMore");
}
const codeTaken = () => new ValidationError([{ field: "roleCode", key: "validation:taken", values: {} }]);

export function registerRoleRoutes(app: FastifyInstance, db: Db, auth: AuthService) {
  bindRoute(app, API.role.page, async ({ auth: caller, input }) => {
    const q = input.query;
    const where = sql.and([
      sql`r.tenant_id = ${caller.tenantId}`,
      q.roleName !== undefined && sql`r.name ILIKE ${containsPattern(q.roleName)}`,
      q.roleCode !== undefined && sql`r.code ILIKE ${containsPattern(q.roleCode)}`,
      q.userType !== undefined && sql`r.user_type = ${q.userType}`,
    ]);
    return fetchPage<RoleRow, ReturnType<typeof toRoleRecord>>(
      db,
      { select: ROLE_SELECT, from: sql.raw("sys_role r"), where, order: orderBy(q, SORT, "r.id") },
      q,
      toRoleRecord,
    );
  });

  bindRoute(app, API.role.list, async ({ auth: caller, input }) => {
    const { rows } = await run<RoleRow>(
      db,
      sql`SELECT ${ROLE_SELECT} FROM sys_role r WHERE r.tenant_id = ${caller.tenantId}
           AND (${input.query.userType ?? null}::int IS NULL OR r.user_type = ${input.query.userType ?? null}::int)
           ORDER BY r.id`,
    );
    return rows
      .filter(
        (r) => isAdmin(caller) || (r.code !== ADMIN_ROLE_CODE && r.permissions.every((p) => caller.permissions.has(p as never))),
      )
      .map((r) => ({ id: r.id, roleCode: r.code, roleName: r.name, userType: r.user_type }));
  });

  bindRoute(app, API.role.info, async ({ auth: caller, input }) => {
    const row = await findRole(db, caller.tenantId, input.query.id);
    if (!row) throw notFound();
    return toRoleRecord(row);
  });

  bindRoute(app, API.role.permissionTree, ({ request }) => permissionTree(request.t));

  bindRoute(app, API.role.save, async ({ auth: caller, input }) => {
    checkGrant(caller, input.body.permissions);
    const { roleCode: code, roleName: name, roleDesc: description, userType, permissions } = input.body;
    const id = await db
      .transaction(async (tx) => {
        const row = await first<{ id: number }>(
          tx,
          sql`INSERT INTO sys_role (tenant_id, code, name, description, user_type)
              VALUES (${caller.tenantId}, ${code}, ${name}, ${description}, ${userType}) RETURNING id`,
        );
        await setPermissions(tx, row?.id as number, permissions);
        return row?.id as number;
      })
      .catch((error) => Promise.reject(isUniqueViolation(error) ? codeTaken() : error));
    return toRoleRecord((await findRole(db, caller.tenantId, id)) as RoleRow);
  });

  bindRoute(app, API.role.edit, async ({ auth: caller, input }) => {
    const { id, roleCode: code, roleName: name, roleDesc: description, userType, permissions } = input.body;
    const role = await findRole(db, caller.tenantId, id);
    if (!role) throw notFound();
    if (role.code === ADMIN_ROLE_CODE) throw business("users:adminRoleFixed");
    checkGrant(caller, [...role.permissions, ...permissions]);
    if (role.users > 0 && userType !== role.user_type)
      throw new ValidationError([{ field: "userType", key: "validation:inUse", values: {} }]);
    await db
      .transaction(async (tx) => {
        await run(
          tx,
          sql`UPDATE sys_role SET code = ${code}, name = ${name}, description = ${description}, user_type = ${userType}, updated_at = now() WHERE id = ${id}`,
        );
        await setPermissions(tx, id, permissions);
      })
      .catch((error) => Promise.reject(isUniqueViolation(error) ? codeTaken() : error));
    const { rows } = await run<{ user_id: number }>(db, sql`SELECT user_id FROM sys_user_role WHERE role_id = ${id}`);
    for (const r of rows) auth.forgetUser(r.user_id);
    return toRoleRecord((await findRole(db, caller.tenantId, id)) as RoleRow);
  });

  bindRoute(app, API.role.del, async ({ auth: caller, input }) => {
    const role = await findRole(db, caller.tenantId, input.body.id);
    if (!role) throw notFound();
    if (role.code === ADMIN_ROLE_CODE) throw business("users:adminRoleFixed");
    checkGrant(caller, role.permissions);
    if (role.users > 0) throw business("users:roleInUse");
    await run(db, sql`DELETE FROM sys_role WHERE id = ${role.id}`);
    return null;
  });
}
