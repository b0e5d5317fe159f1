import { describeActiveLimit } from "./active-limit.ts";

// LOA-01 Active Control – Import Limit (see active-limit.ts).
describeActiveLimit("LOA-01 Active Control – Import Limit", "impW");
