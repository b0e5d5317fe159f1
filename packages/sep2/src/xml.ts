import { XMLBuilder, XMLParser } from "fast-xml-parser";
import type { DeviceCapability, SepError, Time } from "./resources/common.ts";
import type {
  DER,
  DERAvailability,
  DERCapability,
  DERControl,
  DERControlList,
  DERList,
  DERProgram,
  DERProgramList,
  DERSettings,
  DERStatus,
  DefaultDERControl,
} from "./resources/der.ts";
import type {
  ConnectionPoint,
  EndDevice,
  EndDeviceList,
  FunctionSetAssignments,
  FunctionSetAssignmentsList,
  Registration,
  Response,
  ResponseList,
  ResponseSet,
  ResponseSetList,
} from "./resources/end-device.ts";
import type { MirrorMeterReading, MirrorMeterReadingList, MirrorUsagePoint, MirrorUsagePointList } from "./resources/metering.ts";
import {
  ATTRIBUTE_NAMES,
  BOOLEAN_FIELDS,
  CSIPAUS_ELEMENTS,
  CSIPAUS_PARENTS,
  INTEGER_FIELDS,
  REPEATED_CHILDREN,
  TEXT_VALUE_PARENTS,
} from "./schema-fields.ts";
import { schemaOrder } from "./schema-order.ts";

/** The IEEE 2030.5 namespace, the default namespace of every document. */
export const SEP_NAMESPACE = "urn:ieee:std:2030.5:ns";
/** The CSIP-AUS v1.3 extension namespace (written with the `csipaus` prefix). */
export const CSIPAUS_NAMESPACE = "https://csipaus.org/ns/v1.3";
/** The CSIP-AUS v1.2 extension namespace; decoding accepts it as well. */
export const CSIPAUS_NAMESPACE_V12 = "https://csipaus.org/ns";
/** The media type of IEEE 2030.5 XML bodies. */
export const SEP_XML = "application/sep+xml";

/** The resources the codec reads and writes, by root element name. */
export interface SepResources {
  DeviceCapability: DeviceCapability;
  Time: Time;
  EndDevice: EndDevice;
  EndDeviceList: EndDeviceList;
  Registration: Registration;
  ConnectionPoint: ConnectionPoint;
  DER: DER;
  DERList: DERList;
  DERCapability: DERCapability;
  DERSettings: DERSettings;
  DERStatus: DERStatus;
  DERAvailability: DERAvailability;
  FunctionSetAssignments: FunctionSetAssignments;
  FunctionSetAssignmentsList: FunctionSetAssignmentsList;
  DERProgram: DERProgram;
  DERProgramList: DERProgramList;
  DefaultDERControl: DefaultDERControl;
  DERControl: DERControl;
  DERControlList: DERControlList;
  MirrorUsagePoint: MirrorUsagePoint;
  MirrorUsagePointList: MirrorUsagePointList;
  MirrorMeterReading: MirrorMeterReading;
  MirrorMeterReadingList: MirrorMeterReadingList;
  Response: Response;
  DERControlResponse: Response;
  ResponseList: ResponseList;
  ResponseSet: ResponseSet;
  ResponseSetList: ResponseSetList;
  Error: SepError;
}

export type SepResourceName = keyof SepResources;

/** A body that is not well-formed XML, or does not fit the schema's types. */
export class SepXmlError extends Error {
  override name = "SepXmlError";
}

type Tree = { [key: string]: Node };
type Node = string | number | boolean | Tree | Node[];

const ATTRIBUTE_PREFIX = "@_";

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  removeNSPrefix: true,
  // Everything stays text here; `leaf` converts exactly the fields the schema types as numbers.
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
});

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  format: true,
  indentBy: "  ",
  suppressEmptyNode: true,
});

const INTEGER = /^[-+]?\d+$/;

function leaf(name: string, parent: string, text: string): string | number | boolean {
  if (BOOLEAN_FIELDS.has(name)) {
    if (text === "true" || text === "1") return true;
    if (text === "false" || text === "0") return false;
    throw new SepXmlError(`${parent}/${name} is not a boolean: ${text}`);
  }
  if (INTEGER_FIELDS.has(name) && !(name === "value" && TEXT_VALUE_PARENTS.has(parent))) {
    const n = Number(text);
    if (!INTEGER.test(text) || !Number.isSafeInteger(n)) throw new SepXmlError(`${parent}/${name} is not an integer: ${text}`);
    return n;
  }
  return text;
}

function normalise(name: string, node: unknown): Node {
  if (typeof node === "string") return leaf(name, "", node);
  if (typeof node !== "object" || node === null) throw new SepXmlError(`Unexpected content in ${name}`);
  const out: Tree = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith(ATTRIBUTE_PREFIX)) {
      const attribute = key.slice(ATTRIBUTE_PREFIX.length);
      if (attribute === "xmlns" || attribute.startsWith("xmlns:") || attribute.includes(":")) continue;
      out[attribute] = leaf(attribute, name, String(value));
    } else if (key === "#text") {
      // Text beside child elements: the schema has no mixed content, so it is dropped.
    } else {
      const child = (v: unknown): Node => (typeof v === "string" ? leaf(key, name, v) : normalise(key, v));
      if (Array.isArray(value)) out[key] = value.map(child);
      else out[key] = REPEATED_CHILDREN[name]?.has(key) ? [child(value)] : child(value);
    }
  }
  return out;
}

/** Reads a document: its root element's local name and its content as plain values. */
export function decodeSep(xml: string): { name: string; resource: Record<string, unknown> } {
  // IEEE 2030.5 documents have no DTD; refusing one rules out entity-expansion attacks from a peer.
  if (/<!DOCTYPE/i.test(xml)) throw new SepXmlError("A document type declaration is not allowed");
  let parsed: Record<string, unknown>;
  try {
    parsed = parser.parse(xml, true) as Record<string, unknown>;
  } catch (error) {
    throw new SepXmlError(`Not well-formed XML: ${(error as Error).message}`);
  }
  const roots = Object.keys(parsed);
  if (roots.length !== 1 || roots[0] === undefined) throw new SepXmlError("A document has exactly one root element");
  const name = roots[0];
  const content = parsed[name];
  const resource = normalise(name, content === "" ? {} : content);
  return { name, resource: resource as Record<string, unknown> };
}

/** Reads a document whose root must be one of `names`. */
export function decodeAs<N extends SepResourceName>(xml: string, ...names: N[]): SepResources[N] {
  const { name, resource } = decodeSep(xml);
  if (!(names as string[]).includes(name)) throw new SepXmlError(`Expected ${names.join(" or ")}, got ${name}`);
  return resource as unknown as SepResources[N];
}

function text(name: string, parent: string, value: string | number | boolean): string {
  if (
    typeof value === "number" &&
    INTEGER_FIELDS.has(name) &&
    !(name === "value" && TEXT_VALUE_PARENTS.has(parent)) &&
    !Number.isSafeInteger(value)
  ) {
    throw new RangeError(`${parent}/${name} must be an integer, got ${value}`);
  }
  return String(value);
}

function elementName(name: string, parent: string): string {
  return CSIPAUS_ELEMENTS.has(name) || CSIPAUS_PARENTS.has(parent) ? `csipaus:${name}` : name;
}

function toBuilder(name: string, value: object): Tree {
  const out: Tree = {};
  const fields = value as Record<string, unknown>;
  for (const key of schemaOrder(name, Object.keys(fields))) {
    const child = fields[key];
    if (child === undefined || child === null) continue;
    if (ATTRIBUTE_NAMES.has(key) && typeof child !== "object") {
      out[ATTRIBUTE_PREFIX + key] = text(key, name, child as string | number | boolean);
      continue;
    }
    const element = elementName(key, name);
    const one = (v: unknown): Node =>
      typeof v === "object" && v !== null ? toBuilder(key, v) : text(key, name, v as string | number | boolean);
    out[element] = Array.isArray(child) ? child.map(one) : one(child);
  }
  return out;
}

export interface EncodeOptions {
  /** The csipaus namespace to declare (default v1.3). */
  csipausNamespace?: string;
}

/**
 * Writes a resource as a document, child elements in the schema's sequence order whatever the
 * order of the object's keys.
 */
export function encodeSep<N extends SepResourceName>(name: N, resource: SepResources[N], options: EncodeOptions = {}): string {
  const root = elementName(name, "");
  const content = toBuilder(name, resource as object);
  const body: Tree = {
    [`${ATTRIBUTE_PREFIX}xmlns`]: SEP_NAMESPACE,
    [`${ATTRIBUTE_PREFIX}xmlns:csipaus`]: options.csipausNamespace ?? CSIPAUS_NAMESPACE,
    ...content,
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [root]: body })}`;
}
