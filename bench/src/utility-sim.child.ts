/**
 * The utility test server in a process of its own, so the grid bench measures the console's CPU
 * alone. Started by grid.bench.ts with `fork`; it is told its certificates, clock factor and rates
 * by IPC, serves one DER program with a default control to every site, and beside it a bare HTTPS
 * route with the same TLS settings (the floor a single request costs the client).
 */
import { createServer } from "node:https";
import { type CommsRates, compressedClock, startUtilitySim } from "@ess/utility-sim";

export interface SimChildSetup {
  tls: { ca: string; cert: string; key: string };
  factor: number;
  rates: Partial<CommsRates>;
}

export interface SimChildReady {
  dcapUrl: string;
  bareUrl: string;
  pid: number;
}

/** A body about the size of a short list, so the floor carries a realistic payload. */
const BARE_BODY = `<DERProgramList xmlns="urn:ieee:std:2030.5:ns" all="0" results="0" href="/bare"/>`;

process.once("message", async (setup: SimChildSetup) => {
  const clock = compressedClock({ factor: setup.factor });
  const sim = await startUtilitySim({ tls: setup.tls, clock });
  sim.control.setRates(setup.rates);
  const program = sim.control.createProgram({ primacy: 1 });
  sim.control.setDefaultControl(program.id, {
    DERControlBase: { opModExpLimW: { value: 15, multiplier: 2 }, opModImpLimW: { value: 15, multiplier: 2 } },
  });
  const bare = createServer({ ...setup.tls, requestCert: true, rejectUnauthorized: true, minVersion: "TLSv1.2" }, (_, res) => {
    res.writeHead(200, { "Content-Type": "application/sep+xml" }).end(BARE_BODY);
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
  const address = bare.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const ready: SimChildReady = { dcapUrl: sim.dcapUrl, bareUrl: `https://127.0.0.1:${port}/bare`, pid: process.pid };
  process.send?.(ready);
  process.once("disconnect", async () => {
    bare.close();
    await sim.close();
    process.exit(0);
  });
});
