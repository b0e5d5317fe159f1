import { API, type ProfileRecord } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { first, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { requirePictures, urlOfKey } from "../media/media.service.ts";

interface Row {
  username: string;
  name: string;
  gender: number | null;
  birth_date: string | null;
  phone: string | null;
  email: string | null;
  avatar_media_id: number | null;
  avatar_key: string | null;
}

const toRecord = (r: Row): ProfileRecord => ({
  username: r.username,
  name: r.name,
  gender: r.gender,
  birthDate: r.birth_date,
  phone: r.phone,
  email: r.email,
  avatar: r.avatar_media_id,
  avatarUrl: urlOfKey(r.avatar_key),
});

const COLUMNS = sql.raw(`username, name, gender, birth_date, phone, email, avatar_media_id,
  (SELECT m.key FROM media m WHERE m.id = avatar_media_id) AS avatar_key`);

/** Personal information: each account reads and changes its own, nobody else's. */
export function registerProfileRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  bindRoute(app, API.profile.get, async ({ auth }) => {
    const row = await first<Row>(db, sql`SELECT ${COLUMNS} FROM sys_user WHERE id = ${auth.userId} AND deleted_at IS NULL`);
    if (!row) throw notFound();
    return toRecord(row);
  });

  bindRoute(app, API.profile.edit, async ({ auth, input }) => {
    const { name, gender, birthDate, phone, avatar } = input.body;
    if (avatar !== null)
      await requirePictures(db, auth.tenantId, [avatar], { field: "avatar", label: "fields:avatar", uploadedBy: auth.userId });
    const row = await first<Row>(
      db,
      sql`UPDATE sys_user SET name = ${name}, gender = ${gender}, birth_date = ${birthDate}, phone = ${phone},
                 avatar_media_id = ${avatar}, updated_at = now()
           WHERE id = ${auth.userId} AND deleted_at IS NULL
       RETURNING ${COLUMNS}`,
    );
    if (!row) throw notFound();
    return toRecord(row);
  });
}
