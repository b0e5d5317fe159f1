import { isLfdi, sfdiFromLfdi } from "@ess/domain/grid/identity.ts";
import { checkNmi } from "@ess/domain/grid/nmi.ts";
import { decodeAs, type EndDevice, paginate } from "@ess/sep2";
import { doc, HttpError, ok, ownEndDevice, page, type RequestContext, type Route } from "../router.ts";
import { DEFAULT_PIN, type EndDeviceRecord } from "../state.ts";
import {
  AGGREGATOR_END_DEVICE_ID,
  aggregatorEndDevice,
  deviceCapability,
  edevPath,
  endDevice,
  registration,
  time,
} from "../views.ts";

/** Discovery and registration: DeviceCapability, Time, EndDevices, Registration, ConnectionPoint. */

/**
 * The caller's own EndDevice (id 0) when it is an aggregator; a direct client registered under its
 * certificate's LFDI is that EndDevice instead, and has no id 0.
 */
function ownView(context: RequestContext): EndDevice | undefined {
  const { caller, state, now } = context;
  if (state.endDeviceByLfdi(caller.lfdi)) return undefined;
  return aggregatorEndDevice(caller.lfdi, caller.sfdi, state.firstSeen(caller.lfdi, now));
}

function endDeviceViews(context: RequestContext): EndDevice[] {
  const own = ownView(context);
  const devices = context.state.visibleEndDevices(context.caller.lfdi).map((r) => endDevice(context.state, r));
  return own ? [own, ...devices] : devices;
}

function registerInBand(context: RequestContext): EndDeviceRecord {
  const posted = decodeAs(context.body, "EndDevice");
  const lfdi = posted.lFDI?.toUpperCase();
  if (!lfdi || !isLfdi(lfdi)) throw new HttpError(400, "An EndDevice needs an lFDI of 40 hexadecimal digits");
  // As the reference server: the aggregator's own LFDI is forbidden, a repeated lFDI or sFDI a conflict.
  if (lfdi === context.caller.lfdi)
    throw new HttpError(403, "An aggregator registers its sites under LFDIs other than its own certificate's");
  const sfdi = posted.sFDI ?? sfdiFromLfdi(lfdi);
  if (context.state.endDeviceByLfdi(lfdi)) throw new HttpError(409, "An EndDevice with this lFDI exists");
  if (context.state.visibleEndDevices(context.caller.lfdi).some((d) => d.sfdi === sfdi))
    throw new HttpError(409, "An EndDevice with this sFDI exists");
  const record: EndDeviceRecord = {
    id: context.state.nextId("endDevice"),
    ownerLfdi: context.caller.lfdi,
    lfdi,
    sfdi,
    deviceCategory: posted.deviceCategory,
    changedTime: posted.changedTime ?? context.now,
    enabled: true,
    registeredAt: context.now,
    pin: DEFAULT_PIN,
    inBand: true,
    der: {},
    removedFsa: [],
  };
  context.state.endDevices.set(record.id, record);
  return record;
}

function writeConnectionPoint(context: RequestContext) {
  const record = ownEndDevice(context, context.params[0]);
  const posted = decodeAs(context.body, "ConnectionPoint");
  const value = (posted.connectionPointId ?? posted.id ?? "").trim();
  if (!checkNmi(value).ok) throw new HttpError(422, `Not a valid NMI: ${value}`);
  record.connectionPointId = value;
  record.changedTime = context.now;
  return { status: 201, location: `${edevPath(record.id)}/cp` };
}

export const discoveryRoutes: Route[] = [
  {
    pattern: /^\/dcap$/,
    methods: {
      GET: (c) =>
        ok(
          doc(
            "DeviceCapability",
            deviceCapability(
              c.state,
              endDeviceViews(c).length,
              [...c.state.mups.values()].filter((m) => m.ownerLfdi === c.caller.lfdi).length,
            ),
          ),
        ),
    },
  },
  { pattern: /^\/tm$/, methods: { GET: (c) => ok(doc("Time", time(c.now, c.zone))) } },
  {
    pattern: /^\/edev$/,
    methods: {
      GET: (c) => {
        const { all, results, items } = paginate(endDeviceViews(c), page(c));
        return ok(
          doc("EndDeviceList", {
            href: "/edev",
            all,
            results,
            subscribable: 0,
            pollRate: c.state.rates.edevListPoll,
            EndDevice: items,
          }),
        );
      },
      POST: (c) => ({ status: 201, location: edevPath(registerInBand(c).id) }),
    },
  },
  {
    pattern: /^\/edev\/(\d+)$/,
    methods: {
      GET: (c) => {
        if (c.params[0] !== String(AGGREGATOR_END_DEVICE_ID))
          return ok(doc("EndDevice", endDevice(c.state, ownEndDevice(c, c.params[0]))));
        const own = ownView(c);
        if (!own) throw new HttpError(404, "No such EndDevice");
        return ok(doc("EndDevice", own));
      },
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/rg$/,
    methods: {
      GET: (c) => {
        if (!c.state.registrationLinks) throw new HttpError(404, "Registration is not offered");
        return ok(doc("Registration", registration(ownEndDevice(c, c.params[0]))));
      },
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/cp$/,
    methods: {
      GET: (c) => {
        const record = ownEndDevice(c, c.params[0]);
        // Before the client writes one the id is empty, as the reference server answers.
        return ok(
          doc("ConnectionPoint", { href: `${edevPath(record.id)}/cp`, connectionPointId: record.connectionPointId ?? "" }),
        );
      },
      PUT: writeConnectionPoint,
      POST: writeConnectionPoint,
    },
  },
];
