import { describeDefaultLimit } from "./default-limit.ts";

// LOA-03 Default Control – Import Limit (see default-limit.ts): two minutes to ramp down to the default.
describeDefaultLimit("LOA-03 Default Control – Import Limit", "impW", 120);
