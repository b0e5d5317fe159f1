import { isLfdi, isMrid } from "@ess/domain/grid/identity.ts";
import {
  decodeAs,
  decodeSep,
  type MirrorMeterReading,
  type MirrorUsagePoint,
  paginate,
  type Response,
  type ResponseSet,
} from "@ess/sep2";
import { doc, HttpError, ok, ownEndDevice, page, pathId, type RequestContext, type Route } from "../router.ts";
import type { MupRecord, RecordedReading } from "../state.ts";
import { edevPath, RESPONSE_SETS, responsesPath } from "../views.ts";

/** Metering mirror (MirrorUsagePoints and the readings posted to them) and event responses. */

const mupPath = (id: number) => `/mup/${id}`;

function ownMup(context: RequestContext): MupRecord {
  const mup = context.state.mups.get(pathId(context.params[0]));
  if (!mup || mup.ownerLfdi !== context.caller.lfdi) throw new HttpError(404, "No such MirrorUsagePoint");
  return mup;
}

function mupView(context: RequestContext, record: MupRecord): MirrorUsagePoint {
  return { href: mupPath(record.id), ...record.mirrorUsagePoint, postRate: context.state.rates.mupPost };
}

/** Keeps the reading streams' descriptions (mRID, ReadingType) and drops the values. */
function withoutValues(reading: MirrorMeterReading): MirrorMeterReading {
  const { Reading: _reading, MirrorReadingSet: _sets, ...stream } = reading;
  return stream;
}

/** Records every value in the posted streams; a stream must be known or describe itself with a ReadingType. */
function recordReadings(context: RequestContext, record: MupRecord, posted: MirrorMeterReading[]): number {
  const streams = record.mirrorUsagePoint.MirrorMeterReading ?? [];
  let count = 0;
  for (const stream of posted) {
    if (!stream.mRID || !isMrid(stream.mRID))
      throw new HttpError(400, "A MirrorMeterReading needs an mRID of 32 hexadecimal digits");
    let known = streams.find((s) => s.mRID === stream.mRID);
    if (!known) {
      if (!stream.ReadingType) throw new HttpError(400, `MirrorMeterReading ${stream.mRID} is new and has no ReadingType`);
      known = withoutValues(stream);
      streams.push(known);
      record.mirrorUsagePoint.MirrorMeterReading = streams;
    }
    const values = [
      ...(stream.Reading ? [stream.Reading] : []),
      ...(stream.MirrorReadingSet ?? []).flatMap((set) => set.Reading ?? []),
    ];
    for (const reading of values) {
      const entry: RecordedReading = {
        receivedAt: context.nowMs,
        mupId: record.id,
        mupMrid: record.mirrorUsagePoint.mRID,
        deviceLFDI: record.mirrorUsagePoint.deviceLFDI,
        roleFlags: record.mirrorUsagePoint.roleFlags,
        mmrMrid: stream.mRID,
        description: known.description,
        readingType: known.ReadingType,
        reading,
      };
      context.state.readings.push(entry);
      count++;
    }
  }
  return count;
}

function createMup(context: RequestContext) {
  const posted = decodeAs(context.body, "MirrorUsagePoint");
  if (!isMrid(posted.mRID ?? "")) throw new HttpError(400, "A MirrorUsagePoint needs an mRID of 32 hexadecimal digits");
  const lfdi = posted.deviceLFDI?.toUpperCase() ?? "";
  if (!isLfdi(lfdi)) throw new HttpError(400, "A MirrorUsagePoint needs the deviceLFDI of its EndDevice");
  const device = context.state.endDeviceByLfdi(lfdi);
  const mine = lfdi === context.caller.lfdi || device?.ownerLfdi === context.caller.lfdi;
  if (!mine) throw new HttpError(403, "deviceLFDI is not one of the caller's EndDevices");
  const streams = posted.MirrorMeterReading ?? [];
  if (streams.length === 0) throw new HttpError(400, "A MirrorUsagePoint needs at least one MirrorMeterReading");
  const existing = [...context.state.mups.values()].find(
    (m) => m.ownerLfdi === context.caller.lfdi && m.mirrorUsagePoint.mRID === posted.mRID,
  );
  // The same mRID again is the same meter: its readings are taken, and the answer points at it.
  if (existing) {
    recordReadings(context, existing, streams);
    return { status: 204, location: mupPath(existing.id) };
  }
  const { href: _href, postRate: _postRate, MirrorMeterReading: _streams, ...meter } = posted;
  const record: MupRecord = {
    id: context.state.nextId("mup"),
    ownerLfdi: context.caller.lfdi,
    createdAt: context.nowMs,
    mirrorUsagePoint: { ...meter, deviceLFDI: lfdi, MirrorMeterReading: [] },
  };
  context.state.mups.set(record.id, record);
  recordReadings(context, record, streams);
  return { status: 201, location: mupPath(record.id) };
}

function postReadings(context: RequestContext) {
  const record = ownMup(context);
  const { name, resource } = decodeSep(context.body);
  let streams: MirrorMeterReading[];
  if (name === "MirrorMeterReading") streams = [resource as unknown as MirrorMeterReading];
  else if (name === "MirrorMeterReadingList")
    streams = (resource as { MirrorMeterReading?: MirrorMeterReading[] }).MirrorMeterReading ?? [];
  else throw new HttpError(400, `Expected MirrorMeterReading or MirrorMeterReadingList, got ${name}`);
  recordReadings(context, record, streams);
  return { status: 201, location: mupPath(record.id) };
}

function responseSet(setText: string | undefined): (typeof RESPONSE_SETS)[number] {
  const set = RESPONSE_SETS.find((s) => s === setText);
  if (!set) throw new HttpError(404, "No such ResponseSet");
  return set;
}

function responseSetView(context: RequestContext, edev: number, set: (typeof RESPONSE_SETS)[number]): ResponseSet {
  const count = context.state.responses.filter((r) => r.endDeviceId === edev && r.responseSet === set).length;
  // A stable mRID per set: its position in hexadecimal, padded to 128 bits.
  const mRID = (RESPONSE_SETS.indexOf(set) + 1).toString(16).toUpperCase().padStart(32, "0");
  return {
    href: `${edevPath(edev)}/rsps/${set}`,
    mRID,
    description: set,
    ResponseListLink: { href: responsesPath(edev, set), all: count },
  };
}

function postResponse(context: RequestContext) {
  const edev = ownEndDevice(context, context.params[0]);
  const set = responseSet(context.params[1]);
  const response: Response = decodeAs(context.body, "Response", "DERControlResponse");
  if (!response.subject) throw new HttpError(400, "A Response names its event's mRID in subject");
  const id = context.state.nextId("response");
  context.state.responses.push({ id, receivedAt: context.nowMs, endDeviceId: edev.id, responseSet: set, response });
  return { status: 201, location: `${responsesPath(edev.id, set)}/${id}` };
}

export const meteringRoutes: Route[] = [
  {
    pattern: /^\/mup$/,
    methods: {
      GET: (c) => {
        const mine = [...c.state.mups.values()].filter((m) => m.ownerLfdi === c.caller.lfdi);
        const { all, results, items } = paginate(mine, page(c));
        return ok(
          doc("MirrorUsagePointList", {
            href: "/mup",
            all,
            results,
            MirrorUsagePoint: items.map((m) => mupView(c, m)),
          }),
        );
      },
      POST: createMup,
    },
  },
  { pattern: /^\/mup\/(\d+)$/, methods: { GET: (c) => ok(doc("MirrorUsagePoint", mupView(c, ownMup(c)))), POST: postReadings } },
  {
    pattern: /^\/edev\/(\d+)\/rsps$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        const sets = RESPONSE_SETS.map((set) => responseSetView(c, edev.id, set));
        const { all, results, items } = paginate(sets, page(c));
        return ok(doc("ResponseSetList", { href: `${edevPath(edev.id)}/rsps`, all, results, ResponseSet: items }));
      },
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/rsps\/([a-z_]+)$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        const set = responseSet(c.params[1]);
        return ok(doc("ResponseSet", responseSetView(c, edev.id, set)));
      },
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/rsps\/([a-z_]+)\/rsp$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        const set = responseSet(c.params[1]);
        const mine = c.state.responses.filter((r) => r.endDeviceId === edev.id && r.responseSet === set);
        const { all, results, items } = paginate(mine, page(c));
        return ok(
          doc("ResponseList", {
            href: responsesPath(edev.id, set),
            all,
            results,
            Response: items.map((r) => ({ ...r.response, href: `${responsesPath(edev.id, set)}/${r.id}` })),
          }),
        );
      },
      POST: postResponse,
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/rsps\/([a-z_]+)\/rsp\/(\d+)$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        const set = responseSet(c.params[1]);
        const found = c.state.responses.find(
          (r) => r.id === pathId(c.params[2]) && r.endDeviceId === edev.id && r.responseSet === set,
        );
        if (!found) throw new HttpError(404, "No such Response");
        return ok(doc("Response", { ...found.response, href: `${responsesPath(edev.id, set)}/${found.id}` }));
      },
    },
  },
];
