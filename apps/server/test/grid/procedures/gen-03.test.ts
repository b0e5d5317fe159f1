import { describeDefaultLimit } from "./default-limit.ts";

// GEN-03 Default Control – Export Limit (see default-limit.ts): 13 minutes to ramp down to the default.
describeDefaultLimit("GEN-03 Default Control – Export Limit", "expW", 780);
