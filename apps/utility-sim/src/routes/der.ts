import { decodeAs, paginate, type SepResourceName } from "@ess/sep2";
import { doc, HttpError, ok, ownEndDevice, page, pathId, type RequestContext, type Route } from "../router.ts";
import type { DerRecord, DerWrite, EndDeviceRecord, ProgramRecord } from "../state.ts";
import {
  DER_ID,
  defaultDerControl,
  der,
  derControl,
  derPath,
  derProgram,
  functionSetAssignments,
  isActive,
  programPath,
} from "../views.ts";

/** DER descriptions the client writes, and the control side it reads: FSAs, programs, controls. */

function ownDer(context: RequestContext): EndDeviceRecord {
  const record = ownEndDevice(context, context.params[0]);
  if (pathId(context.params[1]) !== DER_ID) throw new HttpError(404, "No such DER");
  return record;
}

/** GET, PUT and POST of one of the four DER descriptions; a write replaces what was stored. */
function derDescription<
  K extends keyof DerRecord,
  N extends SepResourceName & ("DERCapability" | "DERSettings" | "DERStatus" | "DERAvailability"),
>(suffix: string, key: K, name: N): Route {
  const write = (c: RequestContext) => {
    const record = ownDer(c);
    const posted = decodeAs(c.body, name) as DerRecord[K];
    record.der[key] = posted;
    c.state.derWrites.push({ receivedAt: c.nowMs, endDeviceId: record.id, kind: key, value: posted as DerWrite["value"] });
    return { status: 204 };
  };
  return {
    pattern: new RegExp(`^/edev/(\\d+)/der/(\\d+)/${suffix}$`),
    methods: {
      GET: (c) => {
        const record = ownDer(c);
        const stored = record.der[key];
        if (!stored) throw new HttpError(404, `No ${name} reported yet`);
        return ok(doc(name, { ...stored, href: `${derPath(record.id)}/${suffix}` } as never));
      },
      PUT: write,
      POST: write,
    },
  };
}

function ownProgram(context: RequestContext, edev: EndDeviceRecord, idText: string | undefined): ProgramRecord {
  const program = context.state.programs.get(pathId(idText));
  if (!program || edev.removedFsa.includes(program.fsaId)) throw new HttpError(404, "No such DERProgram");
  return program;
}

function programList(c: RequestContext, edev: EndDeviceRecord, href: string, programs: ProgramRecord[]) {
  const visible = programs.filter((p) => !edev.removedFsa.includes(p.fsaId));
  const { all, results, items } = paginate(visible, page(c));
  return ok(
    doc("DERProgramList", {
      href,
      all,
      results,
      subscribable: 0,
      pollRate: c.state.rates.derpListPoll,
      DERProgram: items.map((p) => derProgram(c.state, edev.id, p, c.now)),
    }),
  );
}

function controlList(c: RequestContext, activeOnly: boolean) {
  const edev = ownEndDevice(c, c.params[0]);
  const program = ownProgram(c, edev, c.params[1]);
  const controls = c.state.controlList(program.id, edev.id, c.now).filter((control) => !activeOnly || isActive(control, c.now));
  const { all, results, items } = paginate(controls, page(c));
  const href = `${programPath(edev.id, program.id)}/${activeOnly ? "actderc" : "derc"}`;
  return ok(
    doc("DERControlList", {
      href,
      all,
      results,
      subscribable: 0,
      DERControl: items.map((control) => derControl(edev.id, control, c.now)),
    }),
  );
}

export const derRoutes: Route[] = [
  {
    pattern: /^\/edev\/(\d+)\/der$/,
    methods: {
      GET: (c) => {
        const record = ownEndDevice(c, c.params[0]);
        const { all, results, items } = paginate([der(record)], page(c));
        return ok(
          doc("DERList", { href: `/edev/${record.id}/der`, all, results, pollRate: c.state.rates.derListPoll, DER: items }),
        );
      },
    },
  },
  { pattern: /^\/edev\/(\d+)\/der\/(\d+)$/, methods: { GET: (c) => ok(doc("DER", der(ownDer(c)))) } },
  derDescription("dercap", "capability", "DERCapability"),
  derDescription("derg", "settings", "DERSettings"),
  derDescription("ders", "status", "DERStatus"),
  derDescription("dera", "availability", "DERAvailability"),
  {
    pattern: /^\/edev\/(\d+)\/fsa$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        const { all, results, items } = paginate(c.state.fsaIds(edev), page(c));
        return ok(
          doc("FunctionSetAssignmentsList", {
            href: `/edev/${edev.id}/fsa`,
            all,
            results,
            subscribable: 0,
            pollRate: c.state.rates.fsaListPoll,
            FunctionSetAssignments: items.map((id) => functionSetAssignments(c.state, edev, id)),
          }),
        );
      },
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/fsa\/(\d+)$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        const fsaId = pathId(c.params[1]);
        if (!c.state.fsaIds(edev).includes(fsaId)) throw new HttpError(404, "No such FunctionSetAssignments");
        return ok(doc("FunctionSetAssignments", functionSetAssignments(c.state, edev, fsaId)));
      },
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/fsa\/(\d+)\/derp$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        const fsaId = pathId(c.params[1]);
        if (!c.state.fsaIds(edev).includes(fsaId)) throw new HttpError(404, "No such FunctionSetAssignments");
        return programList(c, edev, `/edev/${edev.id}/fsa/${fsaId}/derp`, c.state.programList(fsaId));
      },
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/derp$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        return programList(c, edev, `/edev/${edev.id}/derp`, c.state.programList());
      },
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/derp\/(\d+)$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        return ok(doc("DERProgram", derProgram(c.state, edev.id, ownProgram(c, edev, c.params[1]), c.now)));
      },
    },
  },
  {
    pattern: /^\/edev\/(\d+)\/derp\/(\d+)\/dderc$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        const control = defaultDerControl(edev.id, ownProgram(c, edev, c.params[1]));
        if (!control) throw new HttpError(404, "The program has no default control");
        return ok(doc("DefaultDERControl", control));
      },
    },
  },
  { pattern: /^\/edev\/(\d+)\/derp\/(\d+)\/derc$/, methods: { GET: (c) => controlList(c, false) } },
  { pattern: /^\/edev\/(\d+)\/derp\/(\d+)\/actderc$/, methods: { GET: (c) => controlList(c, true) } },
  {
    pattern: /^\/edev\/(\d+)\/derp\/(\d+)\/derc\/(\d+)$/,
    methods: {
      GET: (c) => {
        const edev = ownEndDevice(c, c.params[0]);
        const program = ownProgram(c, edev, c.params[1]);
        const control = c.state.controlList(program.id, edev.id, c.now).find((x) => x.id === pathId(c.params[2]));
        if (!control) throw new HttpError(404, "No such DERControl");
        return ok(doc("DERControl", derControl(edev.id, control, c.now)));
      },
    },
  },
];
