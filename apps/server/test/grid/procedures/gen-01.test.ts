import { describeActiveLimit } from "./active-limit.ts";

// GEN-01 Active Control – Export Limit (see active-limit.ts).
describeActiveLimit("GEN-01 Active Control – Export Limit", "expW");
