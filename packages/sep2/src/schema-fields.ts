/**
 * What the XML codec must know about IEEE 2030.5 / CSIP-AUS field names that the document itself
 * does not say: which names are attributes, which leaf elements hold integers or booleans (every
 * other leaf stays text, so hexadecimal identifiers, mRIDs, LFDIs and SFDIs keep their leading
 * zeros), which elements repeat inside which parent, and which live in the csipaus namespace.
 * Taken from the element types of sep.xsd and the CSIP-AUS v1.3 extension schema.
 */

/** Names written as XML attributes (Resource.href, List.all/results, pollRate, Event reply fields…). */
export const ATTRIBUTE_NAMES: ReadonlySet<string> = new Set([
  "href",
  "all",
  "results",
  "pollRate",
  "subscribable",
  "replyTo",
  "responseRequired",
]);

/** Leaf elements (and attributes) whose schema type is an integer (UInt*, Int*, TimeType, VersionType, enumerations). */
export const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  // attributes
  "all",
  "results",
  "pollRate",
  "subscribable",
  // common
  "version",
  "multiplier",
  "value",
  "displacement",
  "start",
  "duration",
  "postRate",
  "reasonCode",
  "maxRetryDuration",
  // time
  "currentTime",
  "dstEndTime",
  "dstOffset",
  "dstStartTime",
  "localTime",
  "quality",
  "tzOffset",
  // end device, registration
  "changedTime",
  "dateTimeRegistered",
  "pIN",
  // events and programs
  "creationTime",
  "currentStatus",
  "dateTime",
  "potentiallySupersededTime",
  "randomizeDuration",
  "randomizeStart",
  "primacy",
  "opModFixedW",
  "opModMaxLimW",
  "rampTms",
  "setESDelay",
  "setESHighFreq",
  "setESHighVolt",
  "setESLowFreq",
  "setESLowVolt",
  "setESRampTms",
  "setESRandomDelay",
  "setGradW",
  "setSoftGradW",
  // responses
  "createdDateTime",
  "status",
  // DER descriptions
  "type",
  "rtgAbnormalCategory",
  "rtgNormalCategory",
  "updatedTime",
  "readingTime",
  "availabilityDuration",
  "maxChargeDuration",
  "reserveChargePercent",
  "reservePercent",
  // metering
  "serviceCategoryKind",
  "lastUpdateTime",
  "nextUpdateTime",
  "accumulationBehaviour",
  "commodity",
  "dataQualifier",
  "flowDirection",
  "intervalLength",
  "kind",
  "maxNumberOfIntervals",
  "numberOfConsumptionBlocks",
  "numberOfTouTiers",
  "phase",
  "powerOfTenMultiplier",
  "subIntervalLength",
  "supplyLimit",
  "uom",
  "consumptionBlock",
  "touTier",
]);

/**
 * Parents under which `value` is not an integer: the connect-status bitmaps are HexBinary8 and
 * the manufacturer status is a String6.
 */
export const TEXT_VALUE_PARENTS: ReadonlySet<string> = new Set(["genConnectStatus", "storConnectStatus", "manufacturerStatus"]);

/** Leaf elements whose schema type is boolean. */
export const BOOLEAN_FIELDS: ReadonlySet<string> = new Set([
  "enabled",
  "opModConnect",
  "opModEnergize",
  "potentiallySuperseded",
  "tieredConsumptionBlocks",
]);

/** Elements that may repeat, by parent: always decoded as arrays, even with one member. */
export const REPEATED_CHILDREN: Readonly<Record<string, ReadonlySet<string>>> = {
  EndDeviceList: new Set(["EndDevice"]),
  DERList: new Set(["DER"]),
  FunctionSetAssignmentsList: new Set(["FunctionSetAssignments"]),
  DERProgramList: new Set(["DERProgram"]),
  DERControlList: new Set(["DERControl"]),
  MirrorUsagePointList: new Set(["MirrorUsagePoint"]),
  MirrorUsagePoint: new Set(["MirrorMeterReading"]),
  MirrorMeterReadingList: new Set(["MirrorMeterReading"]),
  MirrorMeterReading: new Set(["MirrorReadingSet"]),
  MirrorReadingSet: new Set(["Reading"]),
  ResponseSetList: new Set(["ResponseSet"]),
  ResponseList: new Set(["Response"]),
};

/** Elements of the csipaus namespace wherever they appear. */
export const CSIPAUS_ELEMENTS: ReadonlySet<string> = new Set([
  "opModImpLimW",
  "opModExpLimW",
  "opModGenLimW",
  "opModLoadLimW",
  "opModStorageTargetW",
  "doeModesSupported",
  "doeModesEnabled",
  "vppModesSupported",
  "vppModesEnabled",
  "setMinWh",
  "ConnectionPointLink",
  "ConnectionPoint",
  "connectionPointId",
]);

/** Parents whose children are all in the csipaus namespace. */
export const CSIPAUS_PARENTS: ReadonlySet<string> = new Set(["ConnectionPoint"]);
