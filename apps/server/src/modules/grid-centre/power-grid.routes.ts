import { API } from "@ess/contracts";
import { COUNTRY_AUSTRALIA, checkNmi, NMI_NETWORKS, NMI_REFUSAL_KEYS, type NmiNetwork } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { first, sql } from "../../db/sql.ts";
import { notFound, ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { dataScope } from "../scope/data-scope.ts";

interface GridRow {
  id: number;
  sn: string;
  nmi: string;
  grid_company: string;
  country_code: number | null;
}
const toRecord = (r: GridRow) => ({ sn: r.sn, powerGrid: r.grid_company, nmi: r.nmi, countryCode: r.country_code });
const refusal = (field: string, key: string, label: string, values: Record<string, string | number> = {}) =>
  new ValidationError([{ field, key, values, label }]);

/** The network a grid company names: its published name or our key, in any case. */
const networkNamed = (value: string): NmiNetwork | undefined => {
  const wanted = value.trim().toLowerCase();
  return NMI_NETWORKS.find((n) => n.name.toLowerCase() === wanted || n.key === wanted);
};

/**
 * A device's NMI and grid company (spec §3 IEEE device), asked for only of Australian devices.
 * The NMI passes AEMO's rules (the contract refuses a wrong length, character or checksum and an
 * NMI outside every network's range); the grid company must then be the network the NMI belongs
 * to, since the utility server routes the site by it. The NMI is stored with its checksum digit,
 * as the site's ConnectionPoint carries it.
 */
export function registerPowerGridRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  const deviceBySn = async (auth: Parameters<typeof dataScope>[0], sn: string) => {
    const row = await first<GridRow>(
      db,
      sql`SELECT d.id, d.sn, d.nmi, d.grid_company, d.country_code FROM device d
           WHERE d.sn = ${sn} AND d.deleted_at IS NULL AND ${dataScope(auth).devices("d")}`,
    );
    if (!row) throw notFound();
    return row;
  };

  // Operator names are proper names, the same in every language: shown as published.
  bindRoute(app, API.powerGrid.list, async () =>
    NMI_NETWORKS.map((n) => ({ key: n.key, name: n.name, jurisdiction: n.jurisdiction })),
  );

  bindRoute(app, API.powerGrid.get, async ({ auth, input }) => toRecord(await deviceBySn(auth, input.query.sn)));

  bindRoute(app, API.powerGrid.save, async ({ auth, input }) => {
    const device = await deviceBySn(auth, input.body.sn);
    if (device.country_code !== COUNTRY_AUSTRALIA) throw refusal("sn", "gridCentre:notAustralian", "fields:deviceSn");
    const { nmi, powerGrid } = input.body;
    let company = powerGrid;
    let stored = "";
    if (nmi !== "") {
      const check = checkNmi(nmi);
      // The contract already refused an invalid NMI; this keeps the types honest.
      if (!check.ok) throw refusal("nmi", NMI_REFUSAL_KEYS[check.refusal], "fields:nmi");
      const named = company === "" ? check.network : networkNamed(company);
      if (named?.key !== check.network.key)
        throw refusal("powerGrid", "gridCentre:networkMismatch", "fields:gridCompany", { network: check.network.name });
      company = check.network.name;
      stored = check.withChecksum;
    } else if (company !== "") {
      const named = networkNamed(company);
      if (!named) throw refusal("powerGrid", "gridCentre:unknownNetwork", "fields:gridCompany");
      company = named.name;
    }
    const row = await first<GridRow>(
      db,
      sql`UPDATE device SET nmi = ${stored}, grid_company = ${company}, updated_at = now() WHERE id = ${device.id}
          RETURNING id, sn, nmi, grid_company, country_code`,
    );
    if (!row) throw notFound();
    return toRecord(row);
  });
}
